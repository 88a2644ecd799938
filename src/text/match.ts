/**
 * old_text -> where it is in the file: exact first, then a ladder of rungs
 * from strict to loose. The first rung that finds anything decides: one
 * candidate is the match, several are an ambiguity (a looser rung never
 * breaks a tie), and a match spanning far more text than old_text is refused.
 * Pure; every rung is linear in the file with bounded extra work.
 */
import { clearWinner, runAnchored } from "./match/anchored.js";
import { closestRegions, MAX_PROPOSALS, MAX_SHOWN_CANDIDATES } from "./match/closest.js";
import { runDelta } from "./match/delta.js";
import {
  blankLineWarning,
  deltaWarning,
  exactAmbiguous,
  matchWarnings,
  notFound,
  replaceAllMixed,
  rungAmbiguous,
  rungTooMany,
  suspicious,
  toldApart,
} from "./match/messages.js";
import { contentLength, isBlank, normalizeInput, splitLines } from "./match/normalize.js";
import {
  type LadderContext,
  LINE_RUNGS,
  ladderContext,
  runLineRung,
  type Variant,
  variants,
} from "./match/rungs.js";
import { nonOverlapping } from "./match/search.js";
import {
  type ExactSpan,
  type Found,
  type LineSpan,
  type MatchResult,
  MODE_OF,
  type OldLines,
  type Refusal,
  RUNG_HOW,
  type Rung,
  spanCandidate,
} from "./match/types.js";

export type {
  Candidate,
  ExactSpan,
  Found,
  LineSpan,
  MatchMode,
  MatchResult,
  OldLines,
  Refusal,
  RefusalCode,
  Rung,
} from "./match/types.js";

/**
 * A fuzzy match may hold at most twice old_text's content plus this many
 * characters; beyond that it is more likely a different, larger block.
 */
export const SUSPICIOUS_SLACK = 80;
export const SUSPICIOUS_FACTOR = 2;

export const EMPTY_OLD_TEXT =
  "old_text is empty; quote the exact text to replace (an empty old_text only creates a new file).";

export interface MatchOptions {
  replaceAll?: boolean;
  /** The edit's new_text: its indentation tells how many spaces the model indents by. */
  newText?: string;
  /** false: no delta matches (a caller whose context lines must match, like a patch, may want that). */
  delta?: boolean;
}

/** Finds old_text in `text` (LF line endings, no BOM). old_text is normalized here. */
export function findMatch(text: string, oldText: string, options: MatchOptions = {}): MatchResult {
  const input = normalizeInput(oldText);
  if (input.text === "") return refuse("invalid_input", EMPTY_OLD_TEXT);
  const replaceAll = options.replaceAll === true;
  const dirty = input.hadCR || input.hadBOM;
  const warnings: string[] = [];
  if (input.hadCR) warnings.push("old_text had CRLF line endings; it was matched with LF.");
  if (input.hadBOM) warnings.push("old_text began with a byte order mark; it was ignored.");

  const exact = findExact(text, input.text, replaceAll);
  if (exact) {
    if (!exact.ok) return exact;
    const rung: Rung = dirty ? "line_endings" : "exact";
    return {
      ok: true,
      kind: "exact",
      mode: MODE_OF[rung],
      rung,
      score: 1,
      spans: exact.spans,
      warnings,
    };
  }

  return ladder(text, input.text, options, warnings);
}

/** The fuzzy rungs, strict to loose, for an old_text with no exact match. */
function ladder(
  text: string,
  oldText: string,
  options: MatchOptions,
  warnings: string[],
): MatchResult {
  const replaceAll = options.replaceAll === true;
  const file = splitLines(text);
  const split = splitLines(oldText);
  const old: OldLines = { ...split, lead: 0, trail: 0 };
  const newLines =
    options.newText === undefined ? [] : splitLines(normalizeInput(options.newText).text).lines;
  const ctx = ladderContext(file, old, newLines);
  const tries = variants(old);

  // old_text as quoted goes down every whole-line rung before its blank edge
  // lines are set aside: a blank line the model wrote is information.
  for (const variant of tries) {
    for (const rung of LINE_RUNGS) {
      const out = runLineRung(ctx, rung, variant);
      if (out.kind === "too_many") return refuse("ambiguous", rungTooMany(rung, out.limit));
      if (out.spans.length === 0) continue;
      if (out.spans.length > 1 && !replaceAll) return ambiguous(ctx, rung, out.spans);
      const spans = replaceAll ? nonOverlapping(out.spans) : out.spans;
      // Each place gets new_text re-indented and unescaped the way that place matched: all one way, or none.
      if (!sameWay(spans)) return refuse("ambiguous", replaceAllMixed(rung, spans));
      return found(ctx, rung, variant, spans, warnings);
    }
  }

  return looseMatch(ctx, tries.at(-1)!, options, warnings);
}

