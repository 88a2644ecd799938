/**
 * Where old_text most likely meant, when no rung found it: so the refusal can
 * show the model those lines and it can fix old_text in one step. Regions are
 * proposed in linear time (lines that match exactly vote for where the block
 * would start; with no such line, character bigrams of old_text's longest
 * line pick the nearest lines) and only a handful are scored in full.
 */
import type { Rejected } from "./anchored.js";
import { lineKey } from "./normalize.js";
import type { LadderContext, Variant } from "./rungs.js";
import { alignLines, alignmentScore } from "./similarity.js";
import type { Candidate } from "./types.js";

/** Candidates shown in a not-found message. */
export const MAX_SHOWN_CANDIDATES = 3;
/** Candidates below this similarity are noise, not help. */
const MIN_CANDIDATE_SCORE = 0.3;
export const MAX_PROPOSALS = 8;
/** A line like "}" occurs everywhere; its votes stop counting after this many. */
const MAX_HITS_PER_KEY = 64;
const MAX_BIGRAM_CHARS = 256;
/** old_text lines × regions scored in full. */
const SCORE_LINE_BUDGET = 4000;

export interface Closest extends Candidate {
  /** The anchored rung found this region's first and last lines. */
  anchored: boolean;
}

/**
 * Up to `limit` regions, best first. The refusal shows MAX_SHOWN_CANDIDATES;
 * the delta rung asks for every proposal so that no close runner-up is cut.
 */
export function closestRegions(
  ctx: LadderContext,
  variant: Variant,
  rejected: readonly Rejected[],
  limit = MAX_SHOWN_CANDIDATES,
): Closest[] {
  const lines = ctx.view.lines;
  const oldKeys = variant.lines.map((l) => lineKey("unicode", l));
  const m = oldKeys.length;
  const starts = proposeStarts(
    ctx.view.fileIds("unicode"),
    ctx.view.oldIds("unicode", variant.lines),
    oldKeys,
    lines,
  );
  const scored: Closest[] = rejected.map((r) => ({
    ...candidate(ctx, r.from, r.to, r.score),
    anchored: true,
  }));
  // Each region costs m lines × a 5-wide alignment band; a long old_text gets fewer regions.
  const regions = Math.max(
    1,
    Math.min(starts.length, Math.floor(SCORE_LINE_BUDGET / Math.max(1, m))),
  );
  for (const s of starts.slice(0, regions)) {
    const from = Math.max(0, Math.min(s, lines.length - 1));
    const to = Math.min(lines.length, from + m);
    if (to <= from) continue;
    const region: string[] = [];
    for (let f = from; f < to; f++) region.push(ctx.view.keyAt("unicode", f));
    const score = alignmentScore(oldKeys, region, alignLines(oldKeys, region, ctx.budget));
    scored.push({ ...candidate(ctx, from, to, score), anchored: false });
  }
  // A region the anchored rung found keeps its extent and its middle score,
  // which says why it was refused, over a vote-based region on the same lines.
  scored.sort((a, b) => Number(b.anchored) - Number(a.anchored) || b.score - a.score);
  const out: Closest[] = [];
  for (const c of scored) {
    if (c.score < MIN_CANDIDATE_SCORE && !c.anchored) continue;
    if (out.some((o) => c.startLine <= o.endLine && o.startLine <= c.endLine)) continue;
    out.push(c);
  }
  out.sort((a, b) => b.score - a.score || a.startLine - b.startLine);
  out.length = Math.min(out.length, limit);
  return out;
}

function candidate(ctx: LadderContext, from: number, to: number, score: number): Candidate {
  return {
    startLine: from + 1,
    endLine: to,
    score,
    text: ctx.view.lines.slice(from, to).join("\n"),
  };
}

function proposeStarts(
  fileIds: Int32Array,
  oldIds: Int32Array,
  oldKeys: readonly string[],
  lines: readonly string[],
): number[] {
  const at = new Map<number, number[]>();
  oldIds.forEach((id, i) => {
    if (id < 0 || oldKeys[i] === "") return;
    const list = at.get(id);
    if (!list) at.set(id, [i]);
    else if (list.length < MAX_PROPOSALS) list.push(i);
  });
  const votes = new Map<number, number>();
  const hits = new Map<number, number>();
  for (let f = 0; f < fileIds.length; f++) {
    const list = at.get(fileIds[f]!);
    if (!list) continue;
    const seen = (hits.get(fileIds[f]!) ?? 0) + 1;
    hits.set(fileIds[f]!, seen);
    if (seen > MAX_HITS_PER_KEY) continue;
    for (const i of list) votes.set(f - i, (votes.get(f - i) ?? 0) + 1);
  }
  if (votes.size > 0) {
    return [...votes]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, MAX_PROPOSALS)
      .map(([s]) => s);
  }
  return nearestByBigrams(lines, oldKeys);
}

/**
 * Starts implied by the file lines sharing most character pairs with
 * old_text's longest line. Raw lines are fine here: edge whitespace only adds
 * a few pairs, and keying every line would cost an allocation per line.
 */
function nearestByBigrams(lines: readonly string[], oldKeys: readonly string[]): number[] {
  let k = 0;
  for (let i = 1; i < oldKeys.length; i++) if (oldKeys[i]!.length > oldKeys[k]!.length) k = i;
  const target = oldKeys[k]!;
  if (target.length < 2) return [];
  const table = new Int32Array(4096);
  const used = new Int32Array(4096);
  const tLen = Math.min(target.length, MAX_BIGRAM_CHARS);
  for (let i = 0; i + 1 < tLen; i++) table[bigram(target, i)]!++;
  const best: [number, number][] = [];
  const touched: number[] = [];
  for (let f = 0; f < lines.length; f++) {
    const line = lines[f]!;
    const len = Math.min(line.length, MAX_BIGRAM_CHARS);
    if (len < 2) continue;
    let shared = 0;
    for (let i = 0; i + 1 < len; i++) {
      const h = bigram(line, i);
      if (used[h]! < table[h]!) {
        used[h]!++;
        shared++;
        touched.push(h);
      }
    }
    for (const h of touched) used[h] = 0;
    touched.length = 0;
    const dice = (2 * shared) / (tLen - 1 + len - 1);
    if (dice > 0 && (best.length < MAX_PROPOSALS || dice > best.at(-1)![1])) {
      best.push([f, dice]);
      best.sort((a, b) => b[1] - a[1]);
      if (best.length > MAX_PROPOSALS) best.pop();
    }
  }
  return best.map(([f]) => f - k);
}

function bigram(s: string, i: number): number {
  return ((s.charCodeAt(i) * 31) ^ s.charCodeAt(i + 1)) & 4095;
}
