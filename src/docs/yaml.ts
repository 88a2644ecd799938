/**
 * YAML editing on the `yaml` package's node ranges. The document is never
 * re-serialized: a change splices the text of one value, entry or item, so
 * comments, anchors, quoting, blank lines and indentation elsewhere keep
 * their bytes. Reads resolve aliases and `<<` merge keys; a write that would
 * go through an alias (and so change every place that uses the anchor) is
 * refused by the actions.
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
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import type { DocEditor, Kind, Missing, Probe } from "./editor.js";
import { DocError, lineColumn } from "./errors.js";
import { asIndex, formatSelector, type Segment } from "./selector.js";
import {
  applyEdits,
  column,
  lineEnd,
  lineStart,
  nextLineStart,
  standsAlone,
  startsLine,
  type TextEdit,
  tidyRemoval,
  withCommentsAbove,
} from "./text-edits.js";
import type { Json } from "./values.js";
import {
  afterDash,
  afterKey,
  blockAt,
  flowText,
  keyText,
  type RenderOptions,
  type YamlStyle,
} from "./yaml-render.js";

type YNode = Node | null;
type Hit = { value: YNode; pair?: Pair; index?: number; inherited?: string };

const MERGE = Symbol.for("splice.merge");

function keyOf(pair: Pair): string | typeof MERGE | undefined {
  if (!isScalar(pair.key)) return undefined;
  const value = (pair.key as Scalar).value;
  return typeof value === "symbol" ? MERGE : String(value);
}

function rangeOf(node: YNode): [number, number, number] | undefined {
  return (node as { range?: [number, number, number] } | null)?.range ?? undefined;
}

function kindOf(node: YNode): Kind {
  return isMap(node) ? "object" : isSeq(node) ? "array" : "scalar";
}

/** The file's spelling of a value: aliases stay `{"*": name}` so read-back checks see them. */
function raw(node: YNode): unknown {
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

export function openYaml(text: string, label: string): DocEditor {
  return new YamlEditor(text, label);
}

class YamlEditor implements DocEditor {
  private src: string;
  private doc!: Document.Parsed;
  private parsed = false;

  constructor(
    text: string,
    private readonly label: string,
  ) {
    this.src = text;
    try {
      this.validate();
    } catch (error) {
      if (error instanceof DocError) throw error;
      throw new DocError(
        "invalid_input",
        `${label} does not load as YAML: ${(error as Error).message}. Fix the file first (the edit tool can), then retry. Nothing was written.`,
      );
    }
  }

  text(): string {
    return this.src;
  }

  private document(): Document.Parsed {
    if (this.parsed) return this.doc;
    // The package's own unique-key check is quadratic in a map's size (minutes for a
    // 5 MB file); `duplicateKey` does the same check in one pass.
    const doc = parseDocument(this.src, { merge: true, keepSourceTokens: true, uniqueKeys: false });
    const error = doc.errors[0];
    const duplicate = error ? undefined : duplicateKey(doc);
    if (duplicate) {
      const { line, column } = lineColumn(this.src, duplicate.offset);
      throw new DocError(
        "invalid_input",
        `${this.label} does not parse as YAML at line ${line}, column ${column}: the key ${JSON.stringify(duplicate.key)} appears twice in one mapping. Fix the file first (the edit tool can), then retry. Nothing was written.`,
        { line, column },
      );
    }
    if (error) {
      const [line, col] = [error.linePos?.[0].line, error.linePos?.[0].col];
      const place = line === undefined ? "" : ` at line ${line}, column ${col}`;
      if (error.code === "MULTIPLE_DOCS") {
        throw new DocError(
          "invalid_input",
          `${this.label} holds several YAML documents (separated by ---); doc edits files with one document. Use the edit tool for this file. Nothing was written.`,
          { line, column: col },
        );
      }
      const reason = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
      throw new DocError(
        "invalid_input",
        `${this.label} does not parse as YAML${place}: ${reason}. Fix the file first (the edit tool can), then retry. Nothing was written.`,
        { line, column: col },
      );
    }
    this.doc = doc;
    this.parsed = true;
    return doc;
  }

  private changed(edits: TextEdit[]): void {
    this.src = applyEdits(this.src, edits);
    this.parsed = false;
  }

  private line(offset: number): number {
    return lineColumn(this.src, offset).line;
  }

  /** An alias's target, with a note that writes below it are shared. */
  private follow(node: YNode, shared: string | undefined): { node: YNode; shared?: string } {
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

  private lookup(node: YNode, segment: Segment): Hit | undefined {
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
  private container(path: readonly Segment[]): YAMLMap | YAMLSeq {
    let node = this.follow(this.document().contents as YNode, undefined).node;
    for (const segment of path)
      node = this.follow(this.lookup(node, segment)!.value, undefined).node;
    if (!isMap(node) && !isSeq(node)) throw new Error(`no container at ${path.join(".")}`);
    return node;
  }

  /** Indent width and list style, from the first nested map and list in the file. */
  private style(): YamlStyle {
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

  /** Offsets of each item's `-` in a block sequence. */
  private dashes(seq: YAMLSeq): number[] {
    const token = (
      seq as { srcToken?: { items?: { start: { type: string; offset: number }[] }[] } }
    ).srcToken;
    return (token?.items ?? []).flatMap((item) =>
      item.start.filter((t) => t.type === "seq-item-ind").map((t) => t.offset),
    );
  }

  private dashOf(seq: YAMLSeq, index: number): number {
    const item = seq.items[index] as YNode;
    const start = rangeOf(item)?.[0] ?? Number.POSITIVE_INFINITY;
    const before = this.dashes(seq).filter((d) => d < start);
    const dash = before.at(-1);
    if (dash === undefined) throw new Error("sequence item without a dash");
    return dash;
  }

  /** Where an entry's value ends, before the newline that ends its last line. */
  private valueEnd(node: YNode, fallback: number): number {
    const end = rangeOf(node)?.[1] ?? fallback;
    return end > 0 && this.src[end - 1] === "\n" ? end - 1 : end;
  }

  /** The colon after a block map key. */
  private colonOf(pair: Pair): number {
    const key = rangeOf(pair.key as YNode);
    let i = key ? key[1] : -1;
    while (i >= 0 && (this.src[i] === " " || this.src[i] === "\t")) i++;
    if (i < 0 || this.src[i] !== ":") {
      throw new DocError(
        "invalid_input",
        `${this.label} uses a complex key (? key) there; change it with the edit tool. Nothing was written.`,
      );
    }
    return i;
  }

  /** How a new value is written: a replaced string keeps its quotes; lists follow their neighbours. */
  private renderOptions(container: YAMLMap | YAMLSeq, old: YNode, value: Json): RenderOptions {
    const options: RenderOptions = {};
    if (isScalar(old) && typeof old.value === "string" && typeof value === "string") {
      if (old.type === "QUOTE_DOUBLE" || old.type === "QUOTE_SINGLE") options.stringType = old.type;
    }
    for (const item of container.items as (Pair | YNode)[]) {
      const v = (isMap(container) ? (item as Pair).value : item) as YNode;
      if (isSeq(v) && v.flow && v.items.length > 0 && v.items.every((x) => isScalar(x))) {
        options.flowLists = { padding: this.padding(v) };
        break;
      }
    }
    return options;
  }

  /** A flow collection being replaced by a collection stays a flow collection. */
  private keepsFlow(old: YNode, value: Json): boolean {
    return (
      (isMap(old) || isSeq(old)) &&
      !!old.flow &&
      old.items.length > 0 &&
      value !== null &&
      typeof value === "object"
    );
  }

  private padding(node: YAMLMap | YAMLSeq): boolean {
    const at = rangeOf(node as Node);
    return at ? this.src[at[0] + 1] === " " : false;
  }

  set(path: readonly Segment[], value: Json): void {
    const doc = this.document();
    if (path.length === 0) return this.setRoot(doc.contents as YNode, value);
    const parent = this.container(path.slice(0, -1));
    const hit = this.lookup(parent, path.at(-1)!);
    const direct = hit && !hit.inherited;
    if (isMap(parent)) {
      if (direct) return this.replacePairValue(parent, hit.pair!, value);
      return this.insertPair(parent, path, String(path.at(-1)), value);
    }
    if (direct) return this.replaceItem(parent, hit.index!, value);
    return this.insertItem(parent, path, value);
  }

  private setRoot(root: YNode, value: Json): void {
    const text = blockAt(value, 0, this.style());
    const at = rangeOf(root);
    if (!at || root === null) {
      const sep = this.src === "" || this.src.endsWith("\n") ? "" : "\n";
      this.changed([{ start: this.src.length, end: this.src.length, text: `${sep}${text}\n` }]);
      return;
    }
    this.changed([{ start: at[0], end: this.valueEnd(root, at[1]), text }]);
  }

  private replacePairValue(map: YAMLMap, pair: Pair, value: Json): void {
    const old = pair.value as YNode;
    this.keepAnchors(old, `\`${keyOf(pair) as string}\``);
    this.keepMergeSource(old, value, `\`${keyOf(pair) as string}\``);
    const options = this.renderOptions(map, old, value);
    if (map.flow) {
      const at = rangeOf(old)!;
      const text = flowText(value, this.padding(map), options.stringType);
      this.changed([{ start: at[0], end: at[1], text }]);
      return;
    }
    const colon = this.colonOf(pair);
    const col = column(this.src, rangeOf(pair.key as YNode)![0]);
    const flow = this.keepsFlow(old, value);
    let text = flow
      ? ` ${flowText(value, this.padding(old as YAMLSeq), options.stringType)}`
      : afterKey(value, col, this.style(), options);
    let end = this.valueEnd(old, colon + 1);
    const anchor = old && !isAlias(old) && old.anchor ? ` &${old.anchor}` : "";
    const tail = this.src.slice(end, lineEnd(this.src, end));
    if (text.startsWith("\n") && /^\s*#/.test(tail)) {
      text = ` ${tail.trim()}${text}`;
      end += tail.length;
    }
    this.changed([{ start: colon + 1, end, text: anchor + text }]);
  }

  private replaceItem(seq: YAMLSeq, index: number, value: Json): void {
    const old = seq.items[index] as YNode;
    this.keepAnchors(old, `item [${index}]`);
    this.keepMergeSource(old, value, `item [${index}]`);
    const options = this.renderOptions(seq, old, value);
    if (seq.flow) {
      const at = rangeOf(old)!;
      const text = flowText(value, this.padding(seq), options.stringType);
      this.changed([{ start: at[0], end: at[1], text }]);
      return;
    }
    const dash = this.dashOf(seq, index);
    const col = column(this.src, dash);
    const style = this.style();
    const anchor = old && !isAlias(old) && old.anchor ? old.anchor : undefined;
    const nested = value !== null && typeof value === "object" && Object.keys(value).length > 0;
    let text: string;
    if (this.keepsFlow(old, value)) {
      text = ` ${flowText(value, this.padding(old as YAMLSeq), options.stringType)}`;
    } else if (anchor && nested) {
      text = `\n${blockAt(value, col + 2, style, options)}`;
    } else {
      text = afterDash(value, col, style, options);
    }
    const prefix = anchor ? ` &${anchor}` : "";
    this.changed([{ start: dash + 1, end: this.valueEnd(old, dash + 1), text: prefix + text }]);
  }

  private insertPair(map: YAMLMap, path: readonly Segment[], key: string, value: Json): void {
    if (map.items.length === 0) return this.set(path.slice(0, -1), { [key]: value });
    const last = map.items.at(-1)!;
    if (map.flow) {
      const end = (rangeOf(last.value as YNode) ?? rangeOf(last.key as YNode))![1];
      const text = `, ${keyText(key)}: ${flowText(value, this.padding(map))}`;
      this.changed([{ start: end, end, text }]);
      return;
    }
    const keyAt = rangeOf(last.key as YNode)![0];
    const end = rangeOf(last.value as YNode)?.[1] ?? this.colonOf(last) + 1;
    const col = column(this.src, keyAt);
    const options = this.renderOptions(map, null, value);
    const entry = `${" ".repeat(col)}${keyText(key)}:${afterKey(value, col, this.style(), options)}\n`;
    this.insertLine(nextLineStart(this.src, end), entry);
  }

  private insertItem(seq: YAMLSeq, path: readonly Segment[], value: Json): void {
    if (seq.items.length === 0) return this.set(path.slice(0, -1), [value]);
    const lastIndex = seq.items.length - 1;
    const last = seq.items[lastIndex] as YNode;
    if (seq.flow) {
      const end = rangeOf(last)![1];
      this.changed([{ start: end, end, text: `, ${flowText(value, this.padding(seq))}` }]);
      return;
    }
    const dash = this.dashOf(seq, lastIndex);
    const end = rangeOf(last)?.[1] ?? dash + 1;
    const col = column(this.src, dash);
    const options = this.renderOptions(seq, null, value);
    const entry = `${" ".repeat(col)}-${afterDash(value, col, this.style(), options)}\n`;
    this.insertLine(nextLineStart(this.src, end), entry);
  }

  /** Inserts whole lines at a line start (at the end of a file without a final newline, adds one first). */
  private insertLine(at: number, lines: string): void {
    const sep = at === this.src.length && at > 0 && !this.src.endsWith("\n") ? "\n" : "";
    this.changed([{ start: at, end: at, text: sep + lines }]);
  }

  remove(path: readonly Segment[]): void {
    const parentPath = path.slice(0, -1);
    const parent = this.container(parentPath);
    const hit = this.lookup(parent, path.at(-1)!)!;
    this.keepAnchors(hit.value, `\`${formatSelector(path)}\``, false);
    if (parent.items.length === 1) return this.set(parentPath, isMap(parent) ? {} : []);
    if (parent.flow) return this.removeFlow(parent, hit);
    if (isMap(parent)) {
      const index = parent.items.indexOf(hit.pair!);
      const keyAt = rangeOf(hit.pair!.key as YNode)![0];
      const end = rangeOf(hit.value)?.[1] ?? this.colonOf(hit.pair!) + 1;
      if (!startsLine(this.src, keyAt)) {
        // The first key of a list item (`- name: x`): the next key moves up behind the dash.
        const next = rangeOf(parent.items[index + 1]!.key as YNode)![0];
        this.changed([{ start: keyAt, end: next, text: "" }]);
        return;
      }
      const prev = parent.items[index - 1];
      const prevEnd = prev && (rangeOf(prev.value as YNode) ?? rangeOf(prev.key as YNode))![1];
      const root = parentPath.length === 0 && index === 0;
      this.removeLines(keyAt, end, prevEnd, root, index === 0);
      return;
    }
    const index = hit.index!;
    const dash = this.dashOf(parent, index);
    const end = rangeOf(hit.value)?.[1] ?? dash + 1;
    if (!startsLine(this.src, dash)) {
      this.changed([{ start: dash, end: this.dashOf(parent, index + 1), text: "" }]);
      return;
    }
    const prevEnd =
      index > 0 ? (rangeOf(parent.items[index - 1] as YNode)?.[1] ?? dash) : undefined;
    this.removeLines(dash, end, prevEnd, false, index === 0);
  }

  /**
   * Removes the lines from the one holding `start` through the one holding
   * `end`. Comment lines directly above at the same column go too when the
   * entry stands alone (a blank line or the block's end follows); above a
   * run of entries they head the group and stay — as does a file's leading
   * comment.
   */
  private removeLines(
    start: number,
    end: number,
    prevEnd: number | undefined,
    root: boolean,
    first: boolean,
  ): void {
    const src = this.src;
    const col = column(src, start);
    const endsBlock = (line: string) => line.length - line.trimStart().length < col;
    const isComment = (line: string) => /^\s*#/.test(line) && line.indexOf("#") === col;
    let from = lineStart(src, start);
    const to = nextLineStart(src, end);
    if (!root && standsAlone(src, to, endsBlock)) {
      from = withCommentsAbove(
        src,
        from,
        prevEnd === undefined ? 0 : nextLineStart(src, prevEnd),
        isComment,
      );
    }
    const above = from > 0 ? src.slice(lineStart(src, from - 1), from - 1) : "";
    const [a, b] = tidyRemoval(src, from, to, endsBlock, first && !/^\s*#/.test(above));
    this.changed([{ start: a, end: b, text: "" }]);
  }

  /**
   * Refuses to drop a node that defines an anchor some alias outside it
   * still uses (the document would no longer load). A replaced value keeps
   * its own anchor, so only anchors inside it count then.
   */
  private keepAnchors(node: YNode, what: string, keepsOwn = true): void {
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
    visit(this.document(), {
      Alias: (_, alias) => {
        const [s] = rangeOf(alias) ?? [at[0]];
        if (anchors.has(alias.source) && (s < at[0] || s >= at[1])) uses.push(this.line(s));
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
  private keepMergeSource(old: YNode, value: Json, what: string): void {
    const anchor = old && !isAlias(old) ? old.anchor : undefined;
    if (!anchor || (value !== null && typeof value === "object" && !Array.isArray(value))) return;
    const uses: number[] = [];
    visit(this.document(), {
      Pair: (_, pair) => {
        if (keyOf(pair as Pair) !== MERGE) return;
        const v = pair.value as YNode;
        const sources = isSeq(v) ? (v.items as YNode[]) : [v];
        for (const src of sources) {
          if (isAlias(src) && src.source === anchor) uses.push(this.line(rangeOf(src)![0]));
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

  /**
   * Aliases must still resolve and merge keys still merge maps — checked in
   * one pass (the package's own resolution is quadratic in the alias count).
   */
  validate(): void {
    const anchors = new Map<string, YNode>();
    const missing = (name: string) => new Error(`the alias *${name} has no anchor before it`);
    visit(this.document(), {
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

  private removeFlow(parent: YAMLMap | YAMLSeq, hit: Hit): void {
    const items = parent.items as (Pair | YNode)[];
    const index = isMap(parent) ? parent.items.indexOf(hit.pair!) : hit.index!;
    const endOf = (i: number) => {
      const item = items[i]!;
      return isMap(parent)
        ? (rangeOf((item as Pair).value as YNode) ?? rangeOf((item as Pair).key as YNode))![1]
        : rangeOf(item as YNode)![1];
    };
    if (index > 0) {
      this.changed([{ start: endOf(index - 1), end: endOf(index), text: "" }]);
      return;
    }
    let start = rangeOf(parent as Node)![0] + 1;
    while (/\s/.test(this.src[start]!)) start++;
    let end = endOf(0);
    while (end < this.src.length && this.src[end] !== ",") end++;
    end++;
    while (this.src[end] === " " || this.src[end] === "\n") end++;
    this.changed([{ start, end, text: "" }]);
  }
}
