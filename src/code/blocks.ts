/**
 * Syntactic blocks by line: the block a DSL op names (`replace block 40`),
 * the innermost definition around a line (`read` with `line`), and the
 * nested blocks inside a span that elision may fold away.
 */
import type { SgNode } from "@ast-grep/napi";
import { type Language, parseCode } from "./languages.js";
import { bodyStart, lastLine, lineSpan } from "./span.js";
import { type Definition, extractDefinitions } from "./symbols.js";

export interface Block {
  start: number;
  end: number;
  /** Last line of the block's header (kept when its body is elided). */
  headerEnd: number;
  /** What it is, for notices: "method parse", "if statement". */
  label: string;
  children: Block[];
}

/** Pure containers: eliding one would hide a body but keep nothing useful above it. */
const CONTAINER =
  /(^|_)(block|body|list|statements|body_statement|source_file|document|stream|node|mapping|sequence|chunk)$/;

function firstColumn(line: string): number {
  const m = /\S/.exec(line);
  return m ? m.index : -1;
}

/** UTF-16 offset of each line's start, for positions the parser reports as indexes. */
export function lineOffsets(lines: readonly string[]): number[] {
  const offsets = new Array<number>(lines.length + 1);
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    offsets[i] = at;
    at += lines[i]!.length + 1;
  }
  offsets[lines.length] = at;
  return offsets;
}

/** The chain of nodes from the root down to the smallest one containing `index`. */
function chainAt(root: SgNode, index: number): SgNode[] {
  const chain: SgNode[] = [root];
  let node = root;
  for (let depth = 0; depth < 200; depth++) {
    let next: SgNode | undefined;
    for (const child of node.children()) {
      const r = child.range();
      if (r.start.index > index) break;
      if (index < r.end.index || (index === r.start.index && r.end.index === index)) {
        next = child;
        break;
      }
    }
    if (!next) break;
    chain.push(next);
    node = next;
  }
  return chain;
}

/** The innermost definition whose lines contain `line`. */
export function definitionAt(defs: readonly Definition[], line: number): Definition | undefined {
  let best: Definition | undefined;
  for (const def of defs) {
    if (def.start > line || def.end < line) continue;
    if (!best || def.end - def.start <= best.end - best.start) best = def;
  }
  return best;
}

/**
 * The block a DSL op at `line` means: the outermost node that starts at the
 * line's first character (a statement, a declaration, its export); else the
 * innermost definition containing the line; else the innermost multi-line
 * statement around it. Undefined when the line is in no block at all.
 */
export function blockAt(
  root: SgNode,
  lines: readonly string[],
  defs: readonly Definition[],
  line: number,
): BlockSpan | undefined {
  const text = lines[line - 1];
  if (text === undefined) return undefined;
  const offsets = lineOffsets(lines);
  const column = firstColumn(text);
  if (column >= 0) {
    const index = offsets[line - 1]! + column;
    for (const node of chainAt(root, index).slice(1)) {
      if (!node.isNamed() || node.range().start.index !== index) continue;
      if (!CONTAINER.test(node.kind() as string)) return spanOf(node, defs);
    }
  }
  const def = definitionAt(defs, line);
  if (def)
    return { start: def.start, end: def.end, node: def.node, label: `${def.kind} ${def.name}` };
  const index = offsets[line - 1]! + Math.max(column, 0);
  const chain = chainAt(root, index).slice(1).reverse();
  for (const node of chain) {
    const [start, end] = lineSpan(node);
    if (
      end > start &&
      node.isNamed() &&
      !CONTAINER.test(node.kind() as string) &&
      startsLine(node, lines)
    ) {
      return spanOf(node, defs);
    }
  }
  return undefined;
}

export interface BlockSpan {
  start: number;
  end: number;
  node: SgNode;
  label: string;
}

function spanOf(node: SgNode, defs: readonly Definition[]): BlockSpan {
  const [start, end] = lineSpan(node);
  const index = node.range().start.index;
  const def = defs.find((d) => d.node.range().start.index === index);
  const label = def ? `${def.kind} ${def.name}` : (node.kind() as string).replaceAll("_", " ");
  return { start, end, node, label };
}

function startsLine(node: SgNode, lines: readonly string[]): boolean {
  const { line, column } = node.range().start;
  return firstColumn(lines[line] ?? "") === column;
}

function labelOf(node: SgNode, defs: ReadonlyMap<number, Definition>): string {
  const def = defs.get(node.range().start.index);
  if (def) return `${def.kind} ${def.name}`;
  return (node.kind() as string).replaceAll("_", " ");
}

/**
 * The blocks nested in `node` that span at least `minLines` lines, as a tree.
 * Only nodes that big are descended into, so a long span costs about as
 * much as its large parts, not its every token.
 */
export function nestedBlocks(
  node: SgNode,
  lines: readonly string[],
  defs: readonly Definition[],
  minLines: number,
): Block[] {
  const byStart = new Map<number, Definition>();
  for (const def of defs) byStart.set(def.node.range().start.index, def);
  const [outerStart] = lineSpan(node);
  const visit = (parent: SgNode, parentStart: number, out: Block[]) => {
    for (const child of parent.namedChildren()) {
      const range = child.range();
      const start = range.start.line + 1;
      const end = lastLine(range);
      if (end - start + 1 < minLines) continue;
      const isBlock =
        start > parentStart &&
        (byStart.has(range.start.index) ||
          (!CONTAINER.test(child.kind() as string) && startsLine(child, lines)));
      if (!isBlock) {
        visit(child, parentStart, out);
        continue;
      }
      const block: Block = {
        start,
        end,
        headerEnd: bodyStart(child, lines, start, end),
        label: labelOf(child, byStart),
        children: [],
      };
      out.push(block);
      visit(child, start, block.children);
    }
  };
  const top: Block[] = [];
  visit(node, outerStart, top);
  return top;
}

/**
 * The resolver the line-op DSL's block forms need, for a document of
 * `language`: it parses the text on first use, once.
 */
export function blockResolver(
  language: Language,
  lines: readonly string[],
): (line: number) => [number, number] | undefined {
  let parsed: { root: SgNode; defs: Definition[] } | undefined;
  return (line) => {
    if (!parsed) {
      const root = parseCode(language, lines.join("\n")).root();
      parsed = { root, defs: extractDefinitions(root, language, lines) };
    }
    const block = blockAt(parsed.root, lines, parsed.defs, line);
    return block && [block.start, block.end];
  };
}
