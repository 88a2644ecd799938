/**
 * Moving captured code to another indentation. A multi-line capture keeps
 * its layout relative to the line it started on: each later line trades the
 * indentation of that line for the indentation of the line it lands on (as
 * ast-grep's fixer does). In Python the indentation is the meaning, so a body
 * pasted with only its first line moved would leave the block.
 */
import type { SgNode } from "@ast-grep/napi";

/** The leading whitespace of the line `index` is on (up to `index`). */
export function indentAt(source: string, index: number): string {
  const lineStart = source.lastIndexOf("\n", index - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart, index))![0];
}

/**
 * `line` moved from indentation `from` to `to`, or undefined when it is
 * indented less than `from` (or with other characters) and moving it left
 * would cut into its text. Blank lines stay as they are.
 */
export function shiftLine(line: string, from: string, to: string): string | undefined {
  if (!/\S/.test(line)) return line;
  if (line.startsWith(from)) return to + line.slice(from.length);
  if (to.startsWith(from)) return to.slice(from.length) + line;
  return undefined;
}

/**
 * Spans of `node` that hold a line break inside one token — a string's
 * content, an escaped newline, text a grammar keeps out of its children:
 * the line after such a break is part of a value and keeps its bytes.
 * Comments are layout only, and move with the code.
 */
export function tokenSpans(node: SgNode, source: string, into: [number, number][] = []) {
  const { start, end } = node.range();
  if (start.line === end.line) return into;
  const children = node.children();
  if (children.length === 0) {
    if (!(node.kind() as string).includes("comment")) into.push([start.index, end.index]);
    return into;
  }
  const gap = (from: number, to: number) => {
    const text = source.slice(from, to);
    if (text.includes("\n") && /\S/.test(text)) into.push([from, to]);
  };
  let at = start.index;
  for (const child of children) {
    const range = child.range();
    gap(at, range.start.index);
    tokenSpans(child, source, into);
    at = range.end.index;
  }
  gap(at, end.index);
  return into;
}

export interface Moved {
  text: string;
  /** Lines that could not move left as far as the rest, kept as they were. */
  kept: string[];
}

/**
 * The source of `nodes` (one capture, first to last) for a line indented by
 * `to`: its later lines shift by the difference between the indentation of
 * the line the capture starts on and `to`, except inside a token.
 */
export function moveCapture(source: string, nodes: readonly SgNode[], to: string): Moved {
  if (nodes.length === 1) {
    // A one-line capture moves as it is: its text alone is a cheaper call than its range.
    const text = nodes[0]!.text();
    if (!text.includes("\n")) return { text, kept: [] };
  }
  const first = nodes[0]!.range();
  const start = first.start.index;
  const end = nodes.length === 1 ? first.end.index : nodes.at(-1)!.range().end.index;
  const text = source.slice(start, end);
  const from = indentAt(source, start);
  if (!text.includes("\n") || from === to) return { text, kept: [] };
  const tokens = nodes.flatMap((node) => tokenSpans(node, source));
  const inToken = (at: number) => tokens.some(([s, e]) => s <= at && at < e);
  const kept: string[] = [];
  const lines = text.split("\n");
  let at = start + lines[0]!.length; // the line break before lines[i]
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!inToken(at)) {
      const moved = shiftLine(line, from, to);
      if (moved === undefined) kept.push(line);
      else lines[i] = moved;
    }
    at += line.length + 1;
  }
  return { text: lines.join("\n"), kept };
}
