/**
 * Pieces for making cases out of real files: a file split into lines with a
 * loose key per line, span picking with uniqueness checks (so an apply case's
 * target is certain), and the realistic changes a model asks for (rename an
 * identifier, change a literal, insert a line, delete a line).
 */
import type { Rng } from "../lib.js";
import type { CorpusFile } from "./corpus.js";

export interface FileInfo {
  path: string;
  text: string;
  /** Line texts without "\n"; a last line without "\n" is included. */
  lines: string[];
  /** Lines that end with "\n": spans stay within these. */
  usable: number;
  /** offsets[i]: where line i starts; offsets[lines.length] = text.length. */
  offsets: number[];
  /** looseKey of every line. */
  keys: string[];
  /** Indexes of the lines whose key is not empty, and their keys. */
  contentLines: number[];
  contentKeys: string[];
  /** Every trimmed line. */
  trimmed: Set<string>;
  /** Sorted distinct identifiers (3+ characters, no keywords). */
  idents: string[];
  /** Indentation unit of space-indented lines: 2 or 4. */
  spaceUnit: number;
}

export const KEYWORDS = new Set(
  `abstract any as async await bigint boolean break case catch class const constructor continue
  debugger declare default delete do else enum export extends false finally for from function get
  if implements import in instanceof interface is keyof let module namespace never new null number
  object of package private protected public readonly require return satisfies set static string
  super switch symbol this throw true try type typeof undefined unique unknown var void while with
  yield`.split(/\s+/),
);

const SMART_DOUBLE = /[\u201C\u201D\u201E\u201F\u2033]/g;
const SMART_SINGLE = /[\u2018\u2019\u201A\u201B\u2032]/g;
const DASHES = /[\u2012\u2013\u2014\u2212]/g;

/**
 * The loosest comparison any engine could make: whitespace, quote and dash
 * styles and one escape level ignored. Two lines with the same key are the
 * same line to a careless reader.
 */
