/**
 * Edits whose only change is whitespace. Every fuzzy rung compares lines with
 * some whitespace ignored, so for such an edit a fuzzy match says nothing
 * about which of the two versions the file holds: a 9-space old_text "found"
 * ignoring indentation on a file line with 8 spaces is re-indented by the
 * same shift and lands as 7. Only an exact match may place it; otherwise the
 * file either already reads like new_text (nothing to do) or the model must
 * see the file's real whitespace.
 */
import { linesRef } from "../match/messages.js";
import { leadingWs, splitLines, trimEndWs } from "../match/normalize.js";
import type { MatchResult, Refusal } from "../match/types.js";

const WS = /\s+/g;
/** Exact places of new_text looked at; more than this cannot single one out anyway. */
const MAX_PLACES = 100;

/** old_text and new_text differ, and only in whitespace (line breaks included). */
export function whitespaceOnly(oldText: string, newText: string): boolean {
  return oldText !== newText && oldText.replace(WS, "") === newText.replace(WS, "");
}

/** Where the file already holds new_text, as 1-based [first, last] lines. */
export interface AlreadyThere {
  startLine: number;
  endLine: number;
}

/**
 * new_text's exact place in the file: the occurrence that overlaps the lines
 * the ladder located old_text on, or the only occurrence when it located none.
 */
export function alreadyThere(
  text: string,
  newText: string,
  located: MatchResult,
): AlreadyThere | undefined {
  if (newText === "") return undefined;
  const found: AlreadyThere[] = [];
  const height = countNewlines(newText.replace(/\n$/, ""), 0, Number.MAX_SAFE_INTEGER);
  let line = 1;
  let pos = 0;
  for (let at = text.indexOf(newText); at !== -1 && found.length < MAX_PLACES; ) {
    line += countNewlines(text, pos, at);
    pos = at;
    found.push({ startLine: line, endLine: line + height });
    at = text.indexOf(newText, at + 1);
  }
  if (found.length === 0) return undefined;
  const where = locatedLines(located);
  if (where === undefined) {
    // Nothing located: only a single exact new_text is certainly "there".
    const locatable = located.ok || located.code === "not_found";
    return locatable && found.length === 1 ? found[0] : undefined;
  }
  const [from, to] = where;
  const overlapping = found.filter((f) => f.startLine <= to && from <= f.endLine);
  return overlapping.length === 1 ? overlapping[0] : undefined;
}

export function unchangedWarning(there: AlreadyThere): string {
  return `old_text and new_text differ only in whitespace, and the file already has new_text exactly at ${linesRef(there.startLine, there.endLine)}; nothing was changed.`;
}

const PREFIX =
  "old_text and new_text differ only in whitespace, so only an exact match can place them, and old_text is not in the file exactly";

/**
 * The refusal for a whitespace-only edit that matched only by ignoring
 * whitespace: it names the file's real whitespace on the first line that
 * differs, which is what the model must copy.
 */
export function whitespaceRefusal(oldText: string, located: MatchResult): Refusal {
  const olds = splitLines(oldText).lines;
  if (!located.ok) {
    if (located.code !== "not_found") return located;
    // A region as similar as a whitespace variant can be: compare it line by line.
    const c = located.candidates?.[0];
    const lines = c?.text.split("\n");
    const detail =
      c && c.score >= 0.99 && lines?.length === olds.length
        ? firstDifference(
            olds,
            olds.map((_, k) => [c.startLine + k, lines[k]!]),
          )
        : undefined;
    if (detail) return { ...located, message: `${PREFIX}: ${detail}. ${located.message}` };
    return { ...located, message: `${PREFIX}. ${located.message}` };
  }
  let detail: string | undefined;
  let where = "";
  if (located.kind === "lines") {
    const span = located.spans[0]!;
    detail = firstDifference(
      olds,
      span.align.map((f) => (f < 0 ? undefined : [f + 1, located.file.lines[f]!])),
    );
    where = `it matches ${linesRef(span.from + 1, span.to)} only ignoring whitespace`;
  }
  return {
    ok: false,
    code: "not_found",
    message: `${PREFIX}: ${detail ?? where}. Read those lines again and copy their whitespace exactly into old_text.`,
  };
}

function locatedLines(located: MatchResult): [number, number] | undefined {
  if (!located.ok) {
    const c = located.candidates?.[0];
    // Only a region close enough to be a whitespace variant says where "there" is.
    return c && c.score >= 0.99 ? [c.startLine, c.endLine] : undefined;
  }
  if (located.kind === "exact") {
    const s = located.spans[0]!;
    return [s.startLine, s.endLine];
  }
  const s = located.spans[0]!;
  return [s.from + 1, s.to];
}

/**
 * "line 12 has 8 spaces of indentation, old_text has 9 spaces", for the first
 * old_text line whose file line (1-based number and text) reads differently.
 */
function firstDifference(
  olds: readonly string[],
  files: readonly ([number, string] | undefined)[],
): string | undefined {
  for (let k = 0; k < olds.length; k++) {
    const file = files[k];
    if (!file) continue;
    const [n, line] = file;
    const o = olds[k]!;
    if (o === line) continue;
    const oi = leadingWs(o);
    const fi = leadingWs(line);
    if (oi !== fi) {
      return `line ${n} has ${describeWs(fi)} of indentation, old_text has ${describeWs(oi)}`;
    }
    const oBody = trimEndWs(o);
    const fBody = trimEndWs(line);
    if (oBody === fBody) {
      return `line ${n} ends with ${describeWs(line.slice(fBody.length))} of trailing whitespace, old_text with ${describeWs(o.slice(oBody.length))}`;
    }
    return `line ${n} reads ${JSON.stringify(line)}, old_text has ${JSON.stringify(o)}`;
  }
  return undefined;
}

/** "8 spaces", "1 tab", "2 tabs and 3 spaces", "none". */
function describeWs(ws: string): string {
  if (ws === "") return "none";
  const tabs = ws.split("\t").length - 1;
  const spaces = ws.split(" ").length - 1;
  const other = ws.length - tabs - spaces;
  const parts: string[] = [];
  if (tabs) parts.push(`${tabs} tab${tabs === 1 ? "" : "s"}`);
  if (spaces) parts.push(`${spaces} space${spaces === 1 ? "" : "s"}`);
  if (other) parts.push(`${other} other whitespace character${other === 1 ? "" : "s"}`);
  return parts.join(" and ");
}

/** Newlines in s[from, to). */
function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let at = s.indexOf("\n", from); at !== -1 && at < to; at = s.indexOf("\n", at + 1)) n++;
  return n;
}
