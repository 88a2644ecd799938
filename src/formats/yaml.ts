/**
 * YAML editing on the `yaml` package's node ranges. The document is never
 * re-serialized: a change splices the text of one value, entry or item, so
 * comments, anchors, quoting, blank lines and indentation elsewhere keep
 * their bytes. A write that would go through an alias (and so change every
 * place that uses the anchor) is refused by the actions.
 */
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import type { DocEditor } from "./editor.js";
import { formatSelector, type Segment } from "./selector.js";
import {
  column,
  lineEnd,
  lineStart,
  nextLineStart,
  standsAlone,
  startsLine,
  tidyRemoval,
  withCommentsAbove,
} from "./text-edits.js";
import type { Json } from "./values.js";
import { keepAnchors, keepMergeSource, keyOf, rangeOf, type YNode } from "./yaml-doc.js";
import { type Hit, YamlReader } from "./yaml-read.js";
import {
  afterDash,
  afterKey,
  blockAt,
  flowText,
  keyText,
  type RenderOptions,
} from "./yaml-render.js";

export function openYaml(text: string, label: string): DocEditor {
  return new YamlEditor(text, label);
}

class YamlEditor extends YamlReader implements DocEditor {
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
    keepAnchors(this.document(), this.src, old, `\`${keyOf(pair) as string}\``);
    keepMergeSource(this.document(), this.src, old, value, `\`${keyOf(pair) as string}\``);
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
    const text = flow
      ? ` ${flowText(value, this.padding(old as YAMLSeq), options.stringType)}`
      : afterKey(value, col, this.style(), options);
    const anchor = old && !isAlias(old) && old.anchor ? ` &${old.anchor}` : "";
    const edit = this.keepComment(text, this.valueEnd(old, colon + 1));
    this.changed([{ start: colon + 1, end: edit.end, text: anchor + edit.text }]);
  }

  /**
   * A value that now spans lines, replacing one with a comment after it on
   * its line: the comment moves up to the first line (after the key, or after
   * a block scalar's `|-`), or it would end up inside the new value.
   */
  private keepComment(text: string, end: number): { text: string; end: number } {
    const tail = this.src.slice(end, lineEnd(this.src, end));
    const newline = text.indexOf("\n");
    if (newline < 0 || !/^\s*#/.test(tail)) return { text, end };
    const moved = `${text.slice(0, newline)} ${tail.trim()}${text.slice(newline)}`;
    return { text: moved, end: end + tail.length };
  }

  private replaceItem(seq: YAMLSeq, index: number, value: Json): void {
    const old = seq.items[index] as YNode;
    keepAnchors(this.document(), this.src, old, `item [${index}]`);
    keepMergeSource(this.document(), this.src, old, value, `item [${index}]`);
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
    const edit = this.keepComment(text, this.valueEnd(old, dash + 1));
    this.changed([{ start: dash + 1, end: edit.end, text: prefix + edit.text }]);
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
    keepAnchors(this.document(), this.src, hit.value, `\`${formatSelector(path)}\``, false);
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
