/**
 * Which diagnostics an edit introduced and which it resolved. A diagnostic is
 * the same one after the edit when its code and message are equal and its
 * line, shifted through the edit's line diff, is where it was — so an
 * unrelated error that merely moved is neither. Pure: strings in, lists out.
 */
import { changeHunks } from "../text/diff.js";

export type Severity = "error" | "warning" | "information" | "hint";

/** A diagnostic as results show it: 1-based line and column. */
export interface LspDiagnostic {
  file: string;
  line: number;
  column: number;
  severity: Severity;
  code?: string | number;
  message: string;
  source?: string;
}

/** Lines [oldStart, oldEnd) of the old text became [newStart, newEnd) of the new (0-based). */
export interface LineHunk {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  newEnd: number;
}

/** The changed regions between two versions, in order (the unified diff's hunks, in line numbers). */
export function lineHunks(before: readonly string[], after: readonly string[]): LineHunk[] {
  return changeHunks(before, after).map((h) => ({
    oldStart: h.start,
    oldEnd: h.end,
    newStart: h.at,
    newEnd: h.at + h.lines.length,
  }));
}

/**
 * How many hunks lie wholly above a 0-based line of one side (binary search):
 * the index of the hunk that holds the line, if one does. An insertion right
 * before the line counts as above it.
 */
function hunkFrom(hunks: readonly LineHunk[], line: number, side: "old" | "new"): number {
  let lo = 0;
  let hi = hunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const end = side === "old" ? hunks[mid]!.oldEnd : hunks[mid]!.newEnd;
    if (end <= line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Where a 1-based old line is after the edit, or undefined when the edit
 * replaced or deleted it. Lines before, between and after the changes shift by
 * what the changes above them added or removed.
 */
export function shiftLine(hunks: readonly LineHunk[], line: number): number | undefined {
  const at = line - 1;
  const i = hunkFrom(hunks, at, "old");
  const h = hunks[i];
  if (h && h.oldStart <= at && at < h.oldEnd) return undefined;
  const prev = i > 0 ? hunks[i - 1]! : undefined;
  const delta = prev ? prev.newEnd - prev.oldEnd : 0;
  return line + delta;
}

/** Whether a 1-based line of the new text is one the edit wrote. */
export function isChangedLine(hunks: readonly LineHunk[], newLine: number): boolean {
  const at = newLine - 1;
  const h = hunks[hunkFrom(hunks, at, "new")];
  return h !== undefined && h.newStart <= at && at < h.newEnd;
}

/**
 * Where a 1-based old line most likely is after the edit: its shifted line,
 * or, for a line the edit replaced, the line at the same offset inside the
 * replacement (clipped to it).
 */
export function approximateLine(hunks: readonly LineHunk[], line: number): number {
  const shifted = shiftLine(hunks, line);
  if (shifted !== undefined) return shifted;
  const h = hunks[hunkFrom(hunks, line - 1, "old")]!;
  const offset = line - 1 - h.oldStart;
  const last = Math.max(h.newStart, h.newEnd - 1);
  return Math.min(h.newStart + offset, last) + 1;
}

export interface DiagnosticDelta {
  introduced: LspDiagnostic[];
  resolved: LspDiagnostic[];
  /** Diagnostics present on both sides (moved or not). */
  kept: number;
}

const keyOf = (d: LspDiagnostic) => `${d.code ?? ""}\u0000${d.message}`;

/**
 * Pairs diagnostics across an edit. First, a diagnostic on a line the edit
 * left alone pairs with the same code and message at its shifted line. Then a
 * diagnostic on a line the edit rewrote pairs with the same code and message
 * on a rewritten line of the new text, nearest first (an edited line that
 * still has its error keeps it). What stays unpaired was introduced or
 * resolved.
 */
export function compareDiagnostics(
  before: readonly LspDiagnostic[],
  after: readonly LspDiagnostic[],
  hunks: readonly LineHunk[],
): DiagnosticDelta {
  const pool = new Map<string, LspDiagnostic[]>();
  for (const d of after) {
    const key = keyOf(d);
    const list = pool.get(key);
    if (list) list.push(d);
    else pool.set(key, [d]);
  }
  const take = (key: string, pick: (list: LspDiagnostic[]) => number): boolean => {
    const list = pool.get(key);
    if (!list) return false;
    const i = pick(list);
    if (i < 0) return false;
    list.splice(i, 1);
    return true;
  };
  const resolved: LspDiagnostic[] = [];
  const rewritten: LspDiagnostic[] = [];
  let kept = 0;
  for (const d of before) {
    const line = shiftLine(hunks, d.line);
    if (line === undefined) {
      rewritten.push(d);
      continue;
    }
    const key = keyOf(d);
    const sameColumn = (list: LspDiagnostic[]) =>
      list.findIndex((a) => a.line === line && a.column === d.column);
    const sameLine = (list: LspDiagnostic[]) => list.findIndex((a) => a.line === line);
    if (take(key, sameColumn) || take(key, sameLine)) kept++;
    else resolved.push(d);
  }
  for (const d of rewritten) {
    const near = approximateLine(hunks, d.line);
    const nearest = (list: LspDiagnostic[]) => {
      let best = -1;
      for (const [i, a] of list.entries()) {
        if (!isChangedLine(hunks, a.line)) continue;
        if (best < 0 || Math.abs(a.line - near) < Math.abs(list[best]!.line - near)) best = i;
      }
      return best;
    };
    if (take(keyOf(d), nearest)) kept++;
    else resolved.push(d);
  }
  const left = new Set([...pool.values()].flat());
  const introduced = after.filter((d) => left.has(d));
  return { introduced, resolved, kept };
}
