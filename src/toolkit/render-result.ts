/**
 * The model-readable view of a tool call, the same for every host. The view
 * follows the result's shape, not the tool's name, so a new tool needs no
 * change here: a `content` string (read, list, search) is shown as is; a
 * `header` and `diff` (edit, write, rollback) as the header and the changed
 * lines (changed-lines.ts), or the whole diff when the toolkit was made with
 * `resultDiff: "full"`; anything else as JSON. Warnings become bracketed
 * notice lines, the form read output already uses for lines that are not
 * file lines. Images (a read of a PNG, a notebook's plots) travel beside the
 * text: `resultImages` collects them for each host's own image content.
 *
 * A toolkit marks each result with its output budget (`limits.outputBytes`);
 * the text never exceeds it. Tools stop at the budget themselves and end with
 * how to go on; whatever is still longer is cut here (`fitToBudget`), keeping
 * its start and its closing notices.
 */
import { clip, isToolError } from "../errors.js";
import type { ImageContent } from "../media/image.js";
import { changedLines } from "../text/changed-lines.js";
import { count, formatBytes } from "../util/format.js";

/** How a result's diff is shown to the model. */
export type ResultDiff = "changes" | "full";

/**
 * A toolkit made with `resultDiff: "full"` marks its results with this key.
 * A symbol travels with the result to every host's renderResult call and
 * never into JSON (MCP structuredContent, --json).
 */
export const RESULT_DIFF = Symbol("splice.resultDiff");

/** The result marked to render its diff whole; a result that is not an object is left as is. */
export function withResultDiff<T>(result: T, view: ResultDiff): T {
  if (view === "full" && typeof result === "object" && result !== null) {
    Object.defineProperty(result, RESULT_DIFF, { value: view, enumerable: false });
  }
  return result;
}

/** A toolkit marks its results with its output budget under this key, like RESULT_DIFF. */
export const RESULT_BUDGET = Symbol("splice.outputBudget");

/** The result marked with the most bytes of text its rendering may have. */
export function withOutputBudget<T>(result: T, bytes: number): T {
  if (typeof result === "object" && result !== null) {
    Object.defineProperty(result, RESULT_BUDGET, { value: bytes, enumerable: false });
  }
  return result;
}

/** Room for the two lines a cut adds: the first line, and the marker where the text was cut. */
const CUT_NOTE_BYTES = 400;
/** The most of a result's closing notices (`[…]` lines: how to go on) kept when it is cut. */
const KEPT_END_BYTES = 2_000;

const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

/** The first `bytes` of a line, at a character boundary. */
function headOf(line: string, bytes: number): string {
  const buffer = Buffer.from(line, "utf8").subarray(0, Math.max(0, bytes));
  return new TextDecoder().decode(buffer).replace(/\uFFFD$/, "");
}

/**
 * The text within `budget` bytes: unchanged when it fits; else its first
 * lines, a marker saying how much was cut, and its closing notices (the
 * tool's own "read the rest with …" lines), with one line at the very start
 * saying it was cut, for a client that keeps only a result's two ends.
 */
export function fitToBudget(text: string, budget: number): string {
  const total = byteLength(text);
  if (total <= budget) return text;
  const lines = text.split("\n");
  let end = lines.length;
  let endBytes = 0;
  while (end > 1 && lines[end - 1]!.startsWith("[")) {
    const size = byteLength(lines[end - 1]!) + 1;
    if (endBytes + size > KEPT_END_BYTES) break;
    endBytes += size;
    end--;
  }
  const room = budget - CUT_NOTE_BYTES - endBytes;
  const head: string[] = [];
  let headBytes = 0;
  for (let i = 0; i < end; i++) {
    const size = byteLength(lines[i]!) + 1;
    if (headBytes + size > room) {
      // One line longer than the room (minified code, a long JSON line) is shown in part.
      if (i === 0) head.push(headOf(lines[0]!, room - 1));
      break;
    }
    head.push(lines[i]!);
    headBytes += size;
  }
  const cutBytes = total - byteLength(head.join("\n")) - endBytes;
  // A first line shown in part counts as cut.
  const whole = head.length === 1 && head[0] !== lines[0] ? 0 : head.length;
  const cutLines = end - whole;
  return [
    `[cut to ${count(budget)} bytes of ${formatBytes(total)}; the end says how to see the rest]`,
    ...head,
    `[… ${formatBytes(cutBytes)} (${count(cutLines)} lines) not shown here; narrow the call to see them: a line_range, a path, a glob, a smaller limit]`,
    ...lines.slice(end),
  ].join("\n");
}

