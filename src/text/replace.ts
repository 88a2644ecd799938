/**
 * The replace engine's entry point: one text edit (old_text -> new_text) on a
 * file's normalized text, recovered when its target is certain and refused
 * with a coded sentence when it is not. new_text is always inserted as data:
 * `$&`, `$1`, `$$` are plain text (no String.replace with a string pattern).
 */

import { joinLines, normalizeInput, splitLines } from "./match/normalize.js";
import type { Found, MatchMode, Refusal, Rung } from "./match/types.js";
import { EMPTY_OLD_TEXT, findMatch } from "./match.js";
import { editSpan } from "./replace/lines.js";
import {
  alreadyThere,
  unchangedWarning,
  whitespaceOnly,
  whitespaceRefusal,
} from "./replace/whitespace.js";

export type { Candidate, MatchMode, RefusalCode, Rung } from "./match/types.js";

export interface TextEdit {
  oldText: string;
  newText: string;
  replaceAll?: boolean;
  /** false: never apply by the lines new_text changes alone (the delta rung); on by default. */
  delta?: boolean;
}

export type ReplaceOutcome =
  | {
      ok: true;
      text: string;
      mode: MatchMode;
      rung: Rung;
      /** 1 for exact; for fuzzy rungs the similarity of the matched content (0..1). */
      score: number;
      count: number;
      /** The file text actually replaced (the first match when several). */
      matchedText: string;
      /** 1-based inclusive, in the original text. */
      matchedLines: [number, number][];
      /** 1-based in the new text; 0 when the edit left the text unchanged. */
      firstChangedLine: number;
      warnings: string[];
      /** delta: 1-based lines where old_text differed from the file and the file kept its text. */
      differingLines?: number[];
    }
  | Refusal;

export const NOTHING_TO_CHANGE =
  "old_text and new_text are the same, so there is nothing to change; put the text the file should have in new_text.";

/** `text` is the file's normalized text: LF line endings, no BOM. */
export function replaceText(text: string, edit: TextEdit): ReplaceOutcome {
  const oldText = normalizeInput(edit.oldText).text;
  const newText = normalizeInput(edit.newText).text;
  if (oldText === "") return { ok: false, code: "invalid_input", message: EMPTY_OLD_TEXT };
  if (oldText === newText) return { ok: false, code: "invalid_input", message: NOTHING_TO_CHANGE };
  const match = findMatch(text, edit.oldText, {
    replaceAll: edit.replaceAll === true,
    newText: edit.newText,
    ...(edit.delta === false ? { delta: false } : {}),
  });
  if (whitespaceOnly(oldText, newText) && !(match.ok && match.kind === "exact")) {
    return whitespaceEdit(text, oldText, newText, match);
  }
  if (!match.ok) return match;
  return match.kind === "exact"
    ? applyExact(text, match, oldText, newText)
    : applyLines(text, match, newText);
}

/**
 * A whitespace-only edit the exact rung did not place: the file already
 * reading like new_text there is success with no change; anything else is
 * refused, since a whitespace-blind match cannot tell which version is there.
 */
function whitespaceEdit(
  text: string,
  oldText: string,
  newText: string,
  located: ReturnType<typeof findMatch>,
): ReplaceOutcome {
  const there = alreadyThere(text, newText, located);
  if (!there) return whitespaceRefusal(oldText, located);
  return {
    ok: true,
    text,
    mode: "exact",
    rung: "exact",
    score: 1,
    count: 0,
    matchedText: newText,
    matchedLines: [[there.startLine, there.endLine]],
    firstChangedLine: 0,
    warnings: [unchangedWarning(there)],
  };
}

function applyExact(
  text: string,
  match: Extract<Found, { kind: "exact" }>,
  oldText: string,
  newText: string,
): ReplaceOutcome {
  const parts: string[] = [];
  let pos = 0;
  for (const span of match.spans) {
    parts.push(text.slice(pos, span.start), newText);
    pos = span.end;
  }
  parts.push(text.slice(pos));
  const out = parts.join("");
  const first = match.spans[0]!;
  let same = 0;
  while (same < oldText.length && oldText[same] === newText[same]) same++;
  const lineCount = Math.max(1, lineAt(out, out.length) - (out.endsWith("\n") ? 1 : 0));
  return {
    ok: true,
    text: out,
    mode: match.mode,
    rung: match.rung,
    score: 1,
    count: match.spans.length,
    matchedText: text.slice(first.start, first.end),
    matchedLines: match.spans.map((s) => [s.startLine, s.endLine]),
    firstChangedLine: Math.min(lineAt(out, first.start + same), lineCount),
    warnings: match.warnings,
  };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let nl = text.indexOf("\n"); nl !== -1 && nl < offset; nl = text.indexOf("\n", nl + 1)) {
    line++;
  }
  return line;
}