/** The last rungs: anchored first and last lines, then new_text's changed lines (delta); else not found. */
function looseMatch(
  ctx: LadderContext,
  variant: Variant,
  options: MatchOptions,
  warnings: string[],
): MatchResult {
  const replaceAll = options.replaceAll === true;
  const anchored = runAnchored(ctx, variant);
  if (anchored.kind === "too_many")
    return refuse("ambiguous", rungTooMany("anchored", anchored.limit));
  if (anchored.kind === "scored" && anchored.accepted.length > 0) {
    const { accepted } = anchored;
    if (accepted.length === 1) return found(ctx, "anchored", variant, accepted, warnings);
    const winner = replaceAll ? undefined : clearWinner(ctx, variant, accepted);
    if (!winner) return ambiguous(ctx, "anchored", accepted);
    const others = accepted.filter((s) => s !== winner);
    return found(ctx, "anchored", variant, [winner], [...warnings, toldApart(winner, others)]);
  }
  const all = closestRegions(
    ctx,
    variant,
    anchored.kind === "scored" ? anchored.rejected : [],
    MAX_PROPOSALS + MAX_SHOWN_CANDIDATES,
  );
  // Which lines are context is new_text's to say; without it (or for replace_all) nothing is changed.
  const useDelta = options.newText !== undefined && !replaceAll && options.delta !== false;
  const delta = useDelta ? runDelta(ctx, variant, all) : undefined;
  if (delta) {
    const out = found(
      ctx,
      "delta",
      variant,
      [delta.span],
      [...warnings, deltaWarning(delta.span, delta.runnerUp, delta.toldApart)],
    );
    return out.ok && out.kind === "lines"
      ? { ...out, differing: delta.differing.map((f) => f + 1) }
      : out;
  }
  const closest = all.slice(0, MAX_SHOWN_CANDIDATES);
  return {
    ok: false,
    code: "not_found",
    message: notFound(ctx.file.lines, closest),
    candidates: closest.map(({ anchored: _, ...c }) => c),
  };
}

/** Whether every place matched old_text with the same indentation mapping and escaping. */
function sameWay(spans: readonly LineSpan[]): boolean {
  const way = (s: LineSpan) => JSON.stringify([s.indent ?? null, s.escapes ?? null]);
  return spans.every((s) => way(s) === way(spans[0]!));
}

function refuse(code: Refusal["code"], message: string): Refusal {
  return { ok: false, code, message };
}

function ambiguous(ctx: LadderContext, rung: Rung, spans: LineSpan[]): Refusal {
  const out: Refusal = {
    ok: false,
    code: "ambiguous",
    message: rungAmbiguous(rung, spans),
    lines: spans.map((s) => s.from + 1),
  };
  if (rung === "anchored") out.candidates = spans.map((s) => spanCandidate(ctx.view.lines, s));
  return out;
}

function found(
  ctx: LadderContext,
  rung: Rung,
  variant: Variant,
  spans: LineSpan[],
  inputWarnings: string[],
): Found | Refusal {
  const oldChars = contentLength(variant.lines);
  for (const span of spans) {
    const fileChars = contentLength(ctx.view.lines.slice(span.from, span.to));
    if (fileChars > SUSPICIOUS_FACTOR * oldChars + SUSPICIOUS_SLACK) {
      return {
        ok: false,
        code: "suspicious",
        message: suspicious(rung, span, oldChars, fileChars),
        candidates: [spanCandidate(ctx.view.lines, span)],
      };
    }
  }
  const first = spans[0]!;
  // Whole lines can match verbatim when only a stray blank line or the final newline differed.
  const verbatim =
    rung !== "anchored" &&
    rung !== "delta" &&
    variant.lines.every((l, k) => l === ctx.view.lines[first.from + k]);
  const warnings = [
    ...inputWarnings,
    ...matchWarnings(verbatim ? undefined : rung, first, variant.lead, variant.trail),
  ];
  if (rung === "anchored") {
    const fileBlank = ctx.view.lines.slice(first.from, first.to).filter(isBlank).length;
    const blank = blankLineWarning(fileBlank, variant.lines.filter(isBlank).length);
    if (blank) warnings.push(blank);
  }
  if (spans.length > 1) {
    warnings.push(`Replaced all ${spans.length} places that match ${RUNG_HOW[rung]}.`);
  }
  return {
    ok: true,
    kind: "lines",
    mode: MODE_OF[rung],
    rung,
    score: spans.reduce((low, s) => Math.min(low, s.score), 1),
    spans,
    old: { ...ctx.old, lead: variant.lead, trail: variant.trail },
    file: ctx.file,
    warnings,
  };
}

type ExactOutcome = { ok: true; spans: ExactSpan[] } | Refusal;

/**
 * Non-overlapping occurrences, left to right. Two occurrences are ambiguous
 * even when they overlap ("aa" in "aaa"): either could be the one meant.
 */
function findExact(text: string, needle: string, replaceAll: boolean): ExactOutcome | undefined {
  const first = text.indexOf(needle);
  if (first === -1) return undefined;
  const starts: number[] = [];
  for (let at = first; at !== -1; at = text.indexOf(needle, at + needle.length)) starts.push(at);
  const second = text.indexOf(needle, first + 1);
  if (second !== -1 && !replaceAll) {
    const all = starts.length > 1 ? starts : [first, second];
    const lines = lineNumbers(text, all);
    return { ok: false, code: "ambiguous", message: exactAmbiguous(lines), lines };
  }
  const startLines = lineNumbers(text, starts);
  const endLines = lineNumbers(
    text,
    starts.map((s) => s + needle.length - 1),
  );
  return {
    ok: true,
    spans: starts.map((start, k) => ({
      start,
      end: start + needle.length,
      startLine: startLines[k]!,
      endLine: endLines[k]!,
    })),
  };
}

/** 1-based line of each offset (ascending offsets), in one pass. */
function lineNumbers(text: string, offsets: readonly number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let pos = 0;
  for (const offset of offsets) {
    for (
      let nl = text.indexOf("\n", pos);
      nl !== -1 && nl < offset;
      nl = text.indexOf("\n", nl + 1)
    ) {
      line++;
      pos = nl + 1;
    }
    out.push(line);
  }
  return out;
}
