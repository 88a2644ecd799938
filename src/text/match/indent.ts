/**
 * Indentation mappings between what the model quoted and what the file has.
 * A match at the indentation rung needs ONE mapping for every line: a uniform
 * shift (the same leading whitespace added or removed on every line) or a
 * consistent tabs<->spaces conversion (n spaces per tab, plus a fixed offset).
 * A block whose relative indentation differs from the file's has no mapping,
 * and in indentation-sensitive code it is a different block.
 */
import { leadingWs } from "./normalize.js";

export type IndentMap =
  /** file indent = add + (old indent without its `remove` prefix). */
  | { kind: "prefix"; add: string; remove: string }
  /** old spaces = unit × file tabs + offset. */
  | { kind: "spaces_to_tabs"; unit: number; offset: number }
  /** file spaces = unit × old tabs + offset. */
  | { kind: "tabs_to_spaces"; unit: number; offset: number };

export const IDENTITY: IndentMap = { kind: "prefix", add: "", remove: "" };

/** Spaces per level, asked for only when the lines themselves show a single level. */
export interface UnitHints {
  /** How many spaces the model indents by (from old_text and new_text). */
  oldSpaces(): number | undefined;
  /** How many spaces the file indents by. */
  fileSpaces(): number | undefined;
}

const DEFAULT_UNIT = 4;
const NO_HINTS: UnitHints = { oldSpaces: () => undefined, fileSpaces: () => undefined };

/** The one mapping that turns every old indent into its file indent, if any. */
export function solveIndentMap(
  pairs: readonly (readonly [string, string])[],
  hints: UnitHints = NO_HINTS,
): IndentMap | undefined {
  if (pairs.length === 0) return IDENTITY;
  const prefix = solvePrefix(pairs);
  if (prefix) return prefix;
  const olds = pairs.map((p) => p[0]);
  const files = pairs.map((p) => p[1]);
  if (olds.every(onlySpaces) && files.every(onlyTabs)) {
    const lin = solveLinear(
      olds.map((s) => s.length),
      files.map((s) => s.length),
      hints.oldSpaces,
    );
    return lin && { kind: "spaces_to_tabs", ...lin };
  }
  if (olds.every(onlyTabs) && files.every(onlySpaces)) {
    const lin = solveLinear(
      files.map((s) => s.length),
      olds.map((s) => s.length),
      hints.fileSpaces,
    );
    return lin && { kind: "tabs_to_spaces", ...lin };
  }
  return undefined;
}

const onlySpaces = (s: string) => /^ *$/.test(s);
const onlyTabs = (s: string) => /^\t*$/.test(s);

function solvePrefix(pairs: readonly (readonly [string, string])[]): IndentMap | undefined {
  const [o, f] = pairs[0]!;
  const d = f.length - o.length;
  if (d >= 0) {
    const add = f.slice(0, d);
    return pairs.every(([po, pf]) => pf === add + po)
      ? { kind: "prefix", add, remove: "" }
      : undefined;
  }
  const remove = o.slice(0, -d);
  return pairs.every(([po, pf]) => po === remove + pf)
    ? { kind: "prefix", add: "", remove }
    : undefined;
}

/** big = unit × small + offset for every pair, with a whole unit ≥ 1. */
function solveLinear(
  big: number[],
  small: number[],
  hint: () => number | undefined,
): { unit: number; offset: number } | undefined {
  const other = small.findIndex((s) => s !== small[0]);
  let unit: number;
  if (other === -1) {
    if (big.some((b) => b !== big[0])) return undefined;
    unit = hint() ?? DEFAULT_UNIT;
  } else {
    unit = (big[other]! - big[0]!) / (small[other]! - small[0]!);
    if (!Number.isInteger(unit) || unit < 1) return undefined;
  }
  const offset = big[0]! - unit * small[0]!;
  return big.every((b, k) => b === unit * small[k]! + offset) ? { unit, offset } : undefined;
}

/** A new_text line re-indented the way the match mapped old_text onto the file. */
export function reindent(line: string, map: IndentMap): string {
  if (line === "") return line;
  const indent = leadingWs(line);
  const rest = line.slice(indent.length);
  switch (map.kind) {
    case "prefix": {
      let keep = 0;
      while (keep < map.remove.length && indent[keep] === map.remove[keep]) keep++;
      return map.add + indent.slice(keep) + rest;
    }
    case "spaces_to_tabs": {
      if (indent.includes("\t")) return line;
      const cols = Math.max(0, indent.length - map.offset);
      const tabs = Math.floor(cols / map.unit);
      return "\t".repeat(tabs) + " ".repeat(cols - tabs * map.unit) + rest;
    }
    case "tabs_to_spaces": {
      const tabs = indent.length - indent.replace(/^\t+/, "").length;
      const cols = map.unit * tabs + map.offset + (indent.length - tabs);
      return " ".repeat(Math.max(0, cols)) + rest;
    }
  }
}

/** The most common step between consecutive indents made only of `ch`, if any. */
export function indentStep(lines: readonly string[], ch: " " | "\t"): number | undefined {
  const counts = new Map<number, number>();
  let prev: number | undefined;
  for (const line of lines) {
    const indent = leadingWs(line);
    if (indent.length === line.length) continue;
    if (indent !== ch.repeat(indent.length)) {
      prev = undefined;
      continue;
    }
    if (prev !== undefined && indent.length > prev) {
      const step = indent.length - prev;
      counts.set(step, (counts.get(step) ?? 0) + 1);
    }
    prev = indent.length;
  }
  let best: number | undefined;
  let bestCount = 0;
  for (const [step, count] of counts) {
    if (count > bestCount || (count === bestCount && step < best!)) {
      best = step;
      bestCount = count;
    }
  }
  return best;
}

export function isIdentity(map: IndentMap): boolean {
  return map.kind === "prefix" && map.add === "" && map.remove === "";
}

/** "indented 4 more spaces", for a warning. */
export function describeIndent(map: IndentMap): string {
  switch (map.kind) {
    case "prefix": {
      const ws = map.add || map.remove;
      const deeper = map.add ? "deeper" : "shallower";
      if (/^ +$/.test(ws)) return `indented ${plural(ws.length, "space")} ${deeper}`;
      if (/^\t+$/.test(ws)) return `indented ${plural(ws.length, "tab")} ${deeper}`;
      return "indented with different leading whitespace";
    }
    case "spaces_to_tabs":
      return `indented with tabs where old_text has spaces (${map.unit} per tab)`;
    case "tabs_to_spaces":
      return `indented with spaces where old_text has tabs (${map.unit} per tab)`;
  }
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
