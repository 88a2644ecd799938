/**
 * Edits whose old_text and new_text differ only in whitespace. No
 * whitespace-blind rung may place them: one that ignores indentation turns
 * "9 spaces to 8" into "8 spaces to 7". Three outcomes are right: the
 * exact quote applies, a file that already holds new_text is left as it is
 * ("no change"), and a quote whose whitespace is not the file's is refused.
 */
import type { Rng } from "../lib.js";
import { type Draft, feasibleShifts, refuseCase, shiftBy } from "./drafts.js";
import { countExact, type FileInfo, isBlank, joinText, pickSpan, withSpan } from "./spans.js";

export const WHITESPACE_CLASSES = ["ws_reindent", "ws_already", "ws_misquoted"] as const;

/** A 1..4-line span with indented content, quoted exactly once in the file. */
function indentedSpan(info: FileInfo, rng: Rng) {
  const s = pickSpan(info, rng, {
    min: 1,
    max: 4,
    need: (lines) => lines.every((l) => isBlank(l) || /^ {2,}\S/.test(l)),
  });
  if (!s) return undefined;
  const span = info.lines.slice(s.from, s.to);
  const nl = rng.chance(0.5);
  if (countExact(info.text, joinText(span, nl)) !== 1) return undefined;
  return { ...s, span, nl };
}

const describe = (by: number) => `${by > 0 ? "+" : ""}${by} spaces`;

/** The exact quote, re-indented: only the exact rung may place it, and it does. */
export function wsReindent(info: FileInfo, rng: Rng): Draft | undefined {
  const s = indentedSpan(info, rng);
  if (!s) return undefined;
  const shifts = feasibleShifts(s.span, [2, 4, -2, -4, 1, -1]);
  if (shifts.length === 0) return undefined;
  const by = rng.pick(shifts);
  const next = s.span.map(shiftBy(by));
  return {
    line: s.from + 1,
    endLine: s.to,
    what: `quoted exactly, re-indented ${describe(by)}`,
    read: info.text,
    original: info.text,
    oldText: joinText(s.span, s.nl),
    newText: joinText(next, s.nl),
    expected: { kind: "apply", text: withSpan(info, s.from, s.to, next) },
  };
}

/**
 * The file already holds new_text: old_text is it with one more or one
 * less space of indentation (the ViewTransition report). Right: no change.
 */
export function wsAlready(info: FileInfo, rng: Rng): Draft | undefined {
  const s = indentedSpan(info, rng);
  if (!s) return undefined;
  const shifts = feasibleShifts(s.span, [1, -1]);
  if (shifts.length === 0) return undefined;
  const by = rng.pick(shifts);
  const old = joinText(s.span.map(shiftBy(by)), s.nl);
  if (countExact(info.text, old, 1) > 0) return undefined;
  return {
    line: s.from + 1,
    endLine: s.to,
    what: `old_text is the file's text ${describe(by)}; new_text is the file's text`,
    read: info.text,
    original: info.text,
    oldText: old,
    newText: joinText(s.span, s.nl),
    expected: { kind: "unchanged" },
  };
}

/** Neither old_text nor new_text has the file's whitespace: which change was meant is unknown. */
export function wsMisquoted(info: FileInfo, rng: Rng): Draft | undefined {
  const s = indentedSpan(info, rng);
  if (!s) return undefined;
  const shifts = feasibleShifts(s.span, [2, 1, -1, -2]);
  if (shifts.length < 2) return undefined;
  const [a, b] = [rng.pick(shifts), rng.pick(shifts)];
  if (a === b) return undefined;
  const old = joinText(s.span.map(shiftBy(a)), s.nl);
  const next = joinText(s.span.map(shiftBy(b)), s.nl);
  if (countExact(info.text, old, 1) > 0 || countExact(info.text, next, 1) > 0) return undefined;
  const what = `old_text ${describe(a)}, new_text ${describe(b)} from the file's indentation`;
  return refuseCase(info.text, info.text, [s.from + 1, s.to], old, next, what);
}
