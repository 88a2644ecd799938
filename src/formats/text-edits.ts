/** Offsets, lines and non-overlapping splices over a document's text. */

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** Applies edits that do not overlap; insertions at one offset land in the order given. */
export function applyEdits(text: string, edits: TextEdit[]): string {
  const order = edits.map((e, i) => ({ e, i }));
  order.sort((a, b) => b.e.start - a.e.start || b.i - a.i);
  let out = text;
  for (const { e } of order) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

export function lineStart(text: string, pos: number): number {
  return text.lastIndexOf("\n", pos - 1) + 1;
}

/** The offset of the newline ending the line at `pos`, or the text's length. */
export function lineEnd(text: string, pos: number): number {
  const nl = text.indexOf("\n", pos);
  return nl === -1 ? text.length : nl;
}

/** The offset just past the line at `pos` (after its newline); `pos` itself when it starts a line. */
export function nextLineStart(text: string, pos: number): number {
  if (pos === 0 || text[pos - 1] === "\n") return pos;
  const end = lineEnd(text, pos);
  return end === text.length ? end : end + 1;
}

export function column(text: string, pos: number): number {
  return pos - lineStart(text, pos);
}

/** Whether only spaces and tabs come before `pos` on its line. */
export function startsLine(text: string, pos: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, pos), pos));
}

/** The leading whitespace of the line at `pos`. */
export function indentAt(text: string, pos: number): string {
  const start = lineStart(text, pos);
  return /^[ \t]*/.exec(text.slice(start, lineEnd(text, start)))![0];
}

/** Prefixes every line but the first with `indent` (empty lines stay empty). */
export function indentRest(block: string, indent: string): string {
  return block.replace(/\n(?=[^\n])/g, `\n${indent}`);
}

/**
 * Extends a removal that starts at line start `from` upward over the comment
 * lines directly above it, never above `boundary`.
 */
export function withCommentsAbove(
  text: string,
  from: number,
  boundary: number,
  isComment: (line: string) => boolean,
): number {
  let start = from;
  while (start > boundary) {
    const above = lineStart(text, start - 1);
    if (above < boundary || !isComment(text.slice(above, start - 1))) break;
    start = above;
  }
  return start;
}

/**
 * Whether the line at `to` (just after a removal) is blank, the end of the
 * text, or ends the enclosing block — i.e. the removed entry stood alone.
 */
export function standsAlone(
  text: string,
  to: number,
  endsBlock: (line: string) => boolean,
): boolean {
  if (to >= text.length) return true;
  const below = text.slice(to, lineEnd(text, to));
  return below.trim() === "" || endsBlock(below);
}

/**
 * Widens a removal of whole lines [from, to) so it leaves no doubled or
 * dangling blank line: the blank line above goes too when a blank line or
 * the block's end follows, and the blank line below goes when the removal
 * opened its block.
 */
export function tidyRemoval(
  text: string,
  from: number,
  to: number,
  endsBlock: (line: string) => boolean,
  opensBlock: boolean,
): [number, number] {
  const blank = (line: string) => line.trim() === "";
  const below = to < text.length ? text.slice(to, lineEnd(text, to)) : undefined;
  const blankBelow = below !== undefined && blank(below);
  if (from > 0) {
    const above = lineStart(text, from - 1);
    if (
      blank(text.slice(above, from - 1)) &&
      (blankBelow || below === undefined || endsBlock(below))
    ) {
      return [above, to];
    }
  }
  if (opensBlock && blankBelow) return [from, Math.min(text.length, lineEnd(text, to) + 1)];
  return [from, to];
}
