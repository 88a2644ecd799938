/**
 * The sentences a refusal or a fuzzy match hands the model. Each one says
 * what happened and exactly what to do next; none names the file (the tool
 * prefixes the path). File lines are shown as `N| text`, like a read.
 */

import { ANCHOR_THRESHOLD } from "./anchored.js";
import type { Closest } from "./closest.js";
import { describeIndent, isIdentity, plural } from "./indent.js";
import type { LineSpan, Rung } from "./types.js";
import { RUNG_HOW } from "./types.js";

/** Places listed by number before "and N more". */
const MAX_LISTED = 10;
/** Lines shown per candidate region. */
const MAX_SHOWN_LINES = 20;
const MAX_SHOWN_CHARS = 300;
/** Lines of context around a region in "read lines a..b again". */
const REREAD_MARGIN = 3;

export function range(start: number, end: number): string {
  return start === end ? `${start}` : `${start}..${end}`;
}

/** "line 4" or "lines 4..9". */
export function linesRef(start: number, end: number): string {
  return start === end ? `line ${start}` : `lines ${start}..${end}`;
}

function listed(items: readonly string[]): string {
  const shown = items.slice(0, MAX_LISTED).join(", ");
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}

const score2 = (s: number) => (Math.floor(s * 100) / 100).toFixed(2);

export function exactAmbiguous(lines: readonly number[]): string {
  return `old_text matches ${lines.length} places (lines ${listed(lines.map(String))}); include more surrounding lines to make it unique, or set replace_all.`;
}

export function rungAmbiguous(rung: Rung, spans: readonly LineSpan[]): string {
  const where = spans.map((s) =>
    rung === "anchored"
      ? `${range(s.from + 1, s.to)} at ${score2(s.score)}`
      : range(s.from + 1, s.to),
  );
  const next =
    rung === "anchored"
      ? "copy the exact lines of the one you mean into old_text, with a line above or below that makes it unique."
      : "include more surrounding lines to make it unique, or set replace_all.";
  return `old_text has no exact match, and ${RUNG_HOW[rung]} it matches ${spans.length} places (lines ${listed(where)}); ${next}`;
}

/** replace_all over places a fuzzy rung matched in different ways: one new_text cannot fit them all. */
export function replaceAllMixed(rung: Rung, spans: readonly LineSpan[]): string {
  const how = (s: LineSpan) => {
    const indent =
      s.indent === undefined
        ? "indented unevenly"
        : isIdentity(s.indent)
          ? "indented as quoted"
          : describeIndent(s.indent);
    return `${linesRef(s.from + 1, s.to)} ${indent}${s.escapes === "over" ? ", one escape level fewer" : ""}`;
  };
  return `old_text has no exact match, and ${RUNG_HOW[rung]} it matches ${spans.length} places, but not all the same way (${listed(spans.map(how))}), so one new_text cannot be written at every place. Nothing was changed. Quote each place exactly as the file has it and edit them one at a time, or quote one of them exactly and set replace_all to change only the places that read exactly like it.`;
}

export function rungTooMany(rung: Rung, limit: number): string {
  if (rung === "anchored") {
    return `old_text has no exact match, and its first and last lines occur together in more than ${limit} places, too many to compare; copy the lines exactly, starting and ending with lines that occur once.`;
  }
  return `old_text has no exact match, and ${RUNG_HOW[rung]} it matches more than ${limit} places; include more surrounding lines to make it unique.`;
}

export function suspicious(
  rung: Rung,
  span: LineSpan,
  oldChars: number,
  fileChars: number,
): string {
  const r = linesRef(span.from + 1, span.to);
  return `old_text has no exact match; ${RUNG_HOW[rung]} it matches ${r}, but that holds far more text than old_text (${fileChars} vs ${oldChars} characters), so nothing was replaced. Read ${r} again and copy the exact lines into old_text.`;
}

/** `N| text` lines for a region, cut to a readable size with bracketed notices. */
export function showRegion(fileLines: readonly string[], start: number, end: number): string {
  const out: string[] = [];
  const last = Math.min(end, start + MAX_SHOWN_LINES - 1);
  for (let n = start; n <= last; n++) {
    const line = fileLines[n - 1] ?? "";
    out.push(
      line.length > MAX_SHOWN_CHARS
        ? `${n}| ${line.slice(0, MAX_SHOWN_CHARS)} [cut]`
        : `${n}| ${line}`,
    );
  }
  if (last < end) out.push(`[${end - last} more lines to ${end}]`);
  return out.join("\n");
}