export function looseKey(line: string): string {
  return line
    .replace(SMART_DOUBLE, '"')
    .replace(SMART_SINGLE, "'")
    .replace(DASHES, "-")
    .replace(/\\(["'`\\])/g, "$1")
    .replace(/[\s\u00A0]+/g, " ")
    .trim();
}

const IDENT = /[A-Za-z_$][\w$]*/g;

export function fileInfo(file: CorpusFile): FileInfo {
  const { text } = file;
  const lines = text.split("\n");
  const finalNewline = text.endsWith("\n");
  if (finalNewline) lines.pop();
  const offsets = [0];
  for (const line of lines) offsets.push(offsets.at(-1)! + line.length + 1);
  offsets[lines.length] = text.length;
  const keys = lines.map(looseKey);
  const contentLines: number[] = [];
  for (const [i, k] of keys.entries()) if (k !== "") contentLines.push(i);
  const idents = new Set<string>();
  for (const m of text.matchAll(IDENT)) {
    if (m[0].length >= 3 && !KEYWORDS.has(m[0])) idents.add(m[0]);
  }
  let two = 0;
  let four = 0;
  for (const line of lines) {
    const n = /^ */.exec(line)![0].length;
    if (n > 0 && line[n] !== "\t" && line[n] !== undefined) {
      if (n % 4 === 2) two++;
      else if (n % 4 === 0) four++;
    }
  }
  return {
    path: file.path,
    text,
    lines,
    usable: finalNewline ? lines.length : lines.length - 1,
    offsets,
    keys,
    contentLines,
    contentKeys: contentLines.map((i) => keys[i]!),
    trimmed: new Set(lines.map((l) => l.trim())),
    idents: [...idents].sort(),
    spaceUnit: two > four / 10 ? 2 : 4,
  };
}

// ---------------------------------------------------------------- counting

/** Occurrences of `needle` in `text` (overlapping ones too), counting up to `limit`. */
export function countExact(text: string, needle: string, limit = 2): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1 && n < limit; at = text.indexOf(needle, at + 1)) {
    n++;
  }
  return n;
}

/** How often the span's non-blank loose keys occur as a run of non-blank file lines (up to 2). */
export function looseCount(info: FileInfo, from: number, to: number): number {
  const want = info.keys.slice(from, to).filter((k) => k !== "");
  if (want.length === 0) return 2;
  const have = info.contentKeys;
  let n = 0;
  for (let p = 0; p + want.length <= have.length && n < 2; p++) {
    let k = 0;
    while (k < want.length && have[p + k] === want[k]) k++;
    if (k === want.length) n++;
  }
  return n;
}

/**
 * How many regions start with the span's first line and end, within one
 * line of the span's length, with its last line (compared by loose key): a
 * second region makes a misremembered middle line an uncertain target.
 */
export function anchorCount(info: FileInfo, from: number, to: number): number {
  const first = info.keys[from]!;
  const last = info.keys[to - 1]!;
  const n = to - from;
  let count = 0;
  for (let i = 0; i < info.lines.length; i++) {
    if (info.keys[i] !== first) continue;
    for (let j = i + n - 2; j <= i + n; j++) {
      if (j > i && j < info.lines.length && info.keys[j] === last) {
        count++;
        break;
      }
    }
  }
  return count;
}

export function spanText(info: FileInfo, from: number, to: number): string {
  return info.text.slice(info.offsets[from], info.offsets[to]);
}

/** The file with lines [from, to) replaced by `lines`. */
export function withSpan(info: FileInfo, from: number, to: number, lines: string[]): string {
  return (
    info.text.slice(0, info.offsets[from]) +
    lines.map((l) => `${l}\n`).join("") +
    info.text.slice(info.offsets[to])
  );
}

export function joinText(lines: readonly string[], finalNewline: boolean, eol = "\n"): string {
  return lines.join(eol) + (finalNewline ? eol : "");
}

export function leading(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

export const isBlank = (line: string) => line.trim() === "";

// ---------------------------------------------------------------- spans

export interface SpanOptions {
  min?: number;
  max?: number;
  /** Longest line allowed in the span. */
  maxLineLength?: number;
  need?: (lines: string[], from: number) => boolean;
}

/** A random span of whole lines with non-blank first and last lines, or undefined. */
export function pickSpan(
  info: FileInfo,
  rng: Rng,
  options: SpanOptions = {},
): { from: number; to: number } | undefined {
  const min = options.min ?? 2;
  const max = options.max ?? 12;
  const longest = options.maxLineLength ?? 240;
  if (info.usable < min) return undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    const n = rng.int(min, max);
    const from = rng.int(0, Math.max(0, info.usable - n));
    const to = from + n;
    if (to > info.usable) continue;
    const lines = info.lines.slice(from, to);
    if (isBlank(lines[0]!) || isBlank(lines.at(-1)!)) continue;
    if (lines.some((l) => l.length > longest)) continue;
    if (options.need && !options.need(lines, from)) continue;
    return { from, to };
  }
  return undefined;
}

// ---------------------------------------------------------------- changes

export type Change =
  | { kind: "replace"; at: number; line: string; what: string }
  /** Inserts `line` before span line `at` (1 <= at <= span length - 1). */
  | { kind: "insert"; at: number; line: string; what: string }
  | { kind: "delete"; at: number; what: string };

export type ChangeKind = "rename" | "literal" | "insert" | "delete";
export const CHANGE_KINDS: readonly ChangeKind[] = ["rename", "literal", "insert", "delete"];

/** The span after the change; `line` overrides the replaced or inserted line. */
export function applyChange(lines: readonly string[], change: Change, line?: string): string[] {
  const out = [...lines];
  if (change.kind === "replace") out[change.at] = line ?? change.line;
  else if (change.kind === "insert") out.splice(change.at, 0, line ?? change.line);
  else out.splice(change.at, 1);
  return out;
}

/** Span indexes the change leaves alone: context lines. */
export function contextIndexes(n: number, change: Change): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    if (change.kind !== "insert" && change.at === i) continue;
    out.push(i);
  }
  return out;
}

interface Token {
  text: string;
  at: number;
}

/** Identifier tokens of a line worth renaming (no keywords, not after a digit). */
export function identTokens(line: string): Token[] {
  const out: Token[] = [];
  for (const m of line.matchAll(IDENT)) {
    const before = line[m.index - 1];
    if (before !== undefined && /[0-9]/.test(before)) continue;
    if (m[0].length < 2 || KEYWORDS.has(m[0])) continue;
    out.push({ text: m[0], at: m.index });
  }
  return out;
}

