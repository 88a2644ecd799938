/**
 * Structural rewrite with ast-grep patterns: `$NAME` captures one node,
 * `$$$NAME` zero or more, and a name used twice must capture the same text.
 * Ops apply in order, each to the result of the one before; a file is parsed
 * at most once per op, and not at all when a word of the pattern is missing
 * from its text (every literal word of a pattern must appear in a match).
 */
import type { SgNode } from "@ast-grep/napi";
import { type Language, parseCode, parseInBatch } from "./languages.js";
import { indentAt, moveCapture } from "./reindent.js";

export interface RewriteOp {
  pat: string;
  out: string;
}

export interface PreparedOp extends RewriteOp {
  /** 0-based position in the call. */
  index: number;
  /** Literal words of the pattern: a file without one of them cannot match. */
  words: string[];
  /** Metavariables the pattern captures. */
  captures: Set<string>;
  /** Metavariables `out` uses that the pattern does not capture (written literally). */
  unknown: string[];
}

const METAVAR = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;
const ANY_METAVAR = /\$\$\$[A-Z_][A-Z0-9_]*|\$\$\$|\$[A-Z_][A-Z0-9_]*/g;

function names(text: string): string[] {
  return [...text.matchAll(METAVAR)].map((m) => m[1] ?? m[2]!);
}

export function prepareOps(ops: readonly RewriteOp[]): PreparedOp[] {
  return ops.map((op, index) => {
    const captures = new Set(names(op.pat).filter((n) => n !== "_"));
    const unknown = [...new Set(names(op.out))].filter((n) => !captures.has(n));
    const literal = op.pat.replace(ANY_METAVAR, " ");
    const words = [...new Set(literal.match(/[\p{L}\p{N}_]+/gu) ?? [])];
    return { ...op, index, words, captures, unknown };
  });
}

/** ast-grep writes `$` metavariables with another character in languages where `$` is no identifier. */
export function preprocessPattern(pat: string, expando: string): string {
  if (expando === "$") return pat;
  return pat.replace(/\$(?:\$\$)?(?=[A-Z_])|\$\$\$/g, (m) => expando.repeat(m.length));
}

/** What findAll takes: a pattern string, or a rule that gives the pattern a context. */
export type Matcher = string | { rule: { pattern: { context: string; selector: string } } };

type Compiled =
  | { matcher: Matcher; problem?: undefined }
  | { problem: string; matcher?: undefined };

const compiled = new Map<string, Compiled>();

/** Go reads `pkg.Func(x)` alone as a type conversion; inside a function body it is the call. */
const CONTEXTS: Record<string, { before: string; after: string }> = {
  go: { before: "func __splice__() {\n", after: "\n}" },
};

function firstError(root: SgNode, expando: string): string | undefined {
  const error = root.find({ rule: { kind: "ERROR" } } as never);
  if (!error) return undefined;
  let near = error.text().split("\n", 1)[0]!.slice(0, 30);
  if (expando !== "$") near = near.replaceAll(expando, "$");
  return `syntax error at column ${error.range().start.column + 1}, near "${near}"`;
}

/** The innermost named node spanning exactly [start, end). */
function exactNode(root: SgNode, start: number, end: number): SgNode | undefined {
  let found: SgNode | undefined;
  let node: SgNode | undefined = root;
  while (node) {
    let next: SgNode | undefined;
    for (const child of node.children()) {
      const r = child.range();
      if (r.start.index <= start && r.end.index >= end) {
        next = child;
        break;
      }
    }
    if (next) {
      const r = next.range();
      if (r.start.index === start && r.end.index === end && next.isNamed()) found = next;
    }
    node = next;
  }
  return found;
}

function withContext(language: Language, pat: string): Matcher | undefined {
  const context = CONTEXTS[language.id];
  if (!context) return undefined;
  const wrapped = `${context.before}${pat.trim()}${context.after}`;
  const root = parseCode(language, preprocessPattern(wrapped, language.expando)).root();
  if (firstError(root, language.expando)) return undefined;
  const start = context.before.length;
  const node = exactNode(root, start, start + pat.trim().length);
  if (!node) return undefined;
  return { rule: { pattern: { context: wrapped, selector: node.kind() as string } } };
}

