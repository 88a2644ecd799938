/**
 * How symbol and line reads look: each definition under a notice naming it,
 * in hashline form with large nested blocks elided; many definitions as a
 * list of locations; a miss as an error with near names.
 */

import type { LoadedFile } from "../../change/load.js";
import { nestedBlocks } from "../../code/blocks.js";
import {
  type Elision,
  MIN_ELIDED_LINES,
  planElision,
  renderSections,
  type Section,
} from "../../code/elide.js";
import { type Language, parseCodeAsync } from "../../code/languages.js";
import { formatSpan } from "../../code/outline.js";
import { lastLine } from "../../code/span.js";
import {
  type Definition,
  extractDefinitions,
  matchesSymbol,
  qualifiedName,
  signature,
} from "../../code/symbols.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { normalizedText } from "../../text/document.js";
import { header } from "../../text/hashline.js";
import { count } from "../../util/format.js";
import type { ToolContext } from "../define.js";
import type { DefinitionInfo, ReadResult } from "./result.js";

export const SYMBOL_LIMITS = {
  /** More definitions than this are listed with their locations instead of shown. */
  maxShown: 5,
  /** Definitions named in a list before "and N more". */
  maxListed: 50,
  /** Files a folder search covers (in path order). */
  maxFiles: 100_000,
  /** Files a folder search parses: those whose text contains the name. */
  maxParsed: 5_000,
  /** Bytes the not-found path scans for near names. */
  nearScanBytes: 32 * 1024 * 1024,
} as const;

export interface Analyzed {
  file: GuardedPath;
  language: Language;
  loaded: LoadedFile;
  defs: Definition[];
  matches: Definition[];
}

export const linesOf = (start: number, end: number) =>
  start === end ? `line ${start}` : `lines ${start}..${end}`;

/** Parses on the thread pool, so a folder search parses several files side by side. */
export async function analyze(
  file: GuardedPath,
  language: Language,
  loaded: LoadedFile,
  parts: string[],
  symbol: string,
): Promise<Analyzed> {
  const root = (await parseCodeAsync(language, normalizedText(loaded.doc))).root();
  const defs = extractDefinitions(root, language, loaded.doc.lines);
  const matches = defs.filter((d) => matchesSymbol(d, parts, symbol));
  // A match inside another match (a method in a class of the same name) is shown by it.
  const outer = matches.filter(
    (d) =>
      !matches.some((o) => o !== d && o.start <= d.start && o.end >= d.end && o.depth < d.depth),
  );
  return { file, language, loaded, defs, matches: outer };
}

export function info(a: Analyzed, def: Definition): DefinitionInfo {
  return {
    name: def.name,
    qualified_name: qualifiedName(def, a.language),
    kind: def.kind,
    path: a.file.display,
    lines: [def.start, def.end],
  };
}

/** Doc comments directly above a definition belong to it when it is shown. */
function withComments(def: Definition): number {
  let start = def.start;
  let prev = def.node.prev();
  for (let i = 0; prev && i < 50 && /comment/.test(prev.kind() as string); i++) {
    if (lastLine(prev.range()) !== start - 1) break;
    start = prev.range().start.line + 1;
    prev = prev.prev();
  }
  return start;
}

export function elisionsFor(
  a: { defs: Definition[]; loaded: LoadedFile },
  span: { start: number; end: number; node: Definition["node"] },
  protect: number[],
): Elision[] {
  if (span.end - span.start + 1 <= MIN_ELIDED_LINES) return [];
  const blocks = nestedBlocks(span.node, a.loaded.doc.lines, a.defs, MIN_ELIDED_LINES + 1);
  return planElision(span, blocks, protect);
}

export function render(
  context: ToolContext,
  a: { file: GuardedPath; loaded: LoadedFile },
  sections: Section[],
  definitions: DefinitionInfo[],
  warnings: string[],
): ReadResult {
  const { file, loaded } = a;
  const rendered = renderSections(loaded.doc.lines, sections, {
    maxLines: context.limits.maxLines,
    maxLineLength: context.limits.maxLineLength,
  });
  context.history.recordRead(file.rel, loaded.bytes, loaded.tag, rendered.shown, loaded.sha);
  return {
    path: file.display,
    file_hash: loaded.tag,
    header: header(file.display, loaded.tag),
    content: [header(file.display, loaded.tag), ...rendered.lines].join("\n"),
    total_lines: loaded.doc.lines.length,
    warnings,
    definitions,
  };
}

function showFile(context: ToolContext, a: Analyzed, warnings: string[]): ReadResult {
  const total = a.loaded.doc.lines.length;
  const sections = a.matches.map((def): Section => {
    const start = withComments(def);
    return {
      start,
      end: def.end,
      title: `${def.kind} ${qualifiedName(def, a.language)}: ${linesOf(start, def.end)} of ${total}`,
      elisions: elisionsFor(a, { start, end: def.end, node: def.node }, []),
    };
  });
  return render(
    context,
    a,
    sections,
    a.matches.map((d) => info(a, d)),
    warnings,
  );
}

function listMatches(
  input: string,
  symbol: string,
  found: Analyzed[],
  warnings: string[],
): ReadResult {
  const all = found.flatMap((a) => a.matches.map((def) => ({ a, def })));
  const lines = [
    `[${count(all.length)} definitions match "${symbol}" — more than ${SYMBOL_LIMITS.maxShown}, so they are listed, not shown. Read one with its path and line_range, or name it more exactly (Class.method, or a file instead of a folder).]`,
  ];
  for (const { a, def } of all.slice(0, SYMBOL_LIMITS.maxListed)) {
    lines.push(
      `${a.file.display}:${formatSpan(def.start, def.end)} ${def.kind} ${qualifiedName(def, a.language)} — ${signature(def, a.loaded.doc.lines)}`,
    );
  }
  if (all.length > SYMBOL_LIMITS.maxListed) {
    lines.push(`[and ${count(all.length - SYMBOL_LIMITS.maxListed)} more not listed]`);
  }
  return {
    path: input,
    content: lines.join("\n"),
    warnings,
    definitions: all.map(({ a, def }) => info(a, def)),
  };
}

export function present(
  context: ToolContext,
  input: string,
  symbol: string,
  found: Analyzed[],
  warnings: string[],
): ReadResult[] {
  const total = found.reduce((n, a) => n + a.matches.length, 0);
  if (total > SYMBOL_LIMITS.maxShown) return [listMatches(input, symbol, found, warnings)];
  return found.map((a, i) => showFile(context, a, i === 0 ? warnings : []));
}

export function notFound(
  symbol: string,
  where: string,
  near: string[],
  target: { path: string; what: "file" | "folder" },
  extra = "",
): ToolError {
  const hint = near.length > 0 ? ` Near names: ${near.join(", ")}.` : "";
  const facts = `No definition of "${symbol}" in ${where}.${hint}${extra}`;
  if (near.length > 0) return new ToolError("not_found", facts, { symbol, near });
  const args = { path: target.path };
  return new ToolError(
    "not_found",
    facts,
    { symbol, near },
    {
      tool: "outline",
      args,
      say: (v) => `${v.call("outline", args)} to see what the ${target.what} defines.`,
    },
  );
}
