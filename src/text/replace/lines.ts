/**
 * Applies a fuzzy match: only what the model changed. old_text and new_text
 * are aligned with a line diff; lines they share are context and keep the
 * file's own text (a misremembered or re-indented context line is never
 * written); each changed line replaces the file line its old_text line stands
 * for, re-indented and un-escaped the way the match mapped old_text onto the
 * file. When that file line is missing or reads differently, or the file has
 * unquoted lines where an insertion would go or inside a stretch being
 * rewritten, the edit is refused rather than guessed.
 */
import { lineChanges } from "../match/changes.js";
import { IDENTITY, type IndentMap, reindent, solveIndentMap } from "../match/indent.js";
import { linesRef } from "../match/messages.js";
import { isBlank, leadingWs, lineKey, unescapeOnce } from "../match/normalize.js";
import type { LineSpan, OldLines, Refusal } from "../match/types.js";

/**
 * A line new_text changes must be at least this similar to the file line it
 * replaces: a typo or a changed literal passes, a different statement does
 * not (its change would land on a line the model never saw).
 */
export const CHANGED_LINE_MIN = 0.8;

export type SpanEdit =
  | {
      ok: true;
      /** What replaces file lines [span.from, span.to). */
      lines: string[];
      /** 0-based file lines kept although old_text's version of them differs. */
      kept: number[];
    }
  | Refusal;

export function editSpan(
  fileLines: readonly string[],
  span: LineSpan,
  old: OldLines,
  newLines: readonly string[],
): SpanEdit {
  const olds = old.lines;
  const region = linesRef(span.from + 1, span.to);
  const aligned = new Set(span.align.filter((f) => f >= 0));
  const replaced = new Map<number, string[]>();
  const inserted = new Map<number, string[]>();
  const kept: number[] = [];
  let lastPos = span.from - 1;

  const place = (line: string, oi: number) => {
    const unescaped = span.escapes === "over" ? unescapeOnce(line) : line;
    return reindent(unescaped, span.indent ?? localIndent(fileLines, span, olds, oi));
  };
  /**
   * A changed line that replaces file line f keeps that line's own
   * indentation when the model did not change the indentation it quoted
   * (so a tab quoted for three spaces stays three spaces).
   */
  const placeOver = (line: string, oi: number, f: number) => {
    const indent = leadingSpace(line);
    if (indent !== leadingSpace(olds[oi]!)) return place(line, oi);
    const rest = line.slice(indent.length);
    return leadingSpace(fileLines[f]!) + (span.escapes === "over" ? unescapeOnce(rest) : rest);
  };
  const insert = (lines: string[]) => {
    const at = inserted.get(lastPos);
    if (at) for (const line of lines) at.push(line);
    else inserted.set(lastPos, lines);
  };
  /** Unquoted file lines with content between lastPos and the next quoted one make a pure insertion's place uncertain. */
  const unquotedAhead = (): number | undefined => {
    for (let f = lastPos + 1; f < span.to && !aligned.has(f); f++) {
      if (!isBlank(fileLines[f]!)) return f;
    }
    return undefined;
  };

  const changes = lineChanges(olds, newLines);
  let oi = 0;
  for (let c = 0; c < changes.length; c++) {
    const change = changes[c]!;
    if (!change.added && !change.removed) {
      for (let k = 0; k < change.count; k++, oi++) {
        const f = span.align[oi]!;
        if (f < 0) continue;
        lastPos = f;
        if (lineKey("unicode", olds[oi]!) !== lineKey("unicode", fileLines[f]!)) kept.push(f);
      }
      continue;
    }
    // A hunk: removed old lines, then the added new lines, in either order.
    let removed = 0;
    let added: string[] = [];
    while (c < changes.length && (changes[c]!.added || changes[c]!.removed)) {
      if (changes[c]!.removed) removed += changes[c]!.count;
      else added = added.concat(changes[c]!.value);
      c++;
    }
    c--;
    const unseen = unquotedWithin(span.align.slice(oi, oi + removed), aligned, fileLines);
    if (unseen !== undefined) return refuseUnseen(region, unseen);
    let touched = false;
    for (let k = 0; k < removed; k++, oi++) {
      const f = span.align[oi]!;
      const next =
        k < added.length ? [f < 0 ? place(added[k]!, oi) : placeOver(added[k]!, oi, f)] : [];
      if (f < 0) {
        // A blank line old_text imagined: nothing to remove, its replacement is an insertion.
        if (!isBlank(olds[oi]!)) return refuseMissing(region, oi, olds[oi]!, next.length > 0);
        if (next.length > 0) {
          const unquoted = touched ? undefined : unquotedAhead();
          if (unquoted !== undefined) return refuseInsertion(region, unquoted);
          insert(next);
        }
        continue;
      }
      if (span.sim[oi]! < CHANGED_LINE_MIN) {
        return refuseDifferent(region, oi, f, fileLines, olds, span.sim[oi]!, next.length > 0);
      }
      replaced.set(f, next);
      lastPos = f;
      touched = true;
    }
    if (added.length > removed) {
      const unquoted = touched ? undefined : unquotedAhead();
      if (unquoted !== undefined) return refuseInsertion(region, unquoted);
      insert(added.slice(removed).map((line) => place(line, Math.max(0, oi - 1))));
    }
  }

  // Loops, not push(...spread): an insertion may be longer than the engine's argument limit.
  const lines: string[] = [];
  const add = (more: readonly string[] | undefined) => {
    for (const line of more ?? []) lines.push(line);
  };
  add(inserted.get(span.from - 1));
  for (let f = span.from; f < span.to; f++) {
    add(replaced.get(f) ?? [fileLines[f]!]);
    add(inserted.get(f));
  }
  return { ok: true, lines, kept };
}

