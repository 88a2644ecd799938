/**
 * Unified diffs and 3-way merges over line arrays. Both trim the common
 * prefix and suffix first, so an edit near one spot of a 10 MB file costs
 * time in proportion to the file, not to its square.
 */
import { diffArrays } from "diff";

/** Diffs with more edits than this fall back to one whole-window hunk. */
const MAX_EDIT_LENGTH = 4000;

export interface Span {
  /** Common leading lines. */
  prefix: number;
  /** Common trailing lines (not overlapping the prefix). */
  suffix: number;
}

/** How many lines two versions share at the start, and (not overlapping that) at the end. */
export function commonSpan(a: readonly string[], b: readonly string[]): Span {
  // Plain loops: this runs over every line of the file on every edit.
  const min = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < min && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < min - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  return { prefix, suffix };
}

type DiffLine = { tag: " " | "-" | "+"; text: string; oldNo: number; newNo: number };

function changedLines(oldLines: string[], newLines: string[], from: number): DiffLine[] {
  const out: DiffLine[] = [];
  let oldNo = from;
  let newNo = from;
  const changes = diffArrays(oldLines, newLines, { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) {
    for (const text of oldLines) out.push({ tag: "-", text, oldNo: oldNo++, newNo });
    for (const text of newLines) out.push({ tag: "+", text, oldNo, newNo: newNo++ });
    return out;
  }
  for (const change of changes) {
    for (const text of change.value) {
      if (change.removed) out.push({ tag: "-", text, oldNo: oldNo++, newNo });
      else if (change.added) out.push({ tag: "+", text, oldNo, newNo: newNo++ });
      else out.push({ tag: " ", text, oldNo: oldNo++, newNo: newNo++ });
    }
  }
  return out;
}

export interface DiffOptions {
  /** Path shown in the `---`/`+++` headers. */
  path: string;
  context?: number;
  /** Whether each side ends with a newline; a change of it is shown git-style. */
  oldFinalNewline?: boolean;
  newFinalNewline?: boolean;
}

/** A git-style unified diff, or "" when nothing changed. */
export function unifiedDiff(oldLines: string[], newLines: string[], options: DiffOptions): string {
  const context = options.context ?? 3;
  const oldEol = options.oldFinalNewline ?? true;
  const newEol = options.newFinalNewline ?? true;
  const eolChanged = oldEol !== newEol;
  const { prefix, suffix } = commonSpan(oldLines, newLines);
  // A final-newline change touches the last line, so keep it inside the window.
  const keepSuffix = eolChanged ? 0 : suffix;
  if (prefix === oldLines.length && prefix === newLines.length && !eolChanged) return "";
  const start = Math.max(0, prefix - context);
  const oldEnd = oldLines.length - keepSuffix;
  const newEnd = newLines.length - keepSuffix;
  const lines: DiffLine[] = [];
  for (let i = start; i < prefix && i < oldEnd && i < newEnd; i++) {
    lines.push({ tag: " ", text: oldLines[i]!, oldNo: i + 1, newNo: i + 1 });
  }
  const middleFrom = Math.min(prefix, oldEnd, newEnd);
  lines.push(
    ...changedLines(
      oldLines.slice(middleFrom, oldEnd),
      newLines.slice(middleFrom, newEnd),
      middleFrom + 1,
    ),
  );
  if (eolChanged && oldLines.length > 0 && newLines.length > 0) {
    // The last line is the same text but its terminator changed: show it as replaced.
    const lastOld = lines.findLastIndex((l) => l.tag !== "+");
    const lastNew = lines.findLastIndex((l) => l.tag !== "-");
    if (lastOld === lastNew && lines[lastOld]?.tag === " ") {
      const l = lines[lastOld]!;
      lines.splice(lastOld, 1, { ...l, tag: "-" }, { ...l, tag: "+" });
    }
  }
  const trailing = Math.min(context, keepSuffix);
  for (let k = 0; k < trailing; k++) {
    const o = oldEnd + k;
    lines.push({ tag: " ", text: oldLines[o]!, oldNo: o + 1, newNo: newEnd + k + 1 });
  }
  return formatHunks(lines, context, options.path, {
    oldLast: oldEol ? -1 : oldLines.length,
    newLast: newEol ? -1 : newLines.length,
  });
}

function formatHunks(
  lines: DiffLine[],
  context: number,
  path: string,
  noEol: { oldLast: number; newLast: number },
): string {
  const changeAt = lines.map((l, i) => (l.tag === " " ? -1 : i)).filter((i) => i >= 0);
  if (changeAt.length === 0) return "";
  const out = [`--- a/${path}`, `+++ b/${path}`];
  let h = 0;
  while (h < changeAt.length) {
    let last = h;
    while (last + 1 < changeAt.length && changeAt[last + 1]! - changeAt[last]! <= 2 * context) {
      last++;
    }
    const from = Math.max(0, changeAt[h]! - context);
    const to = Math.min(lines.length - 1, changeAt[last]! + context);
    const hunk = lines.slice(from, to + 1);
    const oldCount = hunk.filter((l) => l.tag !== "+").length;
    const newCount = hunk.filter((l) => l.tag !== "-").length;
    const first = hunk[0]!;
    const oldStart = oldCount === 0 ? first.oldNo - 1 : first.oldNo;
    const newStart = newCount === 0 ? first.newNo - 1 : first.newNo;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const l of hunk) {
      out.push(`${l.tag}${l.text}`);
      const isOldLast = l.tag !== "+" && l.oldNo === noEol.oldLast;
      const isNewLast = l.tag !== "-" && l.newNo === noEol.newLast;
      if (isOldLast || isNewLast) out.push("\\ No newline at end of file");
    }
    h = last + 1;
  }
  return `${out.join("\n")}\n`;
}

