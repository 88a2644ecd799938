/**
 * The delta rung, tried only when every other rung found nothing: old_text
 * is one or two misremembered context lines away from one region of the
 * file — at its first line, its last or between — and every line new_text
 * changes is in that region exactly as quoted. Then only new_text's changes
 * are applied and every context line keeps the file's own text, so a typo
 * in a line the model did not mean to change is never written.
 *
 * The region must be the clear best: the closest-region search proposes and
 * scores a handful of regions in linear time (closest.ts), each is rescored
 * over all its lines, and every runner-up must trail by DELTA_MARGIN or lose
 * on the lines where it differs from the best (decisive.ts). Anything less
 * certain stays the not-found refusal it was.
 */
import { changedLines } from "./changes.js";
import type { Closest } from "./closest.js";
import { DELTA_LINE_MIN, type Evidence, outweighsAll, telling } from "./decisive.js";
import { solveIndentMap } from "./indent.js";
import { leadingWs, lineKey } from "./normalize.js";
import { escapeKind, type LadderContext, type Variant } from "./rungs.js";
import { type Placed, siblingRegions } from "./siblings.js";
import { alignLines, alignmentScore } from "./similarity.js";
import type { LineSpan } from "./types.js";

/**
 * How far the runner-up region must trail the best one (mean similarity over
 * old_text's lines). One typo costs a quote well under 0.1 (a 2-line quote
 * with a 1-letter slip in a 20-character line: 0.975), while a region that
 * differs from the best in one whole line of a 12-line quote trails by about
 * 1/12 ≈ 0.08. Near-duplicate regions, where the quote's typo sits in the
 * very line that tells the two apart, trail by under 0.04. 0.05 keeps the
 * second kind of doubt a refusal; see bench/edit-quality (delta_* and
 * near_duplicate) for the measured spread.
 */
export const DELTA_MARGIN = 0.05;
/**
 * The best region's mean similarity: a few slips in real lines, not a
 * rewrite. Every applied bench case scores 0.958 or more (two slips in one
 * line of a 2-line quote: about 0.92); the closest invented block scored
 * 0.865, so this alone already refuses it.
 */
export const DELTA_MIN_SCORE = 0.9;
/** "One or two typos": more differing lines is a different block, or a stale read. */
export const DELTA_MAX_DIFFERING = 2;

export interface DeltaMatch {
  span: LineSpan;
  /** The runner-up region's score, 0 when there is none. */
  runnerUp: number;
  /** 0-based file lines where old_text differs from the file (they keep the file's text). */
  differing: number[];
  /**
   * The runner-up, when it was within DELTA_MARGIN and lost on the lines
   * where the two regions differ (decisive.ts); 0-based, end exclusive.
   */
  toldApart?: { from: number; to: number };
}

export function runDelta(
  ctx: LadderContext,
  variant: Variant,
  closest: readonly Closest[],
): DeltaMatch | undefined {
  const oldKeys = variant.lines.map((l) => lineKey("unicode", l));
  if (oldKeys.every((k) => k === "")) return undefined;
  const scored = closest
    .map((c) => region(ctx, oldKeys, c.startLine - 1, c.endLine))
    .sort((a, b) => b.score - a.score);
  const first = scored[0];
  if (!first || first.score < DELTA_MIN_SCORE) return undefined;
  // Twins of the lines old_text misremembers are scored too, wherever the proposals left them.
  const searched = misread(oldKeys, first);
  const twins = siblingRegions(
    ctx,
    oldKeys,
    placed(first, searched),
    DELTA_LINE_MIN,
    DELTA_MAX_DIFFERING,
  );
  if (twins === undefined) return undefined;
  for (const t of twins) {
    if (!scored.some((r) => r.from === t.from)) scored.push(region(ctx, oldKeys, t.from, t.to));
  }
  scored.sort((a, b) => b.score - a.score);
  const best = scored[0]!;
  if (misread(oldKeys, best).some((k) => !searched.includes(k))) return undefined;
  const runnerUp = scored[1];
  const judge = {
    keys: oldKeys,
    keyAt: (f: number) => ctx.view.keyAt("unicode", f),
    lineMin: DELTA_LINE_MIN,
  };
  // A region close in score, or a twin a line or two apart that would pass on its own, must lose where they differ.
  const rivals = scored
    .slice(1)
    .filter(
      (r) =>
        best.score - r.score < DELTA_MARGIN ||
        (r.score >= DELTA_MIN_SCORE &&
          telling(evidence(best), evidence(r), judge).length <= DELTA_MAX_DIFFERING),
    );
  if (!outweighsAll(evidence(best), rivals.map(evidence), judge)) return undefined;
  const match = checkRegion(ctx, variant, oldKeys, best, runnerUp?.score ?? 0);
  if (!match || rivals.length === 0) return match;
  return { ...match, toldApart: { from: rivals[0]!.from, to: rivals[0]!.to } };
}