function compile(language: Language, pat: string): Compiled {
  if (pat.trim() === "") return { problem: "the pattern is empty" };
  try {
    const matcher = withContext(language, pat);
    const probe = parseCode(language, "").root();
    if (matcher) {
      probe.findAll(matcher as never);
      return { matcher };
    }
    const parsed = parseCode(language, preprocessPattern(pat, language.expando)).root();
    const error = firstError(parsed, language.expando);
    if (error) return { problem: `it does not parse as ${language.name} (${error})` };
    probe.findAll(pat); // compiles it: one node, not two statements
    return { matcher: pat };
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n", 1)[0]! : String(error);
    return { problem: `ast-grep rejects it as ${language.name}: ${message}` };
  }
}

function compiledFor(language: Language, pat: string): Compiled {
  const key = `${language.id}\u0000${pat}`;
  let result = compiled.get(key);
  if (!result) {
    result = compile(language, pat);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(key, result);
  }
  return result;
}

/**
 * Why `pat` is not a pattern in `language`, or undefined when it is: the
 * pattern must parse without errors and compile to one syntax node.
 */
export function patternProblem(language: Language, pat: string): string | undefined {
  return compiledFor(language, pat).problem;
}

/** Matches that do not overlap, outer ones first (an inner match is rewritten by a later op, not this one). */
function outermost(matches: SgNode[]): { node: SgNode; start: number; end: number }[] {
  // A node's range is one call into the parser's binding: each is asked once.
  const sorted = matches
    .map((node) => {
      const { start, end } = node.range();
      return { node, start: start.index, end: end.index };
    })
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: typeof sorted = [];
  let end = -1;
  for (const match of sorted) {
    if (match.start < end) continue;
    kept.push(match);
    end = Math.max(end, match.end);
  }
  return kept;
}

/** What `name` captured in `match`: its nodes, first to last (none when it captured nothing). */
function captured(match: SgNode, name: string, multi: boolean): SgNode[] {
  if (multi) {
    const many = match.getMultipleMatches(name);
    if (many.length > 0) return many;
    const one = match.getMatch(name);
    return one ? [one] : [];
  }
  const one = match.getMatch(name);
  return one ? [one] : match.getMultipleMatches(name);
}

export interface Rendered {
  text: string;
  /** Lines of multi-line captures that could not move left with the rest (see moveCapture). */
  kept: string[];
}

/** A capture's place in `out`, after the literal text before it. */
interface Slot {
  /** The literal text before it, cut where the match's indentation goes (see Template). */
  literal: string[];
  name: string;
  multi: boolean;
  /** `$$$NAME` or `$NAME` as written, put back when a single capture matched nothing. */
  written: string;
  /** On the template's first line, where the text before the match comes first. */
  firstLine: boolean;
  /** The whitespace its template line starts with, up to the capture. */
  lead: string;
}

/**
 * `out` split once per op into literal text and captures, so that rendering
 * a match is string work plus its captures' nodes. Every line of `out` after
 * the first that is not empty starts with the match's indentation: the
 * literal pieces are joined with it.
 */
interface Template {
  slots: Slot[];
  /** The literal text after the last capture, cut like a slot's. */
  tail: string[];
  /** Whether a capture appears twice: its nodes are then asked of the parser once. */
  repeats: boolean;
}

const templates = new Map<string, Template>();

function templateOf(out: string): Template {
  let template = templates.get(out);
  if (template) return template;
  // Where the indentation goes: after a line break, on a line that is not empty.
  const cuts: number[] = [];
  for (let i = out.indexOf("\n"); i >= 0 && i + 1 < out.length; i = out.indexOf("\n", i + 1)) {
    if (out[i + 1] !== "\n") cuts.push(i + 1);
  }
  const piecesOf = (from: number, to: number) => {
    const pieces: string[] = [];
    let at = from;
    for (const cut of cuts) {
      if (cut <= from || cut > to) continue;
      pieces.push(out.slice(at, cut));
      at = cut;
    }
    pieces.push(out.slice(at, to));
    return pieces;
  };
  const slots: Slot[] = [];
  let at = 0;
  for (const m of out.matchAll(METAVAR)) {
    const lineStart = out.lastIndexOf("\n", m.index - 1) + 1;
    slots.push({
      literal: piecesOf(at, m.index),
      name: (m[1] ?? m[2])!,
      multi: m[1] !== undefined,
      written: m[0],
      firstLine: lineStart === 0,
      lead: /^[ \t]*/.exec(out.slice(lineStart, m.index))![0],
    });
    at = m.index + m[0].length;
  }
  const repeats = new Set(slots.map((slot) => slot.written)).size < slots.length;
  template = { slots, tail: piecesOf(at, out.length), repeats };
  if (templates.size > 1000) templates.clear();
  templates.set(out, template);
  return template;
}

