/**
 * Where a near-copy of a region would be: every file line about as close to
 * a line old_text misremembers as the region's own line is. The closest-region
 * proposals vote with lines old_text quotes exactly, so when those are
 * generic ("}", "return state;") a sibling block a typo apart can go
 * unproposed, and a region would look like the clear best only because its
 * twin was never scored. Linear in the file: a length and character-count
 * bound rules out almost every line before any Levenshtein work.
 */
import type { LadderContext } from "./rungs.js";
import { type Budget, lineSimilarity } from "./similarity.js";

/** More lookalikes of one misremembered line than this: refuse rather than search on. */
export const MAX_LOOKALIKES = 512;
/** More twin regions than this: too many to tell apart. */
export const MAX_TWINS = 16;
/** Slack for keys whose Unicode folding changed a length ("…" to "..."). */
const LENGTH_SLACK = 2;
const BUCKETS = 64;
/** Refuse rather than score with a lower bound: a twin scored too low would look absent. */
const CELLS_NEEDED = 65_536;

export interface Placed {
  /** The region's first file line, 0-based. */
  from: number;
  /** The file line that stands for each quoted line searched, 0-based. */
  lineOf: ReadonlyMap<number, number>;
  /** The region's length in lines. */
  length: number;
}

/**
 * Regions [from, to) shaped like `placed` whose line for a searched quoted
 * line is another file line at least `lineMin` like it, and which hold all
 * but `maxApart` of the lines `placed` holds exactly as quoted; undefined
 * when there are too many of either or the budget would run out (a refusal).
 */
export function siblingRegions(
  ctx: LadderContext,
  keys: readonly string[],
  placed: Placed,
  lineMin: number,
  maxApart: number,
): { from: number; to: number }[] | undefined {
  const total = ctx.view.lines.length;
  const ids = ctx.view.fileIds("unicode");
  const out = new Map<number, number>();
  for (const [k, own] of placed.lineOf) {
    const lines = lookalikes(ctx, keys[k]!, own, lineMin, ctx.budget);
    if (lines === undefined) return undefined;
    for (const f of lines) {
      const from = f - (own - placed.from);
      if (from < 0 || from === placed.from || out.has(from)) continue;
      // A twin holds the region's quoted lines at the same places, all but a few.
      let apart = 0;
      for (let p = 0; p < placed.length && apart <= maxApart; p++) {
        const id = ids[placed.from + p]!;
        if (id >= 0 && ids[from + p] !== id) apart++;
      }
      if (apart > maxApart) continue;
      out.set(from, Math.min(total, from + placed.length));
      if (out.size > MAX_TWINS) return undefined;
    }
  }
  return [...out].map(([from, to]) => ({ from, to }));
}

/** File lines other than `own` whose key is at least `lineMin` like `key`. */
function lookalikes(
  ctx: LadderContext,
  key: string,
  own: number,
  lineMin: number,
  budget: Budget,
): number[] | undefined {
  const want = counts(key, 0, key.length);
  const have = new Int32Array(BUCKETS);
  const out: number[] = [];
  const lines = ctx.view.lines;
  for (let f = 0; f < lines.length; f++) {
    if (f === own) continue;
    const line = lines[f]!;
    let end = line.length;
    while (end > 0 && line.charCodeAt(end - 1) <= 32) end--;
    let start = 0;
    while (start < end && line.charCodeAt(start) <= 32) start++;
    const longer = Math.max(end - start, key.length);
    const allowed = (1 - lineMin) * longer + LENGTH_SLACK;
    if (Math.abs(end - start - key.length) > allowed) continue;
    // Each edit changes at most two character counts: half their distance bounds the edits.
    have.fill(0);
    for (let i = start; i < end; i++) have[line.charCodeAt(i) % BUCKETS]!++;
    let apart = 0;
    for (let b = 0; b < BUCKETS; b++) apart += Math.abs(have[b]! - want[b]!);
    if (apart / 2 > allowed) continue;
    if (budget.cells < CELLS_NEEDED) return undefined;
    if (lineSimilarity(key, ctx.view.keyAt("unicode", f), budget) < lineMin) continue;
    out.push(f);
    if (out.length > MAX_LOOKALIKES) return undefined;
  }
  return out;
}

function counts(s: string, start: number, end: number): Int32Array {
  const out = new Int32Array(BUCKETS);
  for (let i = start; i < end; i++) out[s.charCodeAt(i) % BUCKETS]!++;
  return out;
}
