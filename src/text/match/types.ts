/** Shapes shared by the matcher (match*.ts) and the applier (replace*.ts). */
import type { IndentMap } from "./indent.js";

export type MatchMode = "exact" | "fuzzy" | "anchored" | "delta";

export type Rung =
  | "exact"
  | "line_endings"
  | "trailing_whitespace"
  | "indentation"
  | "unicode"
  | "anchored"
  | "delta";

export type RefusalCode = "not_found" | "ambiguous" | "suspicious" | "invalid_input";

/** A region of the file shown to the model; 1-based inclusive lines, score 0..1. */
export interface Candidate {
  startLine: number;
  endLine: number;
  score: number;
  text: string;
}

export interface Refusal {
  ok: false;
  code: RefusalCode;
  /** A sentence for the model: what went wrong and what to do next. */
  message: string;
  /** ambiguous: the start line of every candidate. */
  lines?: number[];
  /** not_found (and ambiguous anchored matches): the closest regions. */
  candidates?: Candidate[];
}

/** An exact substring match; may start and end mid-line. */
export interface ExactSpan {
  /** Character offsets in the text, end exclusive. */
  start: number;
  end: number;
  /** 1-based inclusive lines the match touches. */
  startLine: number;
  endLine: number;
}

/** A whole-line match found by a fuzzy rung. */
export interface LineSpan {
  /** 0-based file lines [from, to). */
  from: number;
  to: number;
  /** Per old_text line (OldLines.lines): the 0-based file line it stands for, or -1. */
  align: number[];
  /** Per old_text line: its similarity to that file line (0 when unaligned). */
  sim: number[];
  /** How old_text's indentation maps onto the file's; undefined: no single mapping. */
  indent: IndentMap | undefined;
  /** "over": old_text had one escape level too many; "other": backslashes differ otherwise. */
  escapes: "over" | "other" | undefined;
  score: number;
}

/** old_text as whole lines, and how many blank edge lines the match set aside. */
export interface OldLines {
  lines: string[];
  finalNewline: boolean;
  /** 1 when a blank first line of old_text was ignored, else 0. */
  lead: number;
  /** 1 when a blank last line of old_text was ignored, else 0. */
  trail: number;
}

interface FoundBase {
  ok: true;
  mode: MatchMode;
  rung: Rung;
  /** 1 for exact and line-ending matches; the weakest span's score otherwise. */
  score: number;
  warnings: string[];
}

export type Found =
  | (FoundBase & { kind: "exact"; spans: ExactSpan[] })
  | (FoundBase & {
      kind: "lines";
      spans: LineSpan[];
      old: OldLines;
      /** The file split into lines, as matched: the applier reuses it. */
      file: { lines: readonly string[]; finalNewline: boolean };
      /** delta: 1-based file lines where old_text's context lines differ from the file. */
      differing?: number[];
    });

export type MatchResult = Found | Refusal;

export const MODE_OF: Record<Rung, MatchMode> = {
  exact: "exact",
  line_endings: "fuzzy",
  trailing_whitespace: "fuzzy",
  indentation: "fuzzy",
  unicode: "fuzzy",
  anchored: "anchored",
  delta: "delta",
};

/** How a rung compared, for sentences: "ignoring trailing whitespace". */
export const RUNG_HOW: Record<Rung, string> = {
  exact: "exactly",
  line_endings: "with LF line endings",
  trailing_whitespace: "ignoring trailing whitespace",
  indentation: "ignoring indentation",
  unicode: "ignoring indentation, quote/dash/space styles and escapes",
  anchored: "by its first and last lines with similar lines between",
  delta: "by the lines new_text changes, with misremembered lines around them",
};

export function spanCandidate(lines: readonly string[], span: LineSpan): Candidate {
  return {
    startLine: span.from + 1,
    endLine: span.to,
    score: span.score,
    text: lines.slice(span.from, span.to).join("\n"),
  };
}
