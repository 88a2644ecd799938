/**
 * Bounded similarity between lines and between runs of lines. Every cost is
 * capped: a line pair never costs more than MAX_LINE_CELLS Levenshtein cells,
 * and a whole match call never more than its Budget; past a cap the exact
 * distance is replaced by a lower bound on similarity, so running out of
 * budget can only turn a match into a refusal, never the other way round.
 */

/** 256 × 256: a pair of long lines still costs well under a millisecond. */
const MAX_LINE_CELLS = 65_536;
/** Per match call; about 10 ms of Levenshtein work at most. */
export const DEFAULT_CELL_BUDGET = 4_000_000;
/** Diagonals beyond the length difference the alignment may use, each side. */
export const BAND_SLACK = 2;
/** Two lines are called the same line, edited, from this similarity up. */
export const PAIR_MIN = 0.5;

export class Budget {
  constructor(public cells: number = DEFAULT_CELL_BUDGET) {}
}

/** 1 - levenshtein / longer length, on UTF-16 units; 1 for two empty strings. */
export function lineSimilarity(a: string, b: string, budget: Budget): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  let p = 0;
  const min = Math.min(a.length, b.length);
  while (p < min && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < min - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  const ra = a.length - p - s;
  const rb = b.length - p - s;
  const cells = ra * rb;
  if (ra === 0 || rb === 0 || cells > MAX_LINE_CELLS || cells > budget.cells) {
    // The distance is at most the longer remainder: a lower bound on similarity.
    return 1 - Math.max(ra, rb) / longer;
  }
  budget.cells -= cells;
  return 1 - levenshtein(a, b, p, ra, rb) / longer;
}

function levenshtein(a: string, b: string, from: number, ra: number, rb: number): number {
  let prev = new Int32Array(rb + 1);
  let cur = new Int32Array(rb + 1);
  for (let j = 0; j <= rb; j++) prev[j] = j;
  for (let i = 1; i <= ra; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(from + i - 1);
    for (let j = 1; j <= rb; j++) {
      const cost = ca === b.charCodeAt(from + j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[rb]!;
}

export interface Alignment {
  /** Per `a` line: the `b` line it is paired with, or -1. Monotone. */
  pairOf: number[];
  /** Per `a` line: similarity to its pair, 0 when unpaired. */
  sim: number[];
}

/**
 * Pairs lines of `a` with lines of `b` (both keyed) for the best total
 * similarity, by dynamic programming restricted to a band of diagonals around
 * the length difference: O(|a| × (|len difference| + 2 × BAND_SLACK + 1))
 * line comparisons. A plain line diff would be cheaper, but with repeated
 * lines it can pair an edited line's neighbour instead of the line itself.
 */
export function alignLines(a: readonly string[], b: readonly string[], budget: Budget): Alignment {
  const p = a.length;
  const q = b.length;
  const pairOf = new Array<number>(p).fill(-1);
  const sim = new Array<number>(p).fill(0);
  if (p === 0 || q === 0) return { pairOf, sim };
  const lo = Math.min(0, q - p) - BAND_SLACK;
  const hi = Math.max(0, q - p) + BAND_SLACK;
  const width = hi - lo + 1;
  /** Cell (i, j): best total over a[0..i) and b[0..j); -1 outside the band. */
  const cell = (i: number, j: number) =>
    j < 0 || j > q || j - i < lo || j - i > hi ? -1 : i * width + (j - i - lo);
  const total = new Float64Array((p + 1) * width).fill(Number.NEGATIVE_INFINITY);
  const sims = new Float64Array((p + 1) * width);
  for (let i = 0; i <= p; i++) {
    for (let j = Math.max(0, i + lo); j <= Math.min(q, i + hi); j++) {
      const c = cell(i, j);
      if (i === 0 || j === 0) {
        total[c] = 0;
        continue;
      }
      const s = pairScore(a[i - 1]!, b[j - 1]!, budget);
      sims[c] = s;
      const up = cell(i - 1, j);
      const left = cell(i, j - 1);
      const diag = cell(i - 1, j - 1);
      let best = Number.NEGATIVE_INFINITY;
      if (up >= 0) best = total[up]!;
      if (left >= 0) best = Math.max(best, total[left]!);
      if (s > 0 && diag >= 0) best = Math.max(best, total[diag]! + s);
      total[c] = best;
    }
  }
  let i = p;
  let j = q;
  while (i > 0 && j > 0) {
    const c = cell(i, j);
    const s = sims[c]!;
    const diag = cell(i - 1, j - 1);
    const up = cell(i - 1, j);
    if (s > 0 && diag >= 0 && total[c] === total[diag]! + s) {
      pairOf[i - 1] = j - 1;
      sim[i - 1] = s;
      i--;
      j--;
    } else if (up >= 0 && total[c] === total[up]) i--;
    else j--;
  }
  return { pairOf, sim };
}

/** Similarity as a pairing weight: 0 for lines too different to be one line edited. */
function pairScore(x: string, y: string, budget: Budget): number {
  if (x === y) return 1;
  // A blank line is never "the same line, edited" as a line with content.
  if (x === "" || y === "") return 0;
  const longer = Math.max(x.length, y.length);
  if (1 - Math.abs(x.length - y.length) / longer < PAIR_MIN) return 0;
  const s = lineSimilarity(x, y, budget);
  return s >= PAIR_MIN ? s : 0;
}

/**
 * Mean similarity of `a`'s keyed lines to `b`'s under an alignment, blank lines
 * left out: an unpaired line with content counts 0, and the divisor is the
 * larger side, so extra or missing lines with content lower the score while
 * a missing or extra blank line does not. 1 when neither side has content.
 */
export function alignmentScore(
  a: readonly string[],
  b: readonly string[],
  alignment: Alignment,
): number {
  let contentA = 0;
  let contentB = 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === "") continue;
    contentA++;
    if (alignment.pairOf[i]! >= 0) sum += alignment.sim[i]!;
  }
  for (const line of b) if (line !== "") contentB++;
  const n = Math.max(contentA, contentB);
  return n === 0 ? 1 : sum / n;
}
