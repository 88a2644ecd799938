/**
 * A file's outline: its definitions with their line ranges, nested by
 * indentation, one short signature each. The cheapest way to find where to
 * read.
 */

import type { DefKind } from "./def-spec.js";
import type { Language } from "./languages.js";
import { type Definition, qualifiedName, signature } from "./symbols.js";

export interface OutlineEntry {
  name: string;
  /** `Class.method`, `Type::method`. */
  qualified_name: string;
  kind: DefKind;
  lines: [number, number];
  depth: number;
}

export function outlineEntries(defs: readonly Definition[], language: Language): OutlineEntry[] {
  return defs.map((def) => ({
    name: def.name,
    qualified_name: qualifiedName(def, language),
    kind: def.kind,
    lines: [def.start, def.end],
    depth: def.depth,
  }));
}

export function formatSpan(start: number, end: number): string {
  return start === end ? `${start}` : `${start}..${end}`;
}

/** One line per definition: `  40..60 parse(input: string): Node`. */
export function outlineLines(defs: readonly Definition[], lines: readonly string[]): string[] {
  return defs.map(
    (def) => `${"  ".repeat(def.depth)}${formatSpan(def.start, def.end)} ${signature(def, lines)}`,
  );
}