/** 1-based first line where `next` differs from `prev`, or 0 when equal. */
export function firstChangedLine(prev: string[], next: string[]): number {
  const { prefix } = commonSpan(prev, next);
  if (prefix === prev.length && prefix === next.length) return 0;
  return Math.min(prefix + 1, Math.max(next.length, 1));
}

export type MergeResult =
  | { clean: true; lines: string[] }
  | {
      clean: false;
      /** 1-based inclusive ranges in `theirs` where the two sides collide. */
      conflicts: [number, number][];
    };

/** A change to `base`: lines [start, end) replaced by `lines`. */
export interface Hunk {
  start: number;
  end: number;
  lines: string[];
  /** Where the replacement sits in the changed version (0-based). */
  at: number;
}

/** The changes from `base` to `other` (Myers, so cost follows the number of edits). */
export function changeHunks(base: readonly string[], other: readonly string[]): Hunk[] {
  // Diff only what differs: jsdiff's cost per compared line is high.
  const { prefix, suffix } = commonSpan(base, other);
  const baseMid = base.slice(prefix, base.length - suffix);
  const otherMid = other.slice(prefix, other.length - suffix);
  if (baseMid.length === 0 && otherMid.length === 0) return [];
  const changes = diffArrays(baseMid, otherMid, { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes)
    return [{ start: prefix, end: prefix + baseMid.length, lines: otherMid, at: prefix }];
  const out: Hunk[] = [];
  let b = prefix;
  let o = prefix;
  for (const change of changes) {
    const n = change.value.length;
    if (!change.added && !change.removed) {
      b += n;
      o += n;
      continue;
    }
    let last = out.at(-1);
    if (!last || last.end !== b || last.at + last.lines.length !== o) {
      last = { start: b, end: b, lines: [], at: o };
      out.push(last);
    }
    if (change.removed) {
      last.end += n;
      b += n;
    } else {
      last.lines.push(...change.value);
      o += n;
    }
  }
  return out;
}

/** Two changes collide when their base ranges overlap, or both insert at one point. */
function collide(a: Hunk, b: Hunk): boolean {
  if (a.start === a.end && b.start === b.end) return a.start === b.start;
  return a.start < b.end && b.start < a.end;
}

const same = (a: Hunk, b: Hunk) =>
  a.start === b.start && a.end === b.end && a.lines.join("\n") === b.lines.join("\n");

/**
 * Merge `ours` and `theirs`, both descended from `base`. Identical changes on
 * both sides are not conflicts; a change of one side right next to a change
 * of the other is not either. Built on two Myers diffs, so a merge of a
 * one-line edit into a 10 MB file costs a few linear passes.
 */
export function merge3(base: string[], ours: string[], theirs: string[]): MergeResult {
  // Each side's hunks are in base coordinates, `at` in that side's own lines.
  const mine = changeHunks(base, ours);
  const other = changeHunks(base, theirs);
  const conflicts: [number, number][] = [];
  const merged: Hunk[] = [];
  let j = 0;
  for (const h of mine) {
    while (j < other.length && other[j]!.end <= h.start && !collide(other[j]!, h)) {
      merged.push(other[j++]!);
    }
    const clash = other.slice(j).filter((t) => collide(t, h));
    if (clash.length === 0) {
      merged.push(h);
    } else if (clash.length === 1 && same(clash[0]!, h)) {
      merged.push(h);
      j = other.indexOf(clash[0]!) + 1;
    } else {
      const first = Math.min(...clash.map((t) => t.at));
      const last = Math.max(...clash.map((t) => t.at + Math.max(t.lines.length, 1)));
      conflicts.push([first + 1, last]);
      j = other.indexOf(clash.at(-1)!) + 1;
    }
  }
  merged.push(...other.slice(j));
  if (conflicts.length > 0) return { clean: false, conflicts };
  merged.sort((x, y) => x.start - y.start || x.end - y.end);
  return { clean: true, lines: applyHunks(base, merged) };
}

/** `base` with sorted, non-overlapping hunks applied, built in one array of the final size. */
function applyHunks(base: string[], sorted: Hunk[]): string[] {
  let size = base.length;
  for (const h of sorted) size += h.lines.length - (h.end - h.start);
  const out: string[] = new Array(size);
  let n = 0;
  let at = 0;
  for (const h of sorted) {
    for (let i = at; i < h.start; i++) out[n++] = base[i]!;
    for (const line of h.lines) out[n++] = line;
    at = h.end;
  }
  for (let i = at; i < base.length; i++) out[n++] = base[i]!;
  return out;
}