const NUMBER = /(?<![\w$.])\d+(?![\w$.])/g;
const STRING = /(["'])([^"'\\\n]{0,60})\1/g;

export function numberTokens(line: string): Token[] {
  return [...line.matchAll(NUMBER)].map((m) => ({ text: m[0], at: m.index }));
}

function stringTokens(line: string): Token[] {
  return [...line.matchAll(STRING)].map((m) => ({ text: m[0], at: m.index }));
}

const splice = (line: string, t: Token, text: string) =>
  line.slice(0, t.at) + text + line.slice(t.at + t.text.length);

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** A new name for an identifier, like a model's rename. */
export function renamed(name: string, rng: Rng): string {
  switch (rng.int(0, 3)) {
    case 0:
      return `${name}Next`;
    case 1:
      return `next${cap(name)}`;
    case 2:
      return `${name}2`;
    default:
      return `${name}Value`;
  }
}

function renameOn(line: string, rng: Rng): { line: string; what: string } | undefined {
  const tokens = identTokens(line);
  if (tokens.length === 0) return undefined;
  const t = rng.pick(tokens);
  const name = renamed(t.text, rng);
  return { line: splice(line, t, name), what: `rename ${t.text} -> ${name}` };
}

function literalOn(line: string, rng: Rng): { line: string; what: string } | undefined {
  const numbers = numberTokens(line);
  const strings = stringTokens(line);
  if (numbers.length === 0 && strings.length === 0) return undefined;
  if (strings.length === 0 || (numbers.length > 0 && rng.chance(0.5))) {
    const t = rng.pick(numbers);
    const next = String(Number(t.text) + rng.int(1, 9));
    return { line: splice(line, t, next), what: `literal ${t.text} -> ${next}` };
  }
  const t = rng.pick(strings);
  const q = t.text[0]!;
  const body = t.text.slice(1, -1);
  const next = `${q}${body === "" ? "edited" : `${body}-edited`}${q}`;
  return { line: splice(line, t, next), what: `literal ${t.text} -> ${next}` };
}

/** A new line for an insertion, indented like its neighbour. */
function insertedLine(indent: string, ident: string, rng: Rng): string {
  switch (rng.int(0, 2)) {
    case 0:
      return `${indent}// Checked: ${ident} is set before this point.`;
    case 1:
      return `${indent}void ${ident};`;
    default:
      return `${indent}console.debug("${ident}");`;
  }
}

export interface ChangeOptions {
  kinds?: readonly ChangeKind[];
  /** Span indexes a replace or delete must not touch. */
  avoid?: (at: number) => boolean;
}

/** A realistic change to a span, or undefined when none of the kinds fits. */
export function makeChange(
  lines: readonly string[],
  idents: readonly string[],
  rng: Rng,
  options: ChangeOptions = {},
): Change | undefined {
  const n = lines.length;
  const avoid = options.avoid ?? (() => false);
  const first = rng.pick(options.kinds ?? CHANGE_KINDS);
  const order = [first, ...(options.kinds ?? CHANGE_KINDS).filter((k) => k !== first)];
  for (const kind of order) {
    if (kind === "rename" || kind === "literal") {
      const on = kind === "rename" ? renameOn : literalOn;
      const fits = (l: string) =>
        kind === "rename"
          ? identTokens(l).length > 0
          : numberTokens(l).length > 0 || stringTokens(l).length > 0;
      const at = [...Array(n).keys()].filter((i) => !avoid(i) && fits(lines[i]!));
      if (at.length === 0) continue;
      const i = rng.pick(at);
      const made = on(lines[i]!, rng)!;
      return { kind: "replace", at: i, line: made.line, what: made.what };
    }
    if (kind === "insert" && n >= 2 && idents.length > 0) {
      const at = rng.int(1, n - 1);
      const next = lines[at]!;
      const indent = leading(isBlank(next) ? lines[at - 1]! : next);
      const line = insertedLine(indent, rng.pick(idents), rng);
      return { kind: "insert", at, line, what: `insert a line before span line ${at + 1}` };
    }
    if (kind === "delete" && n >= 3) {
      const at = [...Array(n - 2).keys()]
        .map((i) => i + 1)
        .filter((i) => !avoid(i) && !isBlank(lines[i]!));
      if (at.length === 0) continue;
      const i = rng.pick(at);
      return { kind: "delete", at: i, what: `delete span line ${i + 1}` };
    }
  }
  return undefined;
}

/**
 * A slight misremembering of a line, as a model makes it: a dropped or added
 * letter in an identifier, a number off by one, a lost semicolon.
 */
export function misremember(line: string, rng: Rng): string | undefined {
  const options: (() => string | undefined)[] = [
    () => {
      const long = identTokens(line).filter((t) => t.text.length >= 5);
      if (long.length === 0) return undefined;
      const t = rng.pick(long);
      const k = rng.int(1, t.text.length - 2);
      return splice(line, t, t.text.slice(0, k) + t.text.slice(k + 1));
    },
    () => {
      const ids = identTokens(line).filter((t) => t.text.length >= 3);
      if (ids.length === 0) return undefined;
      const t = rng.pick(ids);
      return splice(line, t, `${t.text}s`);
    },
    () => {
      const numbers = numberTokens(line);
      if (numbers.length === 0) return undefined;
      const t = rng.pick(numbers);
      return splice(line, t, String(Number(t.text) + 1));
    },
    () => (/;\s*$/.test(line) ? line.replace(/;(\s*)$/, "$1") : undefined),
  ];
  const start = rng.int(0, options.length - 1);
  for (let k = 0; k < options.length; k++) {
    const out = options[(start + k) % options.length]!();
    if (out !== undefined && out !== line) return out;
  }
  return undefined;
}
