/**
 * Whitespace tidying of one document: trailing whitespace, the final newline,
 * mixed line endings, and leading indentation converted between tabs and
 * spaces where the conversion is certain. Pure; says what it fixed and which
 * lines it left alone because they were ambiguous.
 */
import { type Document, type Eol, encodingOf } from "./document.js";

export interface TidyOptions {
  /** Remove spaces and tabs at line ends (default true). */
  trimTrailingWhitespace?: boolean;
  /** Keep two or more trailing spaces after text: a Markdown hard line break. */
  keepHardBreaks?: boolean;
  /** true (default): end with a line break; false: end without one. Empty files stay empty. */
  insertFinalNewline?: boolean;
  /** Every line ending becomes this; without it only a mixed file is made uniform (to its dominant one). */
  endOfLine?: Eol;
  /** Convert leading indentation to this style. */
  indent?: { style: "space" | "tab"; size: number; tabWidth: number };
  /**
   * 0-based lines whose whitespace is part of a value (inside a multi-line
   * string): `starts` keep their indentation, `ends` their trailing whitespace.
   */
  literal?: { starts: ReadonlySet<number>; ends: ReadonlySet<number> };
}

export type TidyFixKind = "trailing_whitespace" | "final_newline" | "line_endings" | "indentation";

export interface TidyFix {
  kind: TidyFixKind;
  /** 1-based lines changed (the last line for a final-newline fix). */
  lines: number[];
  detail: string;
}

export interface TidyOutcome {
  doc: Document;
  fixes: TidyFix[];
  /** Lines whose indentation could not be converted with certainty (1-based). */
  ambiguousIndent: number[];
}

const LEADING = /^[ \t]*/;
const HARD_BREAK = /\S {2,}$/;

function trimEnd(line: string, keepHardBreaks: boolean): string {
  if (keepHardBreaks && HARD_BREAK.test(line)) return line;
  let end = line.length;
  while (end > 0 && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** The line's indentation in `style`, undefined when unchanged, "ambiguous" when uncertain. */
function reindent(
  ws: string,
  indent: NonNullable<TidyOptions["indent"]>,
): string | "ambiguous" | undefined {
  const tabs = /^\t*/.exec(ws)![0].length;
  const rest = ws.slice(tabs);
  if (rest.includes("\t")) return "ambiguous"; // spaces before a tab: its width depends on the column
  const spaces = rest.length;
  if (indent.style === "space") {
    return tabs === 0 ? undefined : " ".repeat(tabs * indent.tabWidth + spaces);
  }
  if (spaces === 0) return undefined;
  if (spaces % indent.size === 0) return "\t".repeat(tabs + spaces / indent.size);
  // Tabs then fewer spaces than a level is alignment ("filling the remainder with spaces").
  return tabs > 0 && spaces < indent.size ? undefined : "ambiguous";
}

export function tidyDocument(doc: Document, options: TidyOptions = {}): TidyOutcome {
  const lines = [...doc.lines];
  const eols = [...doc.eols];
  const fixes: TidyFix[] = [];
  const ambiguousIndent: number[] = [];
  if (options.indent) convertIndentation(lines, options, options.indent, fixes, ambiguousIndent);
  if (options.trimTrailingWhitespace !== false) trimTrailing(lines, options, fixes);
  const target: Eol | undefined = unifyLineEndings(doc, eols, options, fixes);
  const eol = target ?? doc.eol;
  fixFinalNewline(eols, eol, options, fixes);
  return { doc: { bom: doc.bom, lines, eols, eol, ...encodingOf(doc) }, fixes, ambiguousIndent };
}

/** Leading whitespace in the indentation style asked for, where the conversion is certain. */
function convertIndentation(
  lines: string[],
  options: TidyOptions,
  indent: NonNullable<TidyOptions["indent"]>,
  fixes: TidyFix[],
  ambiguousIndent: number[],
): void {
  const changed: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const ws = LEADING.exec(line)![0];
    if (ws === "" || ws.length === line.length) continue; // blank lines are trailing whitespace
    if (options.literal?.starts.has(i)) continue;
    const next = reindent(ws, indent);
    if (next === "ambiguous") ambiguousIndent.push(i + 1);
    else if (next !== undefined && next !== ws) {
      lines[i] = next + line.slice(ws.length);
      changed.push(i + 1);
    }
  }
  if (changed.length > 0) {
    const to = indent.style === "space" ? `${indent.size} spaces` : "tabs";
    fixes.push({ kind: "indentation", lines: changed, detail: `indentation converted to ${to}` });
  }
}

function trimTrailing(lines: string[], options: TidyOptions, fixes: TidyFix[]): void {
  const changed: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (options.literal?.ends.has(i)) continue;
    const trimmed = trimEnd(lines[i]!, options.keepHardBreaks === true);
    if (trimmed !== lines[i]) {
      lines[i] = trimmed;
      changed.push(i + 1);
    }
  }
  if (changed.length > 0) {
    fixes.push({
      kind: "trailing_whitespace",
      lines: changed,
      detail: "trailing whitespace removed",
    });
  }
}

/** One line ending for every line: the one asked for, or the file's dominant one when mixed. Returns it, if any. */
function unifyLineEndings(
  doc: Document,
  eols: string[],
  options: TidyOptions,
  fixes: TidyFix[],
): Eol | undefined {
  const mixed = new Set(eols.filter((e) => e !== "")).size > 1;
  const target: Eol | undefined = options.endOfLine ?? (mixed ? doc.eol : undefined);
  if (!target) return undefined;
  const changed: number[] = [];
  for (let i = 0; i < eols.length; i++) {
    if (eols[i] !== "" && eols[i] !== target) {
      eols[i] = target;
      changed.push(i + 1);
    }
  }
  if (changed.length > 0) {
    const name = target === "\n" ? "LF" : "CRLF";
    const why = options.endOfLine ? "as .editorconfig asks" : "the file's dominant style";
    fixes.push({
      kind: "line_endings",
      lines: changed,
      detail: `line endings made ${name} (${why})`,
    });
  }
  return target;
}

function fixFinalNewline(eols: string[], eol: Eol, options: TidyOptions, fixes: TidyFix[]): void {
  const n = eols.length;
  if (n === 0) return;
  const last = eols[n - 1]!;
  if (options.insertFinalNewline !== false && last === "") {
    eols[n - 1] = eol;
    fixes.push({ kind: "final_newline", lines: [n], detail: "final line break added" });
  } else if (options.insertFinalNewline === false && last !== "") {
    eols[n - 1] = "";
    fixes.push({
      kind: "final_newline",
      lines: [n],
      detail: "final line break removed (as .editorconfig asks)",
    });
  }
}
