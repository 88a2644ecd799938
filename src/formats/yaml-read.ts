/**
 * Reading a YAML document for editing: paths looked up through aliases and
 * `<<` merge keys (noting when a value is shared through them), and the
 * file's layout facts — indentation, list style, where a value ends.
 */
import {
  type Document,
  isAlias,
  isMap,
  isSeq,
  type Node,
  type Pair,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { useTool } from "../errors.js";
import type { Missing, Probe } from "./editor.js";
import { DocError, FIX_FIRST, lineColumn } from "./errors.js";
import { asIndex, type Segment } from "./selector.js";
import { applyEdits, column, startsLine, type TextEdit } from "./text-edits.js";
import {
  checkAliases,
  dashOffsets,
  keyOf,
  kindOf,
  MERGE,
  parseYaml,
  rangeOf,
  raw,
  type YNode,
} from "./yaml-doc.js";
import type { YamlStyle } from "./yaml-render.js";

export type Hit = { value: YNode; pair?: Pair; index?: number; inherited?: string };

export class YamlReader {
  protected src: string;
  private doc!: Document.Parsed;
  private parsed = false;

  constructor(
    text: string,
    protected readonly label: string,
  ) {
    this.src = text;
    try {
      checkAliases(this.document());
    } catch (error) {
      if (error instanceof DocError) throw error;
      throw new DocError(
        "invalid_input",
        `${label} does not load as YAML: ${(error as Error).message}.`,
        {},
        FIX_FIRST,
      );
    }
  }

  text(): string {
    return this.src;
  }

  protected document(): Document.Parsed {
    if (this.parsed) return this.doc;
    this.doc = parseYaml(this.src, this.label);
    this.parsed = true;
    return this.doc;
  }

  /** Aliases must still resolve and merge keys still merge maps. */
  validate(): void {
    checkAliases(this.document());
  }

  protected changed(edits: TextEdit[]): void {
    this.src = applyEdits(this.src, edits);
    this.parsed = false;
  }

  protected line(offset: number): number {
    return lineColumn(this.src, offset).line;
  }

  /** An alias's target, with a note that writes below it are shared. */
  protected follow(node: YNode, shared: string | undefined): { node: YNode; shared?: string } {
    if (!isAlias(node)) return { node, shared };
    const target = node.resolve(this.document()) ?? null;
    const at = rangeOf(target);
    const where = at ? ` (line ${this.line(at[0])})` : "";
    return { node: target, shared: shared ?? `the anchor &${node.source}${where}` };
  }

  /** The maps a `<<` value merges in, earliest (strongest) first. */
  private mergeSources(value: YNode): { map: YAMLMap; name: string }[] {
    const sources = isSeq(value) ? (value.items as YNode[]) : [value];
    return sources.flatMap((s) => {
      const target = this.follow(s, undefined).node;
      return isMap(target)
        ? [{ map: target, name: isAlias(s) ? `*${s.source}` : "a mapping" }]
        : [];
    });
  }

  protected lookup(node: YNode, segment: Segment): Hit | undefined {
    if (isSeq(node)) {
      const index = asIndex(segment);
      if (index === undefined || index < 0 || index >= node.items.length) return undefined;
      return { value: node.items[index] as YNode, index };
    }
    if (!isMap(node)) return undefined;
    const key = String(segment);
    for (const pair of node.items) {
      if (keyOf(pair) === key) return { value: pair.value as YNode, pair };
    }
    for (const pair of node.items) {
      if (keyOf(pair) !== MERGE) continue;
      for (const { map, name } of this.mergeSources(pair.value as YNode)) {
        const hit = this.lookup(map, segment);
        if (hit) {
          const at = rangeOf(pair.key as YNode);
          const line = at ? ` (line ${this.line(at[0])})` : "";
          return { value: hit.value, inherited: `the merge key "<<: ${name}"${line}` };
        }
      }
    }
    return undefined;
  }

  private keysOf(node: YNode): string[] {
    if (!isMap(node)) return [];
    const keys: string[] = [];
    for (const pair of node.items) {
      const key = keyOf(pair);
      if (key === MERGE) {
        for (const { map } of this.mergeSources(pair.value as YNode))
          keys.push(...this.keysOf(map));
      } else if (key !== undefined) keys.push(key);
    }
    return [...new Set(keys)];
  }

  private missing(node: YNode, depth: number, shared: string | undefined): Missing {
    const kind = kindOf(node);
    const scalar = kind === "scalar" ? ((node as Scalar | null)?.value ?? null) : undefined;
    return {
      found: false,
      depth,
      kind,
      size: isSeq(node) || isMap(node) ? node.items.length : 0,
      isNull: scalar === null,
      keys: this.keysOf(node),
      scalar,
      ...(shared ? { shared } : {}),
    };
  }

  probe(path: readonly Segment[]): Probe {
    const doc = this.document();
    let { node, shared } = this.follow(doc.contents as YNode, undefined);
    let inherited: string | undefined;
    let slot: YNode = node;
    let containerShared: string | undefined;
    for (let i = 0; i < path.length; i++) {
      const hit = this.lookup(node, path[i]!);
      if (!hit) return this.missing(node, i, shared);
      containerShared = shared;
      inherited = hit.inherited;
      slot = hit.value;
      ({ node, shared } = this.follow(hit.value, shared ?? hit.inherited));
    }
    const target = node;
    const data = () => (slot === null ? null : (slot as Node).toJS(doc, { maxAliasCount: -1 }));
    return {
      found: true,
      kind: kindOf(target),
      size: isSeq(target) || isMap(target) ? target.items.length : 0,
      data,
      raw: () => raw(slot),
      ...(inherited ? { inherited } : {}),
      ...(containerShared ? { shared: containerShared } : {}),
    };
  }

  /** The container at `path` (aliases followed) — the actions made sure it exists. */
  protected container(path: readonly Segment[]): YAMLMap | YAMLSeq {
    let node = this.follow(this.document().contents as YNode, undefined).node;
    for (const segment of path)
      node = this.follow(this.lookup(node, segment)!.value, undefined).node;
    if (!isMap(node) && !isSeq(node)) throw new Error(`no container at ${path.join(".")}`);
    return node;
  }

  /** Indent width and list style, from the first nested map and list in the file. */
  protected style(): YamlStyle {
    const style: Partial<YamlStyle> = {};
    let seqOffset: number | undefined;
    const queue: YNode[] = [this.document().contents as YNode];
    for (let seen = 0; queue.length > 0 && seen < 2000; seen++) {
      const node = queue.shift()!;
      if (isSeq(node)) queue.push(...(node.items as YNode[]));
      if (!isMap(node) || node.flow) continue;
      for (const pair of node.items) {
        const value = pair.value as YNode;
        const key = rangeOf(pair.key as YNode);
        const at = rangeOf(value);
        if (key && at && isMap(value) && !value.flow && style.indent === undefined) {
          const step = column(this.src, at[0]) - column(this.src, key[0]);
          if (step > 0 && startsLine(this.src, at[0])) style.indent = step;
        }
        if (key && at && isSeq(value) && !value.flow && seqOffset === undefined) {
          seqOffset = column(this.src, at[0]) - column(this.src, key[0]);
        }
        queue.push(value);
      }
      if (style.indent !== undefined && seqOffset !== undefined) break;
    }
    // The yaml package writes a list under a key `indent` deeper, or (indentSeq off) 2 less.
    const indent = style.indent ?? 2;
    return { indent, indentSeq: seqOffset === undefined || seqOffset >= indent };
  }

  protected dashOf(seq: YAMLSeq, index: number): number {
    const item = seq.items[index] as YNode;
    const start = rangeOf(item)?.[0] ?? Number.POSITIVE_INFINITY;
    const before = dashOffsets(seq).filter((d) => d < start);
    const dash = before.at(-1);
    if (dash === undefined) throw new Error("sequence item without a dash");
    return dash;
  }

  /** Where an entry's value ends, before the newline that ends its last line. */
  protected valueEnd(node: YNode, fallback: number): number {
    const end = rangeOf(node)?.[1] ?? fallback;
    return end > 0 && this.src[end - 1] === "\n" ? end - 1 : end;
  }

  /** The colon after a block map key. */
  protected colonOf(pair: Pair): number {
    const key = rangeOf(pair.key as YNode);
    let i = key ? key[1] : -1;
    while (i >= 0 && (this.src[i] === " " || this.src[i] === "\t")) i++;
    if (i < 0 || this.src[i] !== ":") {
      throw new DocError(
        "invalid_input",
        `${this.label} uses a complex key (? key) there;`,
        {},
        useTool("edit", (edit) => `change it with ${edit}. Nothing was written.`),
      );
    }
    return i;
  }
}
