/** Node ranges as the 1-based inclusive line spans the hashline format speaks in. */
import type { Range, SgNode } from "@ast-grep/napi";

/** The last line holding part of the node: a range that ends at column 0 ends on the line before. */
export function lastLine(range: Range): number {
  const { start, end } = range;
  return end.column === 0 && end.line > start.line ? end.line : end.line + 1;
}

export function lineSpan(node: SgNode): [number, number] {
  const range = node.range();
  return [range.start.line + 1, lastLine(range)];
}

const BODY_KIND = /body|block|declaration_list/;

/**
 * The last line of a node's header (its signature): the line before its body
 * when the body opens on a line of its own, else the line the body opens on.
 * `start`/`end` clamp the answer (a definition's span with its wrappers).
 */
export function bodyStart(
  node: SgNode,
  lines: readonly string[],
  start: number,
  end: number,
): number {
  const body =
    node.field("body") ??
    node.field("consequence") ??
    node.field("value") ??
    node.namedChildren().find((c) => BODY_KIND.test(c.kind() as string));
  if (!body) return start;
  const at = body.range().start;
  const text = lines[at.line] ?? "";
  const opensLine = text.slice(0, at.column).trim() === "";
  return Math.min(end, Math.max(start, at.line + 1 - (opensLine ? 1 : 0)));
}
