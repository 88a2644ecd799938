/** New documents from lines, in the style of the file they replace or join. */
import { type Document, encodingOf } from "./document.js";

/**
 * A document of `lines` in the style of `like` (BOM, dominant line ending),
 * LF without one; the last line ends with a newline when `finalNewline`.
 */
export function documentOf(lines: string[], finalNewline: boolean, like?: Document): Document {
  const eol = like?.eol ?? "\n";
  const eols: string[] = lines.map(() => eol);
  if (lines.length > 0 && !finalNewline) eols[lines.length - 1] = "";
  return { bom: like?.bom ?? false, lines, eols, eol, ...encodingOf(like) };
}

/**
 * New lines for `before`, where `origin[i]` is the line of `before` that line
 * i is (or -1 for a new line): kept lines keep their own terminators, so a
 * mixed file stays mixed; new lines get the dominant one.
 */
export function documentFrom(
  before: Document,
  lines: string[],
  origin: readonly number[],
  finalNewline: boolean,
): Document {
  const eols = lines.map((_, i) => {
    const o = origin[i] ?? -1;
    return (o >= 0 ? before.eols[o] : undefined) || before.eol;
  });
  if (lines.length > 0 && !finalNewline) eols[lines.length - 1] = "";
  return { bom: before.bom, lines, eols, eol: before.eol, ...encodingOf(before) };
}
