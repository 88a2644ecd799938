/**
 * The anchored rung, the loosest: old_text's first and last lines (trimmed,
 * Unicode-folded) equal file lines i and j, j - i + 1 is within a small
 * tolerance of old_text's line count, and the lines between are similar
 * enough. Work is bounded three ways: the window per first-line hit (at most
 * 2 × MAX_LINE_TOLERANCE + 1 lines), the number of (i, j) pairs scored, and
 * the Levenshtein budget shared by the whole call.
 */

import { DELTA_LINE_MIN, type Evidence, outweighsAll } from "./decisive.js";
import { solveIndentMap } from "./indent.js";
import { leadingWs, lineKey } from "./normalize.js";
import { escapeKind, type LadderContext, type Variant } from "./rungs.js";
import { type Alignment, alignLines, alignmentScore, BAND_SLACK } from "./similarity.js";
import type { LineSpan } from "./types.js";

/**
 * Mean similarity the middle lines need. One misremembered line in a 10-line
 * block (a typo, a changed literal: ~0.8 alone) keeps the mean near 0.98; a
 * middle of different code between matching braces lands well under 0.6.
 * 0.85 also lets a 3-line old_text through only when its middle line is
 * nearly right.
 */
export const ANCHOR_THRESHOLD = 0.85;
/** Two lines are just the anchors: too little to call a block similar. */
export const ANCHOR_MIN_LINES = 3;
/** Extra or missing lines tolerated: 10% of old_text, at least 1, at most this many. */
export const MAX_LINE_TOLERANCE = 10;
/**
 * Line comparisons spread over all scored pairs (each costs old_text lines ×
 * alignment band): a 40-line old_text may score 256 pairs, a 10,000-line one 1.
 */
const PAIR_CELL_BUDGET = 250_000;
export const MAX_ANCHOR_PAIRS = 256;

export function lineTolerance(lines: number): number {
  return Math.min(MAX_LINE_TOLERANCE, Math.max(1, Math.round(lines / 10)));
}

/** How many (first, last) pairs a call may score: fewer for a long old_text. */
export function anchorPairLimit(lines: number): number {
  const band = 2 * lineTolerance(lines) + 2 * BAND_SLACK + 1;
  return Math.min(MAX_ANCHOR_PAIRS, Math.max(1, Math.floor(PAIR_CELL_BUDGET / (lines * band))));
}

/** A region whose anchors matched but whose middle scored under the threshold. */
export interface Rejected {
  from: number;
  to: number;
  score: number;
}

export type AnchoredOutcome =
  | { kind: "skipped" }
  | { kind: "scored"; accepted: LineSpan[]; rejected: Rejected[] }
  | { kind: "too_many"; limit: number };

interface Pair {
  i: number;
  j: number;
  alignment: Alignment;
  score: number;
  slack: number;
}

export function runAnchored(ctx: LadderContext, variant: Variant): AnchoredOutcome {
  const m = variant.lines.length;
  if (m < ANCHOR_MIN_LINES) return { kind: "skipped" };
  const ids = ctx.view.fileIds("unicode");
  const oldIds = ctx.view.oldIds("unicode", variant.lines);
  const oldKeys = variant.lines.map((l) => lineKey("unicode", l));
  const first = oldIds[0]!;
  const last = oldIds[m - 1]!;
  const oldMid = oldKeys.slice(1, -1);
  if (oldKeys[0] === "" || oldKeys[m - 1] === "" || oldMid.every((k) => k === "")) {
    return { kind: "skipped" };
  }
  const tol = lineTolerance(m);
  const limit = anchorPairLimit(m);
  let pairs = 0;
  const accepted: LineSpan[] = [];
  const rejected: Rejected[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] !== first) continue;
    let best: Pair[] = [];
    for (let lines = Math.max(2, m - tol); lines <= m + tol; lines++) {
      const j = i + lines - 1;
      if (j >= ids.length) break;
      if (ids[j] !== last) continue;
      if (++pairs > limit) return { kind: "too_many", limit };
      const fileMid: string[] = [];
      for (let f = i + 1; f < j; f++) fileMid.push(ctx.view.keyAt("unicode", f));
      const alignment = alignLines(oldMid, fileMid, ctx.budget);
      const pair = {
        i,
        j,
        alignment,
        score: alignmentScore(oldMid, fileMid, alignment),
        slack: Math.abs(lines - m),
      };
      const top = best[0];
      if (!top || pair.score > top.score || (pair.score === top.score && pair.slack < top.slack)) {
        best = [pair];
      } else if (pair.score === top.score && pair.slack === top.slack) {
        best.push(pair);
      }
    }
    // Per first line, the best end wins; two equally good ends stay two candidates.
    for (const pair of best) {
      if (pair.score >= ANCHOR_THRESHOLD) accepted.push(toSpan(ctx, variant, pair));
      else rejected.push({ from: pair.i, to: pair.j + 1, score: pair.score });
    }
  }
  return { kind: "scored", accepted, rejected };
}

function toSpan(ctx: LadderContext, variant: Variant, pair: Pair): LineSpan {
  const fileLines = ctx.view.lines;
  const total = ctx.old.lines.length;
  const m = variant.lines.length;
  const align = new Array<number>(total).fill(-1);
  const sim = new Array<number>(total).fill(0);
  const set = (k: number, f: number, s: number) => {
    align[variant.lead + k] = f;
    sim[variant.lead + k] = s;
  };
  set(0, pair.i, 1);
  set(m - 1, pair.j, 1);
  pair.alignment.pairOf.forEach((p, k) => {
    if (p >= 0) set(k + 1, pair.i + 1 + p, pair.alignment.sim[k]!);
  });
  const indentPairs: [string, string][] = [];
  const sameOld: string[] = [];
  const sameFile: string[] = [];
  for (let k = 0; k < m; k++) {
    const f = align[variant.lead + k]!;
    const line = variant.lines[k]!;
    if (f < 0 || lineKey("unicode", line) === "") continue;
    indentPairs.push([leadingWs(line), leadingWs(fileLines[f]!)]);
    if (sim[variant.lead + k] === 1) {
      sameOld.push(line);
      sameFile.push(fileLines[f]!);
    }
  }
  return {
    from: pair.i,
    to: pair.j + 1,
    align,
    sim,
    indent: solveIndentMap(indentPairs, ctx.hints),
    escapes: escapeKind(sameOld, sameFile),
    score: pair.score,
  };
}

/**
 * Of several regions the rung accepted, the one old_text names on every line
 * where they differ (decisive.ts), best score first; undefined when none does.
 */
export function clearWinner(
  ctx: LadderContext,
  variant: Variant,
  accepted: readonly LineSpan[],
): LineSpan | undefined {
  const m = variant.lines.length;
  const evidence = (s: LineSpan): Evidence => ({
    align: s.align.slice(variant.lead, variant.lead + m),
    sim: s.sim.slice(variant.lead, variant.lead + m),
  });
  const [best, ...others] = [...accepted].sort((a, b) => b.score - a.score);
  if (!best) return undefined;
  const judge = {
    keys: variant.lines.map((l) => lineKey("unicode", l)),
    keyAt: (f: number) => ctx.view.keyAt("unicode", f),
    lineMin: DELTA_LINE_MIN,
  };
  return outweighsAll(evidence(best), others.map(evidence), judge) ? best : undefined;
}
