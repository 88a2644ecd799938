/**
 * The scalar values of a config file, each with its path and the lines its
 * text spans, read by the format's own parser (jsonc-parser's tree, the
 * `yaml` package's nodes, toml-patch's syntax tree) rather than by splice's
 * editors, so the corpus test can say which lines a change may touch.
 */
import { TomlDocument, parse as tomlParse } from "@decimalturn/toml-patch";
import {
  type Node as JsonNode,
  parse as jsoncParse,
  type ParseError,
  parseTree,
} from "jsonc-parser";
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { DocFormat } from "../../src/formats/formats.js";
import type { Segment } from "../../src/formats/selector.js";

export type Scalar = string | number | boolean;

export interface Leaf {
  path: Segment[];
  value: Scalar;
  /** 1-based first and last line of the value's own text. */
  lines: [number, number];
}

/** 1-based line of each offset in `text`. */
function lineOf(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

function jsonLeaves(text: string): Leaf[] {
  const line = lineOf(text);
  const out: Leaf[] = [];
  const visit = (node: JsonNode | undefined, path: Segment[]) => {
    if (!node) return;
    if (node.type === "object") {
      for (const prop of node.children ?? []) {
        const [key, value] = prop.children ?? [];
        if (key) visit(value, [...path, key.value as string]);
      }
    } else if (node.type === "array") {
      for (const [i, item] of (node.children ?? []).entries()) visit(item, [...path, i]);
    } else if (node.type !== "null") {
      const end = node.offset + Math.max(node.length - 1, 0);
      out.push({ path, value: node.value as Scalar, lines: [line(node.offset), line(end)] });
    }
  };
  visit(parseTree(text, [], { allowTrailingComma: true, disallowComments: false }), []);
  return out;
}

function yamlLeaves(text: string): Leaf[] {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  const out: Leaf[] = [];
  const line = (offset: number) => counter.linePos(offset).line;
  const visit = (node: unknown, path: Segment[]) => {
    if (isAlias(node)) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key) || pair.key.value === "<<") continue;
        visit(pair.value, [...path, String(pair.key.value)]);
      }
    } else if (isSeq(node)) {
      for (const [i, item] of node.items.entries()) visit(item, [...path, i]);
    } else if (isScalar(node) && node.value !== null && node.range) {
      const value = node.value;
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
        return;
      const [start, end] = node.range;
      out.push({ path, value, lines: [line(start), line(Math.max(end - 1, start))] });
    }
  };
  visit(doc.contents, []);
  return out;
}

interface TomlNode {
  type: string;
  loc: { start: { line: number }; end: { line: number } };
  [field: string]: unknown;
}

function tomlLeaves(text: string): Leaf[] {
  const out: Leaf[] = [];
  const arrays = new Map<string, number>();
  const value = (node: TomlNode, path: Segment[]) => {
    if (node.type === "InlineArray") {
      for (const [i, item] of (node.items as TomlNode[]).entries()) {
        value(item.item as TomlNode, [...path, i]);
      }
    } else if (node.type === "InlineTable") {
      for (const item of node.items as TomlNode[]) keyValue(item.item as TomlNode, path);
    } else if (node.type !== "DateTime" && node.type !== "Comment") {
      const lines: [number, number] = [node.loc.start.line, node.loc.end.line];
      out.push({ path, value: node.value as Scalar, lines });
    }
  };
  const keyValue = (node: TomlNode, base: Segment[]) => {
    if (node.type !== "KeyValue") return;
    const key = (node.key as { value: string[] }).value;
    value(node.value as TomlNode, [...base, ...key]);
  };
  for (const block of new TomlDocument(text).cst as unknown as TomlNode[]) {
    if (block.type === "KeyValue") keyValue(block, []);
    else if (block.type === "Table" || block.type === "TableArray") {
      const key = ((block.key as TomlNode).item as { value: string[] }).value;
      let base: Segment[] = key;
      if (block.type === "TableArray") {
        const name = JSON.stringify(key);
        const index = arrays.get(name) ?? 0;
        arrays.set(name, index + 1);
        base = [...key, index];
      }
      for (const item of block.items as TomlNode[]) keyValue(item, base);
    }
  }
  return out;
}

/** Every scalar value (no nulls, no TOML dates) of a config text, in document order. */
export function leavesOf(format: DocFormat, text: string): Leaf[] {
  if (format === "toml") return tomlLeaves(text);
  if (format === "yaml") return yamlLeaves(text);
  return jsonLeaves(text);
}

/** The text's data, with dates as their ISO text, for comparing two versions. */
export function dataOf(format: DocFormat, text: string): unknown {
  const data =
    format === "toml"
      ? tomlParse(text)
      : format === "yaml"
        ? parseDocument(text).toJS()
        : format === "jsonc"
          ? jsoncParse(text, [], { allowTrailingComma: true })
          : JSON.parse(text);
  return JSON.parse(JSON.stringify(data));
}

/** A copy of `data` with the value at `path` replaced. */
export function withValue(data: unknown, path: readonly Segment[], value: unknown): unknown {
  const copy = structuredClone(data) as Record<string | number, unknown>;
  let at = copy;
  for (const segment of path.slice(0, -1)) at = at[segment] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
  return copy;
}

/** The syntax errors a parser finds in the text, or [] (the text "still parses"). */
export function parseErrors(format: DocFormat, text: string): string[] {
  try {
    if (format === "json") JSON.parse(text);
    else if (format === "jsonc") {
      const errors: ParseError[] = [];
      jsoncParse(text, errors, { allowTrailingComma: true });
      return errors.map((e) => `jsonc error ${e.error}`);
    } else if (format === "yaml") {
      return parseDocument(text).errors.map((e) => e.message);
    } else tomlParse(text);
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}