import { undoView } from "./render-undo.js";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Longest first line of an unexpected error a model is shown. */
const MAX_FAULT_LENGTH = 300;

function notices(item: Json): string[] {
  const warnings = Array.isArray(item.warnings) ? item.warnings.filter((w) => str(w)) : [];
  return warnings.map((w) => `[${w}]`);
}

/** One target's text, or undefined when it has no readable view. */
function itemText(item: Json, view: ResultDiff): string | undefined {
  if (isObject(item.error)) {
    // A failed target of a batch that went on (read): which one and why, once.
    const { code, message } = item.error;
    const path = str(item.path);
    return `[${path === undefined ? "?" : clip(path)}: ${str(code)}: ${str(message)}]`;
  }
  const content = str(item.content);
  if (content !== undefined) return [content, ...notices(item)].filter(Boolean).join("\n");
  const header = str(item.header);
  if (header !== undefined) {
    const diff = str(item.diff) ?? "";
    const shown = view === "full" ? diff.trimEnd() : changedLines(diff);
    return [header, shown, ...notices(item)].filter(Boolean).join("\n");
  }
  return undefined;
}

function resultText(result: unknown): string {
  if (isObject(result)) {
    const view = (result as { [RESULT_DIFF]?: ResultDiff })[RESULT_DIFF] ?? "changes";
    const own = itemText(result, view) ?? undoView(result);
    if (own !== undefined) return own;
    if (Array.isArray(result.results) && result.results.every(isObject)) {
      const parts = result.results.map((item) => itemText(item, view));
      if (parts.every((p) => p !== undefined)) {
        return [parts.join("\n\n"), ...notices(result)].filter(Boolean).join("\n");
      }
    }
  }
  return JSON.stringify(result, null, 2) ?? "";
}

export type { ImageContent };

const isImage = (value: unknown): value is ImageContent =>
  isObject(value) &&
  value.type === "image" &&
  typeof value.mime_type === "string" &&
  typeof value.data === "string";

const imagesOf = (item: Json): ImageContent[] =>
  Array.isArray(item.images) ? item.images.filter(isImage) : [];

/** The images a result carries (its own `images`, then each of its `results`' in order). */
export function resultImages(result: unknown): ImageContent[] {
  if (!isObject(result)) return [];
  const items = Array.isArray(result.results) ? result.results.filter(isObject) : [];
  return [...imagesOf(result), ...items.flatMap(imagesOf)];
}

/** What the model reads for a call that succeeded, within the result's output budget. */
export function renderResult(toolName: string, result: unknown): string {
  // An empty tool result reads to a model like a dropped call.
  const text = resultText(result) || `[${toolName} returned nothing]`;
  const budget = isObject(result)
    ? (result as { [RESULT_BUDGET]?: number })[RESULT_BUDGET]
    : undefined;
  return budget === undefined ? text : fitToBudget(text, budget);
}

/**
 * What the model reads for a call that failed. A ToolError is `code: message`
 * (the message already says what to do next). Anything else is a fault of
 * splice or its environment: one line, never a stack trace.
 */
export function renderError(toolName: string, error: unknown): string {
  if (isToolError(error)) return `${error.code}: ${error.message}`;
  const raw = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = raw.split("\n", 1)[0]!.trim();
  const fault = line.length > MAX_FAULT_LENGTH ? `${line.slice(0, MAX_FAULT_LENGTH)}…` : line;
  return `internal: the ${toolName} tool failed unexpectedly (${fault}). This is not a problem with your arguments; tell the user if it keeps happening.`;
}
