/**
 * The lines a file's hunks are applied to, where each came from, and what a
 * placed hunk is: shared by the search (locate.ts) and the tie-breaks
 * (place.ts).
 */
import type { MatchMode, Rung } from "../text/match/types.js";
import type { Candidate } from "../text/replace.js";
import type { HunkErrorCode } from "./errors.js";
import type { Hunk } from "./types.js";

export interface Span {
  /** 0-based [from, to) in the current lines. */
  from: number;
  to: number;
}

export interface Located {
  span: Span;
  /** The replacement for the span, and where each of its lines came from. */
  lines: string[];
  origin: number[];
  /** Per replacement line: the current line whose terminator it takes (-1: the dominant one). */
  eolFrom: number[];
  mode: MatchMode;
  rung: Rung;
  score: number;
  warnings: string[];
  /** Set when the old lines matched several places and the header chose one. */
  chosenBy?: "end_of_file" | "start_of_file" | "header" | "same_change";
  otherLines?: number[];
}

export type Search = { ok: true; found: Located } | { ok: false; error: Refusal };

export interface Refusal {
  code: HunkErrorCode;
  lines?: number[];
  candidates?: Candidate[];
}

export const MAX_LISTED = 10;

export class FileState {
  lines: string[];
  origin: number[];
  /** Per line: the original line whose terminator it keeps (a replaced line keeps its own). */
  eolFrom: number[];
  readonly originalCount: number;
  constructor(lines: readonly string[]) {
    this.lines = [...lines];
    this.origin = this.lines.map((_, i) => i);
    this.eolFrom = [...this.origin];
    this.originalCount = lines.length;
  }

  /**
   * The 1-based original line at current index `i`: the line itself when it
   * is an original one, else the line after the nearest original line above
   * (a new line, or the end, sits where that next original line would be).
   */
  lineNo(i: number): number {
    if (i < this.lines.length && this.origin[i]! >= 0) return this.origin[i]! + 1;
    for (let k = Math.min(i, this.lines.length) - 1; k >= 0; k--) {
      if (this.origin[k]! >= 0) return this.origin[k]! + 2;
    }
    return 1;
  }

  /** Current index just after original line `n` (1-based; 0 = the start). */
  indexAfterOriginal(n: number): number {
    if (n <= 0) return 0;
    let best = 0;
    for (let i = 0; i < this.origin.length; i++) {
      const o = this.origin[i]!;
      if (o >= 0 && o < n) best = i + 1;
      if (o >= n) break;
    }
    return best;
  }

  /** Current index of original line `n` (0-based), or -1 when it is gone. */
  indexOfOriginal(n: number): number {
    const i = this.indexAfterOriginal(n);
    return this.origin[i] === n ? i : -1;
  }

  /** `eolFrom` holds current indexes (as a Located's does); they become original lines here. */
  splice(span: Span, lines: string[], origin: number[], eolFrom: number[]): void {
    const eols = eolFrom.map((i) => (i >= 0 ? this.eolFrom[i]! : -1));
    this.lines = spliced(this.lines, span, lines);
    this.origin = spliced(this.origin, span, origin);
    this.eolFrom = spliced(this.eolFrom, span, eols);
  }
}

/** `list` with `span` replaced; concat, not splice(...spread): a hunk may add more lines than a call takes arguments. */
function spliced<T>(list: T[], span: Span, items: T[]): T[] {
  return list.slice(0, span.from).concat(items, list.slice(span.to));
}

/**
 * The hunk over a span its old lines matched line for line: context lines
 * stay the file's own, and an added line that replaces a removed one keeps
 * that line's terminator (a mixed-ending file stays as it was).
 */
export function spanLocated(state: FileState, hunk: Hunk, span: Span, rung: Rung): Located {
  const lines: string[] = [];
  const origin: number[] = [];
  const eolFrom: number[] = [];
  let removed: number[] = [];
  let k = span.from;
  for (const l of hunk.lines) {
    if (l.op === "-") removed.push(k++);
    else if (l.op === "+") {
      lines.push(l.text);
      origin.push(-1);
      eolFrom.push(removed.shift() ?? -1);
    } else {
      removed = [];
      lines.push(state.lines[k]!);
      origin.push(state.origin[k]!);
      eolFrom.push(k);
      k++;
    }
  }
  const mode: MatchMode = rung === "exact" ? "exact" : "fuzzy";
  return { span, lines, origin, eolFrom, mode, rung, score: 1, warnings: [] };
}

/**
 * Starts (0-based) of every place where `needle` is whole lines of `hay`,
 * overlapping ones included, at most MAX_LISTED + 1. Knuth-Morris-Pratt over
 * lines: linear even in a file of identical lines.
 */
export function lineAlignedMatches(
  hay: readonly string[],
  needle: readonly string[],
  from: number,
  to: number,
): number[] {
  const m = needle.length;
  if (m === 0 || m > to - from) return [];
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && needle[i] !== needle[k]) k = fail[k - 1]!;
    if (needle[i] === needle[k]) k++;
    fail[i] = k;
  }
  const out: number[] = [];
  for (let i = from, q = 0; i < to; i++) {
    while (q > 0 && needle[q] !== hay[i]) q = fail[q - 1]!;
    if (needle[q] === hay[i]) q++;
    if (q === m) {
      out.push(i - m + 1);
      if (out.length > MAX_LISTED) break;
      q = fail[q - 1]!;
    }
  }
  return out;
}
