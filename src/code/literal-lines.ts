/**
 * Lines whose whitespace belongs to a value, not to the layout: a line that
 * starts inside a multi-line string (its indentation is part of the string)
 * or ends inside one (its trailing spaces are). Tidying must leave those
 * bytes alone, or the program's strings change.
 */
import { type Document, normalizedText } from "../text/document.js";
import { languageOf, parseCode } from "./languages.js";
import { tokenSpans } from "./reindent.js";
import { SYNTAX_CHECK_MAX_CHARS } from "./syntax-check.js";

export interface LiteralLines {
  /** 0-based lines that start inside a multi-line token. */
  starts: Set<number>;
  /** 0-based lines whose line break is inside a multi-line token. */
  ends: Set<number>;
}

/** Undefined when the file is in no language splice parses, or too large to parse here. */
export function literalLines(path: string, doc: Document): LiteralLines | undefined {
  const language = languageOf(path);
  const text = normalizedText(doc);
  if (!language || text.length > SYNTAX_CHECK_MAX_CHARS) return undefined;
  const spans = tokenSpans(parseCode(language, text).root(), text);
  const out: LiteralLines = { starts: new Set(), ends: new Set() };
  if (spans.length === 0) return out;
  const inside = (at: number, strict: boolean) =>
    spans.some(([from, to]) => (strict ? from < at : from <= at) && at < to);
  let start = 0;
  doc.lines.forEach((line, i) => {
    if (inside(start, true)) out.starts.add(i);
    if (inside(start + line.length, false)) out.ends.add(i);
    start += line.length + 1;
  });
  return out;
}