/**
 * `out` with captures filled in. Its later lines are indented like the line
 * the match starts on, and a multi-line capture keeps its layout relative
 * to the line it lands on.
 */
export function renderReplacement(
  out: string,
  match: SgNode,
  source: string,
  start = match.range().start.index,
): Rendered {
  const { slots, tail, repeats } = templateOf(out);
  const indent = indentAt(source, start);
  // The output's first line begins with the source before the match: a capture
  // on it lines up with that text's indentation, or past it when it is all blank.
  const lineStart = source.lastIndexOf("\n", start - 1) + 1;
  const blankBefore = start - lineStart === indent.length;
  const kept: string[] = [];
  const parts: string[] = [];
  const seen = repeats ? new Map<string, SgNode[]>() : undefined;
  for (const slot of slots) {
    parts.push(slot.literal.join(indent));
    let nodes = seen?.get(slot.written);
    if (!nodes) {
      nodes = captured(match, slot.name, slot.multi);
      seen?.set(slot.written, nodes);
    }
    if (nodes.length === 0) {
      if (!slot.multi) parts.push(slot.written);
      continue;
    }
    const to = slot.firstLine && !blankBefore ? indent : indent + slot.lead;
    const moved = moveCapture(source, nodes, to);
    kept.push(...moved.kept);
    parts.push(moved.text);
  }
  parts.push(tail.join(indent));
  return { text: parts.join(""), kept };
}

export interface Replacement {
  start: number;
  end: number;
  text: string;
}

/** One op over one parsed text: its non-overlapping matches and what replaces each. */
export function replacementsFor(
  language: Language,
  root: SgNode,
  op: PreparedOp,
  source: string,
): (Replacement & Rendered)[] {
  const { matcher } = compiledFor(language, op.pat);
  if (!matcher) return [];
  return outermost(root.findAll(matcher as never)).map(({ node, start, end }) => ({
    start,
    end,
    ...renderReplacement(op.out, node, source, start),
  }));
}

export function applyReplacements(source: string, replacements: readonly Replacement[]): string {
  if (replacements.length === 0) return source;
  const parts: string[] = [];
  let at = 0;
  for (const r of replacements) {
    parts.push(source.slice(at, r.start), r.text);
    at = r.end;
  }
  parts.push(source.slice(at));
  return parts.join("");
}

export interface FileRewrite {
  text: string;
  /** Matches per op, in op order. */
  counts: number[];
  /** Per op, in op order: capture lines kept where they were (Rendered.kept). */
  kept: string[][];
  /** The first op's parse of the original text, when the file was parsed at all. */
  root?: SgNode;
}

/**
 * Applies the ops in order to one file's text. `skip(op)` names ops that do
 * not apply in this language (their pattern does not parse in it). A large
 * text parses on the thread pool (parseInBatch), so a caller handling many
 * files parses them side by side.
 */
export async function rewriteText(
  language: Language,
  text: string,
  ops: readonly PreparedOp[],
  skip: (op: PreparedOp) => boolean,
): Promise<FileRewrite> {
  let current = text;
  let root: SgNode | undefined;
  let first: SgNode | undefined;
  const counts: number[] = [];
  const kept: string[][] = [];
  for (const op of ops) {
    if (skip(op) || !op.words.every((w) => current.includes(w))) {
      counts.push(0);
      kept.push([]);
      continue;
    }
    root ??= (await parseInBatch(language, current)).root();
    if (current === text) first ??= root;
    const replacements = replacementsFor(language, root, op, current);
    counts.push(replacements.length);
    kept.push(replacements.flatMap((r) => r.kept));
    if (replacements.length === 0) continue;
    const next = applyReplacements(current, replacements);
    if (next !== current) {
      current = next;
      root = undefined;
    }
  }
  return { text: current, counts, kept, ...(first ? { root: first } : {}) };
}