/** With no mapping for the whole span, the nearest quoted line with content decides. */
function localIndent(
  fileLines: readonly string[],
  span: LineSpan,
  olds: readonly string[],
  oi: number,
): IndentMap {
  for (let d = 0; d < olds.length; d++) {
    for (const k of d === 0 ? [oi] : [oi - d, oi + d]) {
      const f = span.align[k];
      if (f === undefined || f < 0 || isBlank(olds[k]!)) continue;
      return solveIndentMap([[leadingWs(olds[k]!), leadingWs(fileLines[f]!)]]) ?? IDENTITY;
    }
  }
  return IDENTITY;
}

const quote = (s: string) => JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}…` : s);

const verb = (replacing: boolean) => (replacing ? "changes" : "removes");

function refuseMissing(region: string, oi: number, line: string, replacing: boolean): Refusal {
  return {
    ok: false,
    code: "not_found",
    message: `old_text matched ${region} by its first and last lines, but its line ${oi + 1} (${quote(line)}), which new_text ${verb(replacing)}, is not in the file there. Read ${region} again and copy them exactly into old_text.`,
  };
}

function refuseDifferent(
  region: string,
  oi: number,
  f: number,
  fileLines: readonly string[],
  olds: readonly string[],
  sim: number,
  replacing: boolean,
): Refusal {
  const score = (Math.floor(sim * 100) / 100).toFixed(2);
  return {
    ok: false,
    code: "not_found",
    message: `old_text matched ${region} by its first and last lines, but its line ${oi + 1} (${quote(olds[oi]!)}), which new_text ${verb(replacing)}, reads differently in the file (similarity ${score}):\n${f + 1}| ${fileLines[f]}\nRead ${region} again and copy them exactly into old_text.`,
  };
}

/**
 * A file line with content between the file lines a hunk replaces that
 * old_text does not quote: the model rewrote that stretch without seeing it.
 */
function unquotedWithin(
  hunk: readonly number[],
  aligned: ReadonlySet<number>,
  fileLines: readonly string[],
): number | undefined {
  const placed = hunk.filter((f) => f >= 0);
  if (placed.length < 2) return undefined;
  const first = placed.reduce((a, b) => Math.min(a, b));
  const last = placed.reduce((a, b) => Math.max(a, b));
  for (let f = first + 1; f < last; f++) {
    if (!aligned.has(f) && !isBlank(fileLines[f]!)) return f;
  }
  return undefined;
}

function refuseUnseen(region: string, f: number): Refusal {
  return {
    ok: false,
    code: "ambiguous",
    message: `old_text matched ${region} by its first and last lines, but among the lines new_text rewrites the file has one that old_text lacks (line ${f + 1}), so whether it should stay is not certain. Read ${region} again and copy it exactly into old_text.`,
    lines: [f + 1],
  };
}

function refuseInsertion(region: string, f: number): Refusal {
  return {
    ok: false,
    code: "ambiguous",
    message: `old_text matched ${region} by its first and last lines, but the file has a line there that old_text lacks (line ${f + 1}), so where new_text's added lines belong is not certain. Read ${region} again and copy them exactly into old_text.`,
    lines: [f + 1],
  };
}

function leadingSpace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}
