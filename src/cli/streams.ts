/**
 * Which stream a line goes to: stdout carries only the result (a file, a
 * diff, the hits), stderr everything said about it (warnings, notices, how
 * a run ended), so `splice search x | wc -l` counts hits and nothing else.
 */
import type { Paint } from "./format.js";

const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * A view's warning lines (`warning: …`, a target's `error [code]: …`, and the
 * indented lines that continue one) leave stdout for stderr, as cat says a
 * missing file there; the result stays in its order.
 */
export function splitWarnings(human: string): { out: string; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  let inWarning = false;
  for (const line of human.split("\n")) {
    const plain = line.replace(ANSI, "");
    if (plain.startsWith("warning: ") || /^error \[\w+\]: /.test(plain)) inWarning = true;
    else if (!(inWarning && /^\s+\S/.test(plain))) inWarning = false;
    (inWarning ? err : out).push(line);
  }
  return { out: out.join("\n"), err };
}

interface Diagnostic {
  file?: string;
  line?: number;
  column?: number;
  message?: string;
}

/** Every error a change introduced, in whatever result holds a validation (edit, write, patch…). */
export function introducedErrors(json: unknown, found: Diagnostic[] = []): Diagnostic[] {
  if (Array.isArray(json)) {
    for (const item of json) introducedErrors(item, found);
  } else if (typeof json === "object" && json !== null) {
    for (const [key, value] of Object.entries(json)) {
      if (key === "introduced_errors" && Array.isArray(value)) found.push(...value);
      else introducedErrors(value, found);
    }
  }
  return found;
}

const SHOWN = 5;

/** What stderr says of a written change that introduced errors: each error, then what exit means. */
export function validationNotice(
  errors: readonly Diagnostic[],
  strict: boolean,
  paint: Paint,
): string[] {
  const n = errors.length;
  const lines = [
    paint(
      "yellow",
      `warning: the change was written, and introduced ${n} error${n === 1 ? "" : "s"}:`,
    ),
  ];
  for (const d of errors.slice(0, SHOWN)) {
    lines.push(`  ${d.file ?? "?"}:${d.line ?? "?"}:${d.column ?? "?"}: ${d.message ?? ""}`);
  }
  if (n > SHOWN) lines.push(`  … and ${n - SHOWN} more (--json lists them all)`);
  lines.push(
    strict
      ? "  --strict: exit 3; splice undo takes the change back"
      : "  exit 0 all the same; pass --strict to exit 3 instead",
  );
  return lines;
}