function reread(fileLines: readonly string[], start: number, end: number): string {
  return linesRef(
    Math.max(1, start - REREAD_MARGIN),
    Math.min(fileLines.length, end + REREAD_MARGIN),
  );
}

export function notFound(fileLines: readonly string[], candidates: readonly Closest[]): string {
  if (candidates.length === 0) {
    return "old_text was not found, and no part of the file resembles it. Read the file again and copy the exact lines you want to change into old_text.";
  }
  const blocks = candidates.map((c) => {
    const r = linesRef(c.startLine, c.endLine);
    const head = c.anchored
      ? `${r}, which start and end like old_text but differ in between (similarity ${score2(c.score)}; ${ANCHOR_THRESHOLD} needed)`
      : `${r} (similarity ${score2(c.score)})`;
    return `${head}:\n${showRegion(fileLines, c.startLine, c.endLine)}`;
  });
  const top = candidates[0]!;
  const intro = candidates.length === 1 ? "The closest region is" : "The closest regions are";
  return `old_text was not found. ${intro} ${blocks.join("\n")}\nCopy the lines you mean exactly as shown, without the "N| " prefixes, into old_text; or read ${reread(fileLines, top.startLine, top.endLine)} again.`;
}

/** What a fuzzy match did, as warnings on the result. */
export function matchWarnings(
  rung: Rung | undefined,
  span: LineSpan,
  lead: number,
  trail: number,
): string[] {
  const r = linesRef(span.from + 1, span.to);
  const out: string[] = [];
  switch (rung) {
    case "trailing_whitespace":
      out.push(`old_text matched ${r} only after ignoring trailing whitespace.`);
      break;
    case "indentation":
    case "unicode": {
      const what =
        rung === "unicode"
          ? "after normalizing quotes, dashes, spaces and escapes"
          : "ignoring indentation";
      const how =
        span.indent && !isIdentity(span.indent)
          ? `; the file is ${describeIndent(span.indent)}, and new_text's lines were re-indented to match`
          : "";
      out.push(`old_text matched ${r} only ${what}${how}.`);
      break;
    }
    case "anchored":
      out.push(
        `old_text matched ${r} by its first and last lines (similarity ${score2(span.score)}); only the lines new_text changes were replaced, and the others keep the file's text.`,
      );
      break;
  }
  if (span.escapes === "over") {
    out.push(
      'old_text had one level of escaping too many (such as \\" where the file has "); new_text\'s lines were un-escaped the same way before writing.',
    );
  } else if (span.escapes === "other") {
    out.push(
      "old_text's backslashes differ from the file's; new_text's lines were written as given, so check their escapes.",
    );
  }
  if (lead) out.push("The blank first line of old_text was ignored.");
  if (trail) out.push("The blank last line of old_text was ignored.");
  return out;
}

/** What a delta match did; the applier's "Kept the file's own text" warning names the lines. */
export function deltaWarning(
  span: LineSpan,
  runnerUp: number,
  toldApart?: { from: number; to: number },
): string {
  const r = linesRef(span.from + 1, span.to);
  const next = toldApart
    ? `the next closest region, ${linesRef(toldApart.from + 1, toldApart.to)} at ${score2(runnerUp)}, differs from it on lines old_text quotes exactly as they are here`
    : runnerUp > 0
      ? `the next closest region ${score2(runnerUp)}`
      : "no other region close";
  return `old_text has no exact match; it matched ${r} by the lines new_text changes, which are in the file as quoted (similarity ${score2(span.score)}, ${next}). Only new_text's changes were made; the lines where old_text differs keep the file's text.`;
}

/** An anchored match that won over other accepted regions on the lines where they differ. */
export function toldApart(winner: LineSpan, others: readonly LineSpan[]): string {
  const where = others.map((s) => `${range(s.from + 1, s.to)} at ${score2(s.score)}`);
  return `By its first and last lines old_text also resembles ${plural(others.length, "other place")} (lines ${listed(where)}); it was matched to ${linesRef(winner.from + 1, winner.to)}, the only one that holds exactly as quoted every line where they differ.`;
}

export function blankLineWarning(fileBlank: number, oldBlank: number): string | undefined {
  if (fileBlank === oldBlank) return undefined;
  const d = Math.abs(fileBlank - oldBlank);
  return fileBlank > oldBlank
    ? `The file has ${plural(d, "more blank line")} there than old_text.`
    : `old_text has ${plural(d, "more blank line")} than the file there.`;
}
