/**
 * Parsing a YAML file for editing, and the facts about its nodes the editor
 * needs: ranges, keys, the file's own spelling of a value, and the checks
 * that keep anchors and aliases intact.
 */
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseDocument,
  type Scalar,
  visit,
  type YAMLSeq,
} from "yaml";
import { useTool } from "../errors.js";
import type { Kind } from "./editor.js";
import { DocError, FIX_FIRST, lineColumn } from "./errors.js";
import type { Json } from "./values.js";

export type YNode = Node | null;

export const MERGE = Symbol.for("splice.merge");

export function keyOf(pair: Pair): string | typeof MERGE | undefined {
  if (!isScalar(pair.key)) return undefined;
  const value = (pair.key as Scalar).value;
  return typeof value === "symbol" ? MERGE : String(value);
}

export function rangeOf(node: YNode): [number, number, number] | undefined {
  return (node as { range?: [number, number, number] } | null)?.range ?? undefined;
}

export function kindOf(node: YNode): Kind {
  return isMap(node) ? "object" : isSeq(node) ? "array" : "scalar";
}

/** The file's spelling of a value: aliases stay `{"*": name}` so read-back checks see them. */
export function raw(node: YNode): unknown {
  if (node === null || node === undefined) return null;
  if (isAlias(node)) return { "*": node.source };
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      const key = keyOf(pair);
      out[key === MERGE ? "<<" : (key ?? JSON.stringify(raw(pair.key as YNode)))] = raw(
        pair.value as YNode,
      );
    }
    return out;
  }
  if (isSeq(node)) return node.items.map((item) => raw(item as YNode));
  return (node as Scalar).value;
}

/** Offsets of each item's `-` in a block sequence, from the concrete syntax tree. */
export function dashOffsets(seq: YAMLSeq): number[] {
  const token = (seq as { srcToken?: { items?: { start: { type: string; offset: number }[] }[] } })
    .srcToken;
  return (token?.items ?? []).flatMap((item) =>
    item.start.filter((t) => t.type === "seq-item-ind").map((t) => t.offset),
  );
}

/** The first key that repeats within one map: its offset and text. */
function duplicateKey(doc: Document.Parsed): { offset: number; key: string } | undefined {
  let found: { offset: number; key: string } | undefined;
  visit(doc, {
    Map(_, map) {
      const keys = new Set<string>();
      for (const pair of map.items) {
        const key = keyOf(pair);
        if (key === undefined || key === MERGE) continue;
        if (keys.has(key)) {
          found = { offset: rangeOf(pair.key as YNode)?.[0] ?? 0, key };
          return visit.BREAK;
        }
        keys.add(key);
      }
    },
  });
  return found;
}

/** The document, or a DocError saying where the text does not parse. */
export function parseYaml(src: string, label: string): Document.Parsed {
  // The package's own unique-key check is quadratic in a map's size (minutes for a
  // 5 MB file); `duplicateKey` does the same check in one pass.
  const doc = parseDocument(src, { merge: true, keepSourceTokens: true, uniqueKeys: false });
  const error = doc.errors[0];
  const duplicate = error ? undefined : duplicateKey(doc);
  if (duplicate) {
    const { line, column } = lineColumn(src, duplicate.offset);
    throw new DocError(
      "invalid_input",
      `${label} does not parse as YAML at line ${line}, column ${column}: the key ${JSON.stringify(duplicate.key)} appears twice in one mapping.`,
      { line, column },
      FIX_FIRST,
    );
  }
  if (error) {
    const [line, col] = [error.linePos?.[0].line, error.linePos?.[0].col];
    const place = line === undefined ? "" : ` at line ${line}, column ${col}`;
    if (error.code === "MULTIPLE_DOCS") {
      throw new DocError(
        "invalid_input",
        `${label} holds several YAML documents (separated by ---); doc edits files with one document.`,
        { line, column: col },
        useTool("edit", (edit) => `Use ${edit} for this file. Nothing was written.`),
      );
    }
    const reason = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw new DocError(
      "invalid_input",
      `${label} does not parse as YAML${place}: ${reason}.`,
      { line, column: col },
      FIX_FIRST,
    );
  }
  return doc;
}

/**
 * Aliases must still resolve and merge keys still merge maps — checked in
 * one pass (the package's own resolution is quadratic in the alias count).
 */
export function checkAliases(doc: Document.Parsed): void {
  const anchors = new Map<string, YNode>();
  const missing = (name: string) => new Error(`the alias *${name} has no anchor before it`);
  visit(doc, {
    Node(_, node) {
      if (isAlias(node)) {
        if (!anchors.has(node.source)) throw missing(node.source);
      } else if (node.anchor) anchors.set(node.anchor, node);
    },
    Pair(_, pair) {
      if (keyOf(pair as Pair) !== MERGE) return;
      const value = pair.value as YNode;
      for (const source of isSeq(value) ? (value.items as YNode[]) : [value]) {
        const target = isAlias(source) ? anchors.get(source.source) : source;
        if (isAlias(source) && !anchors.has(source.source)) throw missing(source.source);
        if (!isMap(target)) throw new Error("a << merge key must merge maps");
      }
    },
  });
}

/**
 * Refuses to drop a node that defines an anchor some alias outside it
 * still uses (the document would no longer load). A replaced value keeps
 * its own anchor, so only anchors inside it count then.
 */
export function keepAnchors(
  doc: Document.Parsed,
  src: string,
  node: YNode,
  what: string,
  keepsOwn = true,
): void {
  const at = rangeOf(node);
  if (!node || !at) return;
  const anchors = new Set<string>();
  visit(node, {
    Node(_, n) {
      if (n.anchor && !(keepsOwn && n === node)) anchors.add(n.anchor);
    },
  });
  if (anchors.size === 0) return;
  const uses: number[] = [];
  visit(doc, {
    Alias: (_, alias) => {
      const [s] = rangeOf(alias) ?? [at[0]];
      if (anchors.has(alias.source) && (s < at[0] || s >= at[1]))
        uses.push(lineColumn(src, s).line);
    },
  });
  if (uses.length === 0) return;
  const names = [...anchors].map((a) => `&${a}`).join(", ");
  throw new DocError(
    "invalid_input",
    `${what} defines the anchor ${names}, which ${uses.length === 1 ? "an alias uses" : `${uses.length} aliases use`} (line ${uses.join(", ")}). Change or remove those aliases first, or change the values inside the anchored node instead. Nothing was written.`,
    { reason: "anchor_in_use", lines: uses },
  );
}

/** A map that `<<` merge keys pull in must stay a map. */
export function keepMergeSource(
  doc: Document.Parsed,
  text: string,
  old: YNode,
  value: Json,
  what: string,
): void {
  const anchor = old && !isAlias(old) ? old.anchor : undefined;
  if (!anchor || (value !== null && typeof value === "object" && !Array.isArray(value))) return;
  const uses: number[] = [];
  visit(doc, {
    Pair: (_, pair) => {
      if (keyOf(pair as Pair) !== MERGE) return;
      const v = pair.value as YNode;
      const sources = isSeq(v) ? (v.items as YNode[]) : [v];
      for (const source of sources) {
        if (isAlias(source) && source.source === anchor)
          uses.push(lineColumn(text, rangeOf(source)![0]).line);
      }
    },
  });
  if (uses.length === 0) return;
  throw new DocError(
    "invalid_input",
    `${what} is the anchor &${anchor}, which merge keys pull into other maps (\`<<: *${anchor}\`, line ${uses.join(", ")}); it must stay a map. Change the keys inside it instead. Nothing was written.`,
    { reason: "anchor_in_use", lines: uses },
  );
}
