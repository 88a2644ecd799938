/**
 * Steps every case class shares: a span whose target is certain, with a
 * change, and the apply or refuse case made from how it is quoted.
 */
import type { Rng } from "../lib.js";
import {
  applyChange,
  type Change,
  type ChangeOptions,
  countExact,
  type FileInfo,
  isBlank,
  joinText,
  leading,
  looseCount,
  makeChange,
  pickSpan,
  type SpanOptions,
  withSpan,
} from "./spans.js";

/** unchanged: the file already says what new_text says; the right answer leaves it as it is. */
export type Expected = { kind: "apply"; text: string } | { kind: "refuse" } | { kind: "unchanged" };

/** A case before it has an id, a class and a file. */
export interface Draft {
  /** 1-based line in `original` where the quoted span starts (where it came from, for refusals). */
  line: number;
  /** 1-based last line of that span (inclusive). */
  endLine: number;
  /** The change and the mistake, in words. */
  what: string;
  /** The file as the model read it; differs from `original` only for stale cases. */
  read: string;
  /** The file when the edit arrives. */
  original: string;
  oldText: string;
  newText: string;
  expected: Expected;
}

export interface Edit {
  from: number;
  to: number;
  span: string[];
  change: Change;
  /** Whether old_text and new_text end with a newline. */
  nl: boolean;
}

/**
 * A span whose quote is unique in the file, exactly and loosely (ignoring
 * whitespace, quote styles, escapes and blank lines), with a change.
 */
export function certainEdit(
  info: FileInfo,
  rng: Rng,
  spanOptions: SpanOptions = {},
  changeOptions: (span: string[]) => ChangeOptions = () => ({}),
): Edit | undefined {
  const s = pickSpan(info, rng, spanOptions);
  if (!s) return undefined;
  const span = info.lines.slice(s.from, s.to);
  const nl = rng.chance(0.5);
  if (countExact(info.text, joinText(span, nl)) !== 1) return undefined;
  if (looseCount(info, s.from, s.to) !== 1) return undefined;
  const change = makeChange(span, info.idents, rng, changeOptions(span));
  if (!change) return undefined;
  return { ...s, span, change, nl };
}

/** An apply case; undefined when the quote is still found exactly (it must be perturbed). */
export function applyCase(
  info: FileInfo,
  e: Edit,
  oldLines: string[],
  newLines: string[],
  what: string,
  options: { eol?: string; perturbed?: boolean } = {},
): Draft | undefined {
  const oldText = joinText(oldLines, e.nl, options.eol);
  const newText = joinText(newLines, e.nl, options.eol);
  if (options.perturbed !== false && countExact(info.text, oldText, 1) > 0) return undefined;
  if (oldText === newText) return undefined;
  return {
    line: e.from + 1,
    endLine: e.to,
    what: `${e.change.what}; ${what}`,
    read: info.text,
    original: info.text,
    oldText,
    newText,
    expected: { kind: "apply", text: withSpan(info, e.from, e.to, applyChange(e.span, e.change)) },
  };
}

export function refuseCase(
  read: string,
  original: string,
  lines: [number, number],
  oldText: string,
  newText: string,
  what: string,
): Draft {
  const [line, endLine] = lines;
  return { line, endLine, what, read, original, oldText, newText, expected: { kind: "refuse" } };
}

/** A shift of every non-blank line by `by` spaces (negative: remove). */
export function shiftBy(by: number): (line: string) => string {
  return (line) => (isBlank(line) ? line : by > 0 ? " ".repeat(by) + line : line.slice(-by));
}

/** Shifts from `choices` that every line can take (a dedent needs that many leading spaces). */
export function feasibleShifts(lines: string[], choices: number[]): number[] {
  const content = lines.filter((l) => !isBlank(l));
  if (content.some((l) => leading(l).includes("\t"))) return [];
  const least = Math.min(...content.map((l) => leading(l).length));
  return choices.filter((d) => d > 0 || least >= -d);
}

/** The lines the change adds, for checks over span and change together. */
export function changeLines(change: Change): string[] {
  return change.kind === "delete" ? [] : [change.line];
}

export function distinctIndexes(rng: Rng, from: number[], count: number): number[] {
  const pool = [...from];
  const out: number[] = [];
  while (out.length < count && pool.length > 0)
    out.push(pool.splice(rng.int(0, pool.length - 1), 1)[0]!);
  return out.sort((a, b) => a - b);
}
