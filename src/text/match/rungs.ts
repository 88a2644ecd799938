/**
 * The whole-line rungs: trailing whitespace, indentation, Unicode. Each one
 * keys every line, finds old_text's key run in the file's with one linear
 * search, then checks each hit: at the indentation and Unicode rungs a hit
 * counts only when one indentation mapping fits all of its lines.
 */
import { IDENTITY, type IndentMap, indentStep, solveIndentMap, type UnitHints } from "./indent.js";
import {
  foldLookalikes,
  type KeyKind,
  LineView,
  leadingWs,
  lineKey,
  type SplitText,
  trimWs,
  unescapeOnce,
} from "./normalize.js";
import { findIdSequence } from "./search.js";
import { Budget, lineSimilarity } from "./similarity.js";
import type { LineSpan, OldLines } from "./types.js";

/**
 * Hits checked per rung. Checking one costs O(old_text lines), so a rung
 * costs O(file + limit × old_text lines) with limit × lines ≤ 2,000,000; more
 * hits than the limit is ambiguous anyway.
 */
export const MAX_RUNG_HITS = 1000;
const HIT_LINE_BUDGET = 2_000_000;

export function rungHitLimit(lines: number): number {
  return Math.min(MAX_RUNG_HITS, Math.max(2, Math.floor(HIT_LINE_BUDGET / Math.max(1, lines))));
}

export type LineRung = "trailing_whitespace" | "indentation" | "unicode";
export const LINE_RUNGS: readonly LineRung[] = ["trailing_whitespace", "indentation", "unicode"];

const KEY_OF: Record<LineRung, KeyKind> = {
  trailing_whitespace: "trailing",
  indentation: "indent",
  unicode: "unicode",
};

export interface LadderContext {
  file: SplitText;
  view: LineView;
  old: OldLines;
  /** new_text's lines: they tell how many spaces the model indents by. */
  newLines: readonly string[];
  budget: Budget;
  hints: UnitHints;
}

export function ladderContext(
  file: SplitText,
  old: OldLines,
  newLines: readonly string[],
  budget = new Budget(),
): LadderContext {
  let fileUnit: number | undefined | null = null;
  let oldUnit: number | undefined | null = null;
  const hints: UnitHints = {
    oldSpaces: () => {
      if (oldUnit === null) oldUnit = indentStep([...old.lines, "", ...newLines], " ");
      return oldUnit;
    },
    fileSpaces: () => {
      if (fileUnit === null) fileUnit = indentStep(file.lines, " ");
      return fileUnit;
    },
  };
  return { file, view: new LineView(file.lines, old.lines), old, newLines, budget, hints };
}

/** old_text's lines with `lead`/`trail` blank edge lines set aside. */
export interface Variant {
  lines: string[];
  lead: number;
  trail: number;
}

/**
 * As quoted, then (if different) without one blank first and one blank last
 * line: a stray newline at either end should not make old_text unfindable.
 * The second is tried only when the first is found by no whole-line rung.
 */
export function variants(old: OldLines): Variant[] {
  const all: Variant[] = [{ lines: old.lines, lead: 0, trail: 0 }];
  const n = old.lines.length;
  const lead = n > 0 && trimWs(old.lines[0]!) === "" ? 1 : 0;
  const trail = n - lead > 0 && trimWs(old.lines[n - 1]!) === "" ? 1 : 0;
  if ((lead || trail) && n - lead - trail > 0) {
    all.push({ lines: old.lines.slice(lead, n - trail), lead, trail });
  }
  return all;
}

export type RungOutcome =
  | { kind: "spans"; spans: LineSpan[] }
  | { kind: "too_many"; limit: number };

export function runLineRung(ctx: LadderContext, rung: LineRung, variant: Variant): RungOutcome {
  const kind = KEY_OF[rung];
  const pattern = variant.lines.map((l) => lineKey(kind, l));
  const limit = rungHitLimit(variant.lines.length);
  const hits = findIdSequence(ctx.view.fileIds(kind), ctx.view.oldIds(kind, variant.lines), limit);
  if (hits.truncated) return { kind: "too_many", limit };
  const spans: LineSpan[] = [];
  for (const start of hits.starts) {
    const span = checkHit(ctx, rung, variant, start, pattern);
    if (span) spans.push(span);
  }
  return { kind: "spans", spans };
}

function checkHit(
  ctx: LadderContext,
  rung: LineRung,
  variant: Variant,
  start: number,
  pattern: readonly string[],
): LineSpan | undefined {
  const fileLines = ctx.view.lines;
  const m = variant.lines.length;
  let indent: IndentMap | undefined = IDENTITY;
  if (rung !== "trailing_whitespace") {
    const pairs: [string, string][] = [];
    for (let k = 0; k < m; k++) {
      if (pattern[k] === "") continue;
      pairs.push([leadingWs(variant.lines[k]!), leadingWs(fileLines[start + k]!)]);
    }
    indent = solveIndentMap(pairs, ctx.hints);
    if (!indent) return undefined;
  }
  const total = ctx.old.lines.length;
  const align = new Array<number>(total).fill(-1);
  const sim = new Array<number>(total).fill(0);
  for (let k = 0; k < m; k++) {
    align[variant.lead + k] = start + k;
    sim[variant.lead + k] = 1;
  }
  const span: LineSpan = {
    from: start,
    to: start + m,
    align,
    sim,
    indent,
    escapes: undefined,
    score: 1,
  };
  if (rung === "unicode") {
    const olds = variant.lines;
    const files = fileLines.slice(start, start + m);
    span.escapes = escapeKind(olds, files);
    span.score = contentScore(olds, files, ctx.budget);
  }
  return span;
}

/**
 * Whether the quoted lines needed escape folding to match, and if so whether
 * one level of un-escaping explains every such line (the model over-escaped).
 */
export function escapeKind(
  olds: readonly string[],
  files: readonly string[],
): "over" | "other" | undefined {
  let over = false;
  for (let k = 0; k < olds.length; k++) {
    const o = foldLookalikes(trimWs(olds[k]!)).trim();
    const f = foldLookalikes(trimWs(files[k]!)).trim();
    if (o === f || !/\\/.test(o + f)) continue;
    if (foldLookalikes(unescapeOnce(trimWs(olds[k]!))).trim() === f) over = true;
    else return "other";
  }
  return over ? "over" : undefined;
}

/** Mean similarity of the lines' content, edge whitespace ignored; 1 when identical. */
export function contentScore(
  olds: readonly string[],
  files: readonly string[],
  budget: Budget,
): number {
  let sum = 0;
  let n = 0;
  for (let k = 0; k < olds.length; k++) {
    const o = trimWs(olds[k]!);
    const f = trimWs(files[k]!);
    if (o === "" && f === "") continue;
    sum += lineSimilarity(o, f, budget);
    n++;
  }
  return n === 0 ? 1 : sum / n;
}