/** Quoted lines with content that the region does not hold exactly. */
function misread(oldKeys: readonly string[], r: Region): number[] {
  const out: number[] = [];
  oldKeys.forEach((key, k) => {
    if (key !== "" && r.sim[k] !== 1) out.push(k);
  });
  return out;
}

function placed(r: Region, lines: readonly number[]): Placed {
  const lineOf = new Map<number, number>();
  for (const k of lines) if (r.pairOf[k]! >= 0) lineOf.set(k, r.from + r.pairOf[k]!);
  return { from: r.from, lineOf, length: r.to - r.from };
}

function evidence(r: Region): Evidence {
  return { align: r.pairOf.map((p) => (p >= 0 ? r.from + p : -1)), sim: r.sim };
}

interface Region {
  from: number;
  to: number;
  fileKeys: string[];
  pairOf: number[];
  sim: number[];
  score: number;
}

/**
 * A candidate's lines rescored against all of old_text: closest.ts scores
 * anchored candidates by their middle alone, which is not comparable.
 */
function region(ctx: LadderContext, oldKeys: string[], from: number, to: number): Region {
  const fileKeys: string[] = [];
  for (let f = from; f < to; f++) fileKeys.push(ctx.view.keyAt("unicode", f));
  const alignment = alignLines(oldKeys, fileKeys, ctx.budget);
  return {
    from,
    to,
    fileKeys,
    ...alignment,
    score: alignmentScore(oldKeys, fileKeys, alignment),
  };
}

function checkRegion(
  ctx: LadderContext,
  variant: Variant,
  oldKeys: string[],
  r: Region,
  runnerUp: number,
): DeltaMatch | undefined {
  const m = oldKeys.length;
  // Every quoted line with content stands for a file line, and every file line with content is quoted:
  // the quote has the region's shape, only some of its lines read a little differently.
  for (let k = 0; k < m; k++) if (oldKeys[k] !== "" && r.pairOf[k]! < 0) return undefined;
  const paired = new Set(r.pairOf.filter((p) => p >= 0));
  for (let p = 0; p < r.fileKeys.length; p++) {
    if (r.fileKeys[p] !== "" && !paired.has(p)) return undefined;
  }
  const exact = (k: number) => r.pairOf[k]! >= 0 && r.sim[k] === 1;
  const differing: number[] = [];
  for (let k = 0; k < m; k++) {
    if (oldKeys[k] === "" || exact(k)) continue;
    if (r.sim[k]! < DELTA_LINE_MIN) return undefined;
    differing.push(r.from + r.pairOf[k]!);
  }
  if (differing.length === 0 || differing.length > DELTA_MAX_DIFFERING) return undefined;
  // At least as many lines read exactly as differ: two slips in a 2-line quote is a guess.
  if (m - differing.length < differing.length) return undefined;

  const news = ctx.newLines.slice(variant.lead, ctx.newLines.length - variant.trail);
  const { changed, insertsBefore } = changedLines(variant.lines, news);
  for (let k = 0; k < m; k++) {
    if (changed[k] && oldKeys[k] !== "" && !exact(k)) return undefined;
  }
  // Lines added without removing any go next to a quoted line: one of its neighbours must be exact.
  for (let k = 0; k <= m; k++) {
    if (!insertsBefore[k]) continue;
    const before = k > 0 && exact(k - 1);
    const after = k < m && exact(k);
    if (!before && !after) return undefined;
  }
  return { span: toSpan(ctx, variant, r), runnerUp, differing };
}

function toSpan(ctx: LadderContext, variant: Variant, r: Region): LineSpan {
  const fileLines = ctx.view.lines;
  const total = ctx.old.lines.length;
  const align = new Array<number>(total).fill(-1);
  const sim = new Array<number>(total).fill(0);
  const indentPairs: [string, string][] = [];
  const sameOld: string[] = [];
  const sameFile: string[] = [];
  variant.lines.forEach((line, k) => {
    const p = r.pairOf[k]!;
    if (p < 0) return;
    const f = r.from + p;
    align[variant.lead + k] = f;
    sim[variant.lead + k] = r.sim[k]!;
    if (lineKey("unicode", line) === "") return;
    indentPairs.push([leadingWs(line), leadingWs(fileLines[f]!)]);
    if (r.sim[k] === 1) {
      sameOld.push(line);
      sameFile.push(fileLines[f]!);
    }
  });
  return {
    from: r.from,
    to: r.to,
    align,
    sim,
    indent: solveIndentMap(indentPairs, ctx.hints),
    escapes: escapeKind(sameOld, sameFile),
    score: r.score,
  };
}
