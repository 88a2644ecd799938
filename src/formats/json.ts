/**
 * JSON and JSONC editing on jsonc-parser's syntax tree. A change splices the
 * text of one value, member or comma; everything else — comments, key
 * order, indentation, blank lines, trailing-comma style — keeps its bytes.
 * (jsonc-parser's own `modify` reformats the lines around an edit, so it is
 * not used.)
 */
import {
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import { probeData } from "./data-probe.js";
import type { DocEditor, Kind, Missing, Probe } from "./editor.js";
import { DocError, FIX_FIRST, lineColumn } from "./errors.js";
import { humanize, inlineJson, isCommentLine, scanGap } from "./json-syntax.js";
import { asIndex, type Segment } from "./selector.js";
import {
  applyEdits,
  indentAt,
  lineStart,
  standsAlone,
  startsLine,
  type TextEdit,
  tidyRemoval,
  withCommentsAbove,
} from "./text-edits.js";
import type { Json } from "./values.js";

export interface JsonOptions {
  /** Comments and trailing commas allowed (tsconfig.json, .vscode/*.json, *.jsonc). */
  jsonc: boolean;
  /** The file's name, for messages. */
  label: string;
}

export function openJson(text: string, options: JsonOptions): DocEditor {
  return new JsonEditor(text, options);
}

/**
 * Strict JSON read with the native parser, for checking a result: a second,
 * independent parser, and many times faster than building a syntax tree.
 */
export function readJson(text: string, label: string): DocEditor {
  let data: unknown;
  try {
    data = text.trim() === "" ? null : JSON.parse(text);
  } catch (error) {
    throw new DocError("invalid_input", `${label} is not valid JSON: ${(error as Error).message}.`);
  }
  const refuse = () => {
    throw new Error("a read-back document cannot be edited");
  };
  return { probe: (path) => probeData(data, path), set: refuse, remove: refuse, text: () => text };
}

function kindOf(node: Node | undefined): Kind {
  return node?.type === "object" ? "object" : node?.type === "array" ? "array" : "scalar";
}

/** `{ "a": 1 }`, `["x", "y"]`: for values replacing a one-line container. */
class JsonEditor implements DocEditor {
  private src: string;
  private root: Node | undefined;
  private parsed = false;
  private readonly unit: string;

  constructor(
    text: string,
    private readonly options: JsonOptions,
  ) {
    this.src = text;
    this.tree();
    const indented = /\n([ \t]+)\S/.exec(text);
    this.unit = indented ? (indented[1]!.startsWith("\t") ? "\t" : indented[1]!) : "  ";
  }

  text(): string {
    return this.src;
  }

  private tree(): Node | undefined {
    if (this.parsed) return this.root;
    const errors: ParseError[] = [];
    const { jsonc, label } = this.options;
    this.root = parseTree(this.src, errors, {
      allowTrailingComma: jsonc,
      disallowComments: !jsonc,
      allowEmptyContent: true,
    });
    const first = errors[0];
    if (first) {
      const { line, column } = lineColumn(this.src, first.offset);
      const what = humanize(printParseErrorCode(first.error));
      const strict = jsonc ? "" : " (read as strict JSON: no comments, no trailing commas)";
      throw new DocError(
        "invalid_input",
        `${label} does not parse as ${jsonc ? "JSONC" : "JSON"}${strict}: ${what} at line ${line}, column ${column}.`,
        { line, column },
        FIX_FIRST,
      );
    }
    this.parsed = true;
    return this.root;
  }

  private changed(edits: TextEdit[]): void {
    this.src = applyEdits(this.src, edits);
    this.parsed = false;
  }

  /** The property (objects) or item (arrays) for a segment, and its index. */
  private member(
    parent: Node,
    segment: Segment,
  ): { node: Node; value: Node; index: number } | undefined {
    const kids = parent.children ?? [];
    if (parent.type === "object") {
      for (let i = kids.length - 1; i >= 0; i--) {
        const prop = kids[i]!;
        const [key, value] = prop.children ?? [];
        if (key?.value === String(segment) && value) return { node: prop, value, index: i };
      }
      return undefined;
    }
    if (parent.type === "array") {
      const index = asIndex(segment);
      if (index === undefined || index < 0 || index >= kids.length) return undefined;
      return { node: kids[index]!, value: kids[index]!, index };
    }
    return undefined;
  }

  private walk(path: readonly Segment[]): Node | undefined | Missing {
    let node = this.tree();
    for (let i = 0; i < path.length; i++) {
      const next = node && this.member(node, path[i]!);
      if (!next) {
        const kind = kindOf(node);
        return {
          found: false,
          depth: i,
          kind,
          size: node?.children?.length ?? 0,
          isNull: node === undefined || node.type === "null",
          keys:
            kind === "object"
              ? (node!.children ?? []).map((p) => String(p.children?.[0]?.value))
              : [],
          scalar: node && kind === "scalar" ? getNodeValue(node) : null,
        };
      }
      node = next.value;
    }
    return node;
  }

  probe(path: readonly Segment[]): Probe {
    const node = this.walk(path);
    if (node && "found" in node) return node;
    const data = () => (node ? getNodeValue(node) : null);
    const kind = kindOf(node);
    return { found: true, kind, size: node?.children?.length ?? 0, data, raw: data };
  }

  private nodeAt(path: readonly Segment[]): Node {
    const node = this.walk(path);
    if (!node || "found" in node) throw new Error(`no container at ${path.join(".")}`);
    return node;
  }

  /**
   * A value laid out over lines at `indent`. Arrays of plain values stay on
   * one line when the container's other arrays do (`"lib": ["ES2023", "DOM"]`).
   */
  private render(value: Json, indent: string, container?: Node): string {
    const inlineArrays = container !== undefined && this.hasInlineArray(container);
    const out = (v: Json, at: string): string => {
      if (Array.isArray(v)) {
        if (v.length === 0) return "[]";
        if (inlineArrays && v.every((x) => x === null || typeof x !== "object"))
          return inlineJson(v);
        const inner = at + this.unit;
        return `[\n${v.map((x) => inner + out(x, inner)).join(",\n")}\n${at}]`;
      }
      if (v !== null && typeof v === "object") {
        const entries = Object.entries(v);
        if (entries.length === 0) return "{}";
        const inner = at + this.unit;
        const lines = entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${out(x, inner)}`);
        return `{\n${lines.join(",\n")}\n${at}}`;
      }
      return JSON.stringify(v);
    };
    return out(value, indent);
  }

  private hasInlineArray(container: Node): boolean {
    for (const kid of container.children ?? []) {
      const value = container.type === "object" ? kid.children?.[1] : kid;
      if (value?.type !== "array" || (value.children?.length ?? 0) === 0) continue;
      if (!this.src.slice(value.offset, value.offset + value.length).includes("\n")) return true;
    }
    return false;
  }

  set(path: readonly Segment[], value: Json): void {
    const root = this.tree();
    if (path.length === 0) {
      if (root) this.replace(root, value);
      else this.changed([{ start: 0, end: this.src.length, text: `${this.render(value, "")}\n` }]);
      return;
    }
    const parent = this.nodeAt(path.slice(0, -1));
    const segment = path.at(-1)!;
    const existing = this.member(parent, segment);
    if (existing) return this.replace(existing.value, value, parent);
    if (parent.type === "object") {
      const key = JSON.stringify(String(segment));
      this.insert(
        parent,
        (indent, inline) =>
          `${key}: ${inline ? inlineJson(value) : this.render(value, indent, parent)}`,
      );
    } else {
      this.insert(parent, (indent, inline) =>
        inline ? inlineJson(value) : this.render(value, indent, parent),
      );
    }
  }

  private replace(node: Node, value: Json, container?: Node): void {
    const end = node.offset + node.length;
    const nested = node.type === "object" || node.type === "array";
    const inline =
      nested &&
      (node.children?.length ?? 0) > 0 &&
      !this.src.slice(node.offset, end).includes("\n");
    const text = inline
      ? inlineJson(value)
      : this.render(value, indentAt(this.src, node.offset), container);
    this.changed([{ start: node.offset, end, text }]);
  }

  /** Adds a member after the last one, in the container's own layout. */
  private insert(parent: Node, member: (indent: string, inline: boolean) => string): void {
    const src = this.src;
    const kids = parent.children ?? [];
    const open = parent.offset;
    const close = parent.offset + parent.length - 1;
    const base = indentAt(src, open);
    const inner = base + this.unit;
    if (kids.length === 0) {
      // Inside a one-line container the new member stays on that line: `{ "x": [1] }`.
      const outer = parent.parent?.type === "property" ? parent.parent.parent : parent.parent;
      const inline =
        outer !== undefined && !src.slice(outer.offset, outer.offset + outer.length).includes("\n");
      if (inline && src.slice(open + 1, close).trim() === "") {
        const [l, r] = parent.type === "object" ? [" ", " "] : ["", ""];
        this.changed([{ start: open + 1, end: close, text: `${l}${member("", true)}${r}` }]);
        return;
      }
      const body = src.slice(open + 1, close).trimEnd();
      const text = `${body}\n${inner}${member(inner, false)}\n${base}`;
      this.changed([{ start: open + 1, end: close, text }]);
      return;
    }
    const last = kids.at(-1)!;
    const lastEnd = last.offset + last.length;
    const gap = scanGap(src, lastEnd, close);
    const comma = gap.find((t) => t.kind === "comma");
    const multiline = src.slice(open, kids[0]!.offset).includes("\n");
    if (!multiline) {
      const text = comma ? ` ${member("", true)},` : `, ${member("", true)}`;
      const at = comma ? comma.end : lastEnd;
      this.changed([{ start: at, end: at, text }]);
      return;
    }
    const indent = startsLine(src, last.offset) ? indentAt(src, last.offset) : inner;
    const entry = `\n${indent}${member(indent, false)}${comma ? "," : ""}`;
    const nl = gap.find((t) => t.kind === "nl");
    const edits: TextEdit[] = comma ? [] : [{ start: lastEnd, end: lastEnd, text: "," }];
    const at = nl ? nl.start : (comma?.end ?? lastEnd);
    edits.push({ start: at, end: at, text: entry });
    this.changed(edits);
  }

  remove(path: readonly Segment[]): void {
    const src = this.src;
    const parent = this.nodeAt(path.slice(0, -1));
    const found = this.member(parent, path.at(-1)!);
    if (!found) throw new Error(`nothing to remove at ${path.join(".")}`);
    const kids = parent.children!;
    const { node, index } = found;
    const open = parent.offset;
    const close = parent.offset + parent.length - 1;
    const start = node.offset;
    const end = node.offset + node.length;
    const prev = index > 0 ? kids[index - 1]! : undefined;
    const prevEnd = prev ? prev.offset + prev.length : open + 1;
    const after = scanGap(src, end, index + 1 < kids.length ? kids[index + 1]!.offset : close);
    const comma = after.find((t) => t.kind === "comma");
    const nl = after.findIndex((t) => t.kind === "nl");
    const ownLine =
      startsLine(src, start) && nl !== -1 && after.slice(0, nl).every((t) => t.kind !== "other");
    const edits: TextEdit[] = [];
    if (ownLine) {
      // A comment directly above goes with the member only when the member
      // stands alone; above a run of members it heads the group and stays.
      const endsBlock = (line: string) => /^\s*[}\]]/.test(line);
      const stop = after[nl]!.end;
      let from = lineStart(src, start);
      if (standsAlone(src, stop, endsBlock))
        from = withCommentsAbove(src, from, prevEnd, isCommentLine);
      const above = from > 0 ? src.slice(lineStart(src, from - 1), from - 1) : "";
      const opens = index === 0 && !isCommentLine(above);
      const [a, b] = tidyRemoval(src, from, stop, endsBlock, opens);
      edits.push({ start: a, end: b, text: "" });
      const before =
        prev && !comma ? scanGap(src, prevEnd, start).find((t) => t.kind === "comma") : undefined;
      if (before) edits.push({ start: before.start, end: before.end, text: "" });
    } else if (comma && index + 1 < kids.length) {
      let stop = comma.end;
      while (src[stop] === " " || src[stop] === "\t") stop++;
      edits.push({ start, end: stop, text: "" });
    } else {
      // The last member: its trailing comma, if any, stays as the previous one's.
      edits.push({ start: prev ? prevEnd : start, end, text: "" });
    }
    const removed = edits.reduce((n, e) => n + e.end - e.start, 0);
    let next = applyEdits(src, edits);
    const newClose = close - removed;
    if (kids.length === 1 && next.slice(open + 1, newClose).trim() === "") {
      next = next.slice(0, open + 1) + next.slice(newClose);
    }
    this.src = next;
    this.parsed = false;
  }
}