function applyLines(
  text: string,
  match: Extract<Found, { kind: "lines" }>,
  newText: string,
): ReplaceOutcome {
  const file = match.file;
  const next = splitLines(newText);
  const last = match.spans.at(-1)!;
  // A final newline changes only when the edit reaches the end of the file
  // and old_text and new_text disagree about ending with one.
  let finalNewline = file.finalNewline;
  if (
    last.to === file.lines.length &&
    next.lines.length > 0 &&
    match.old.finalNewline !== next.finalNewline
  ) {
    finalNewline = next.finalNewline;
  }

  // Untouched stretches are sliced from the text: joining a large file's lines costs more.
  const offsets = lineOffsets(
    text,
    match.spans.flatMap((s) => [s.from, s.to]),
  );
  const parts: string[] = [];
  let kept: number[] = [];
  let pos = 0;
  let lineCount = file.lines.length;
  let changedAt = 0;
  let deletedLast = false;
  for (const [k, span] of match.spans.entries()) {
    const edit = editSpan(file.lines, span, match.old, next.lines);
    if (!edit.ok) return edit;
    parts.push(text.slice(pos, offsets[2 * k]));
    const atEnd = span.to === file.lines.length;
    deletedLast = atEnd && edit.lines.length === 0;
    if (edit.lines.length > 0) parts.push(joinLines(edit.lines, !atEnd || finalNewline));
    pos = offsets[2 * k + 1]!;
    if (changedAt === 0) {
      const d = firstDifference(file.lines, span, edit.lines);
      if (d >= 0) changedAt = span.from + (lineCount - file.lines.length) + d + 1;
    }
    lineCount += edit.lines.length - (span.to - span.from);
    kept = kept.concat(edit.kept);
  }
  parts.push(text.slice(pos));
  let out = parts.join("");
  // Deleting the last lines leaves the line before them last: it takes the file's final-newline state.
  if (deletedLast && !finalNewline && out.endsWith("\n")) out = out.slice(0, -1);
  if (changedAt === 0 && finalNewline !== file.finalNewline && lineCount > 0) changedAt = lineCount;
  changedAt = Math.min(changedAt, Math.max(1, lineCount));

  const warnings = lineWarnings(match.warnings, kept, changedAt);
  const first = match.spans[0]!;
  const endsInside = first.to < file.lines.length || file.finalNewline;
  return {
    ok: true,
    text: out,
    mode: match.mode,
    rung: match.rung,
    score: match.score,
    count: match.spans.length,
    matchedText:
      file.lines.slice(first.from, first.to).join("\n") +
      (match.old.finalNewline && endsInside ? "\n" : ""),
    matchedLines: match.spans.map((s) => [s.from + 1, s.to]),
    firstChangedLine: changedAt,
    warnings,
    ...(match.differing ? { differingLines: match.differing } : {}),
  };
}

/** The match's warnings, and what a line edit kept or left unchanged. */
function lineWarnings(
  matched: readonly string[],
  kept: readonly number[],
  changedAt: number,
): string[] {
  const warnings = [...matched];
  if (kept.length > 0) {
    const list = kept.map((f) => f + 1).join(", ");
    warnings.push(
      `Kept the file's own text on line${kept.length === 1 ? "" : "s"} ${list}, where old_text differs but new_text does not change it.`,
    );
  }
  if (changedAt === 0) {
    warnings.push(
      "The edit left the file unchanged: the lines new_text changes already read that way in the file.",
    );
  }
  return warnings;
}

/** Index in `lines` of the first line that differs from the span's file lines, or -1. */
function firstDifference(
  fileLines: readonly string[],
  span: { from: number; to: number },
  lines: readonly string[],
): number {
  const n = span.to - span.from;
  let k = 0;
  while (k < n && k < lines.length && lines[k] === fileLines[span.from + k]) k++;
  return k === n && k === lines.length ? -1 : k;
}

/** Character offset where each 0-based line starts (ascending input); text.length past the end. */
function lineOffsets(text: string, lines: readonly number[]): number[] {
  const out: number[] = [];
  let line = 0;
  let offset = 0;
  for (const want of lines) {
    while (line < want && offset < text.length) {
      const nl = text.indexOf("\n", offset);
      offset = nl === -1 ? text.length : nl + 1;
      line++;
    }
    out.push(offset);
  }
  return out;
}
