/**
 * What a finished call did, for the person at the terminal: the diff each
 * change wrote (also when nobody was asked), the errors validation found in
 * it, the warnings the tool gave, the images a read sent, and why a call
 * failed. Read from the result's shape, not the tool's name (like the
 * model's view), so a new tool that writes files is shown without a change
 * here.
 */
import { isToolError } from "../errors.js";
import { printable, type Terminal } from "./terminal.js";

/** A long diff stops here on screen; /diff shows all of it. */
export const MAX_DIFF_LINES = 80;
/** Errors listed under a change; the model gets every one. */
const MAX_ERRORS = 10;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

interface Diagnostic {
  file: string;
  line: number;
  column: number;
  code?: string | number;
  message: string;
}

/** One file a call wrote (or would have): its diff, validation and warnings. */
export interface ShownChange {
  path: string;
  diff: string;
  /** Errors validation says the change introduced, in this file and files importing it. */
  introduced: Diagnostic[];
  /** Validation could not judge the change: why (skipped, uncertain). */
  unchecked?: string;
  warnings: string[];
}

function diagnostics(value: unknown): Diagnostic[] {
  return Array.isArray(value) ? value.filter(isObject).map((d) => d as unknown as Diagnostic) : [];
}

function changeOf(item: Json): ShownChange | undefined {
  if (typeof item.diff !== "string") return undefined;
  const validation = isObject(item.validation) ? item.validation : undefined;
  const other = validation && isObject(validation.other_files) ? validation.other_files : undefined;
  const introduced = [
    ...diagnostics(validation?.introduced_errors),
    ...diagnostics(other?.introduced_errors),
  ];
  const status = validation?.status;
  const unchecked =
    status === "uncertain" && typeof validation?.reason === "string"
      ? validation.reason
      : undefined;
  const warnings = Array.isArray(item.warnings)
    ? item.warnings.filter((w): w is string => typeof w === "string")
    : [];
  return {
    path: typeof item.path === "string" ? item.path : "",
    diff: item.diff,
    introduced,
    ...(unchecked ? { unchecked } : {}),
    warnings,
  };
}

/** The files a result says were changed: itself, its `results` (edit batches) or `files` (undo). */
export function changesOf(result: unknown): ShownChange[] {
  if (!isObject(result)) return [];
  const items = Array.isArray(result.results)
    ? result.results
    : Array.isArray(result.files)
      ? result.files
      : [result];
  return items.filter(isObject).flatMap((item) => changeOf(item) ?? []);
}

/** The status of a call whose changes validation found errors in, else undefined. */
export function validationStatus(changes: readonly ShownChange[]): string | undefined {
  const errors = changes.reduce((n, c) => n + c.introduced.length, 0);
  if (errors === 0) return undefined;
  return `written with ${errors} new error${errors === 1 ? "" : "s"}`;
}

/** A diff (or any lines) set off from the conversation, coloured like git's. */
export function frame(text: string, terminal: Terminal, maxLines = Number.POSITIVE_INFINITY) {
  const lines = text.replace(/\n$/, "").split("\n").map(printable);
  const shown = lines.length > maxLines ? lines.slice(0, maxLines) : lines;
  const out = shown.map((line) => {
    const painted =
      line.startsWith("+++") || line.startsWith("---")
        ? terminal.paint("bold", line)
        : line.startsWith("+")
          ? terminal.paint("green", line)
          : line.startsWith("-")
            ? terminal.paint("red", line)
            : line.startsWith("@@")
              ? terminal.paint("cyan", line)
              : line;
    return `  │ ${painted}`;
  });
  if (lines.length > shown.length) {
    out.push(
      terminal.paint("dim", `  │ [… ${lines.length - shown.length} more lines; /diff shows all]`),
    );
  }
  return out.join("\n");
}

const where = (d: Diagnostic) => `${d.file}:${d.line}:${d.column}`;

/** Under a call's line: each change's diff (unless already shown), new errors, warnings. */
export function showChanges(
  terminal: Terminal,
  changes: readonly ShownChange[],
  shownBefore: string | undefined,
): void {
  const diff = changes.map((c) => c.diff).join("");
  if (diff.trim() && diff !== shownBefore) terminal.line(frame(diff, terminal, MAX_DIFF_LINES));
  for (const change of changes) {
    for (const d of change.introduced.slice(0, MAX_ERRORS)) {
      const code = d.code === undefined ? "" : ` (${d.code})`;
      terminal.line(terminal.paint("red", printable(`  ✗ ${where(d)}: ${d.message}${code}`)));
    }
    if (change.introduced.length > MAX_ERRORS) {
      const more = change.introduced.length - MAX_ERRORS;
      terminal.line(terminal.paint("red", `  ✗ … ${more} more in ${printable(change.path)}`));
    }
    if (change.unchecked) {
      terminal.line(terminal.paint("yellow", printable(`  ! not validated: ${change.unchecked}`)));
    }
    for (const w of change.warnings) terminal.line(terminal.paint("yellow", printable(`  ! ${w}`)));
  }
}

/**
 * Under a read's line, for each file it sent images of (an image, a PDF's
 * drawn pages, a notebook's image outputs): its summary line and how many
 * went to the model, since the terminal cannot show them.
 */
export function showImages(terminal: Terminal, result: unknown): void {
  if (!isObject(result)) return;
  const items = Array.isArray(result.results) ? result.results : [result];
  for (const item of items.filter(isObject)) {
    const n = Array.isArray(item.images) ? item.images.length : 0;
    if (n === 0 || typeof item.content !== "string") continue;
    const summary = item.content.split("\n", 1)[0]!;
    const sent = `[${n} image${n === 1 ? "" : "s"} sent to the model]`;
    terminal.line(terminal.paint("dim", printable(`  ${summary} ${sent}`)));
  }
}

/** Why a call failed, under its line: the tool's sentence, which says what to do next. */
export function showFailure(terminal: Terminal, error: unknown, redact: (t: string) => string) {
  const message = isToolError(error)
    ? error.message
    : error instanceof Error
      ? error.message.split("\n", 1)[0]!
      : "";
  if (!message.trim()) return;
  const lines = redact(message).trimEnd().split("\n").slice(0, 12);
  terminal.line(terminal.paint("red", lines.map((l) => `  ${printable(l)}`).join("\n")));
}
