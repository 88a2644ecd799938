/**
 * YAML text for one new value, shaped for the spot it goes into: after
 * `key:` or `-` in a block collection, or inside a flow collection. Strings
 * are quoted where a YAML 1.1 reader would take them for something else
 * (`on`, `yes`, `0777`), since CI systems still read YAML 1.1.
 */
import { Document, isScalar, type Scalar, visit } from "yaml";
import { indentRest } from "./text-edits.js";
import type { Json } from "./values.js";

export interface YamlStyle {
  /** Spaces per nesting level. */
  indent: number;
  /** Whether a list under a key is indented (`key:\n  - a`) or not (`key:\n- a`). */
  indentSeq: boolean;
}

export interface RenderOptions {
  /** Keep a replaced string's quotes (`"20"` stays double-quoted). */
  stringType?: Scalar.Type;
  /** Write lists of plain values as `[a, b]`, as the neighbours do; `padding` gives `[ a, b ]`. */
  flowLists?: { padding: boolean };
}

const MERGE_KEY = "<<";
const STR_TAG = "tag:yaml.org,2002:str";

function render(value: unknown, style: YamlStyle, options: RenderOptions, flow = false): string {
  const doc = new Document(value, { version: "1.1" });
  const lists = options.flowLists;
  visit(doc, {
    // A plain `<<` key is a merge to a YAML 1.1 reader. A key spelled so is written as a
    // string (`yaml` insists on the explicit tag: !!str "<<").
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === MERGE_KEY) pair.key.tag = STR_TAG;
    },
    Seq(_, node) {
      if (!lists) return;
      const oneLine = (item: unknown) =>
        isScalar(item) && !(typeof item.value === "string" && item.value.includes("\n"));
      if (node.items.length > 0 && node.items.every(oneLine)) node.flow = true;
    },
  });
  const text = doc.toString({
    lineWidth: 0,
    minContentWidth: 0,
    indent: style.indent,
    indentSeq: style.indentSeq,
    defaultStringType: options.stringType ?? "PLAIN",
    defaultKeyType: "PLAIN",
    flowCollectionPadding: lists?.padding ?? false,
    ...(flow
      ? { collectionStyle: "flow" as const, blockQuote: false, doubleQuotedAsJSON: true }
      : {}),
  });
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

/**
 * What follows `key:` for a value whose key starts at column `col`: " 5",
 * " |-\n    a", or "\n    a: 1" (lines after the first already indented).
 */
export function afterKey(
  value: Json,
  col: number,
  style: YamlStyle,
  options: RenderOptions = {},
): string {
  return indentRest(render({ k: value }, style, options).slice(2), " ".repeat(col));
}

/** What follows `-` for an item whose dash is at column `col`: " 5", " a: 1\n    b: 2". */
export function afterDash(
  value: Json,
  col: number,
  style: YamlStyle,
  options: RenderOptions = {},
): string {
  return indentRest(render([value], style, options).slice(1), " ".repeat(col));
}

/** A whole value as block lines starting at column `col` (the first line indented too). */
export function blockAt(
  value: Json,
  col: number,
  style: YamlStyle,
  options: RenderOptions = {},
): string {
  const pad = " ".repeat(col);
  return pad + indentRest(render(value, style, options), pad);
}

/** A key as YAML writes it (plain when it can be). */
export function keyText(key: string): string {
  if (key === MERGE_KEY) return JSON.stringify(key);
  return render(key, { indent: 2, indentSeq: true }, {}, true);
}

/** A value on one line, for flow collections: `[a, b]`, `{ k: v }`, `"x\ny"`. */
export function flowText(value: Json, padding: boolean, stringType?: Scalar.Type): string {
  // Only double quotes keep a line break on one line ("a\nb").
  const type = JSON.stringify(value).includes("\\n") ? "QUOTE_DOUBLE" : stringType;
  return render(
    value,
    { indent: 2, indentSeq: true },
    { stringType: type, flowLists: { padding } },
    true,
  );
}
