/**
 * Unified diffs and 3-way merges over line arrays. Both trim the common
 * prefix and suffix first, so an edit near one spot of a 10 MB file costs
 * time in proportion to the file, not to its square.
 */
import { diffLines } from "./myers.js";

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

/**
 * A stretch of lines with one tag. `old` and `new` are 0-based positions on
 * each side where it starts (for an added run, `old` is where it sits in
 * the old file). Runs keep a diff of a 2,000,000-line file to a handful of
 * objects: only the lines a hunk shows are ever visited.
 */
type Run = { tag: " " | "-" | "+"; old: number; new: number; count: number };

function pushRun(runs: Run[], tag: Run["tag"], old: number, at: number, count: number): void {
  if (count <= 0) return;
  const last = runs.at(-1);
  if (last?.tag === tag && tag === " ") last.count += count;
  else runs.push({ tag, old, new: at, count });
}

/** The runs of the window [from, oldEnd) x [from, newEnd), in file positions. */
function changedRuns(
  runs: Run[],
  oldLines: string[],
  newLines: string[],
  from: number,
  oldEnd: number,
  newEnd: number,
): void {
  let o = from;
  let n = from;
  // Myers up to MAX_EDIT_LENGTH edits: its cost is bounded by that, whatever the file's size.
  const changes = diffLines(
    oldLines.slice(from, oldEnd),
    newLines.slice(from, newEnd),
    MAX_EDIT_LENGTH,
  );
  if (!changes) {
    pushRun(runs, "-", o, n, oldEnd - from);
    pushRun(runs, "+", oldEnd, n, newEnd - from);
    return;
  }
  for (const { tag, count } of changes) {
    pushRun(runs, tag, o, n, count);
    if (tag !== "+") o += count;
    if (tag !== "-") n += count;
  }
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
  const oldEnd = oldLines.length - keepSuffix;
  const newEnd = newLines.length - keepSuffix;
  const runs: Run[] = [];
  pushRun(runs, " ", 0, 0, prefix);
  changedRuns(runs, oldLines, newLines, prefix, oldEnd, newEnd);
  pushRun(runs, " ", oldEnd, newEnd, keepSuffix);
  const last = runs.at(-1);
  if (eolChanged && oldLines.length > 0 && newLines.length > 0 && last?.tag === " ") {
    // The last line is the same text but its terminator changed: show it as replaced.
    last.count--;
    const o = last.old + last.count;
    const n = last.new + last.count;
    if (last.count === 0) runs.pop();
    runs.push({ tag: "-", old: o, new: n, count: 1 }, { tag: "+", old: o + 1, new: n, count: 1 });
  }
  return formatHunks(runs, oldLines, newLines, context, options.path, {
    oldLast: oldEol ? -1 : oldLines.length,
    newLast: newEol ? -1 : newLines.length,
  });
}

function formatHunks(
  runs: Run[],
  oldLines: string[],
  newLines: string[],
  context: number,
  path: string,
  noEol: { oldLast: number; newLast: number },
): string {
  const out = [`--- a/${path}`, `+++ b/${path}`];
  const emit = (tag: Run["tag"], o: number, n: number) => {
    out.push(`${tag}${tag === "+" ? newLines[n] : oldLines[o]}`);
    const isOldLast = tag !== "+" && o + 1 === noEol.oldLast;
    const isNewLast = tag !== "-" && n + 1 === noEol.newLast;
    if (isOldLast || isNewLast) out.push("\\ No newline at end of file");
  };
  let r = 0;
  let any = false;
  while (r < runs.length) {
    if (runs[r]!.tag === " ") {
      r++;
      continue;
    }
    any = true;
    // Changes whose context would overlap share a hunk; equal runs never touch (pushRun).
    let end = r;
    for (;;) {
      while (end + 1 < runs.length && runs[end + 1]!.tag !== " ") end++;
      const gap = runs[end + 1];
      if (!gap || end + 2 >= runs.length || gap.count >= 2 * context) break;
      end += 2;
    }
    const before = r > 0 ? runs[r - 1]! : undefined;
    const after = end + 1 < runs.length ? runs[end + 1]! : undefined;
    const lead = before ? Math.min(context, before.count) : 0;
    const trail = after ? Math.min(context, after.count) : 0;
    let oldCount = lead + trail;
    let newCount = lead + trail;
    for (let k = r; k <= end; k++) {
      const run = runs[k]!;
      if (run.tag !== "+") oldCount += run.count;
      if (run.tag !== "-") newCount += run.count;
    }
    const o0 = before ? before.old + before.count - lead : runs[r]!.old;
    const n0 = before ? before.new + before.count - lead : runs[r]!.new;
    out.push(
      `@@ -${oldCount === 0 ? o0 : o0 + 1},${oldCount} +${newCount === 0 ? n0 : n0 + 1},${newCount} @@`,
    );
    for (let i = 0; i < lead; i++) emit(" ", o0 + i, n0 + i);
    for (let k = r; k <= end; k++) {
      const run = runs[k]!;
      for (let i = 0; i < run.count; i++) {
        emit(
          run.tag,
          run.tag === "+" ? run.old : run.old + i,
          run.tag === "-" ? run.new : run.new + i,
        );
      }
    }
    for (let i = 0; i < trail; i++) emit(" ", after!.old + i, after!.new + i);
    r = end + 1;
  }
  return any ? `${out.join("\n")}\n` : "";
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
  // Diff only what differs.
  const { prefix, suffix } = commonSpan(base, other);
  const baseMid = base.slice(prefix, base.length - suffix);
  const otherMid = other.slice(prefix, other.length - suffix);
  if (baseMid.length === 0 && otherMid.length === 0) return [];
  const changes = diffLines(baseMid, otherMid, MAX_EDIT_LENGTH);
  if (!changes)
    return [{ start: prefix, end: prefix + baseMid.length, lines: otherMid, at: prefix }];
  const out: Hunk[] = [];
  let b = prefix;
  let o = prefix;
  for (const { tag, count } of changes) {
    if (tag === " ") {
      b += count;
      o += count;
      continue;
    }
    let last = out.at(-1);
    if (!last || last.end !== b || last.at + last.lines.length !== o) {
      last = { start: b, end: b, lines: [], at: o };
      out.push(last);
    }
    if (tag === "-") {
      last.end += count;
      b += count;
    } else {
      for (let k = 0; k < count; k++) last.lines.push(other[o + k]!);
      o += count;
    }
  }
  return out;
}

/** A range of lines [start, end) of one version; empty: a point between lines. */
export interface LineSpan {
  start: number;
  end: number;
}

/** Two changes collide when their base ranges overlap, or both insert at one point. */
export function collide(a: LineSpan, b: LineSpan): boolean {
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
      let first = Number.POSITIVE_INFINITY;
      let last = 0;
      for (const t of clash) {
        first = Math.min(first, t.at);
        last = Math.max(last, t.at + Math.max(t.lines.length, 1));
      }
      conflicts.push([first + 1, last]);
      j = other.indexOf(clash.at(-1)!) + 1;
    }
  }
  for (; j < other.length; j++) merged.push(other[j]!);
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
