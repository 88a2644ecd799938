/**
 * What the replace engine normalizes before comparing: the model's input
 * (CRLF, BOM) and, per rung, the key a line is compared by. Keys only ever
 * decide equality; the file's own text is what gets kept or replaced.
 */

const BOM = "\uFEFF";

export interface NormalizedInput {
  text: string;
  hadCR: boolean;
  hadBOM: boolean;
}

/**
 * Models paste from CRLF sources and sometimes carry a BOM; the file text has
 * neither. A lone CR at the very end is a CRLF line end cut before its LF (a
 * quote that stops at the newline, lines split on LF only): it is dropped, as
 * kept it would land in the file as a stray CR before the file's own line end.
 */
export function normalizeInput(raw: string): NormalizedInput {
  const hadBOM = raw.startsWith(BOM);
  let body = hadBOM ? raw.slice(1) : raw;
  const hadCR = body.includes("\r\n") || body.endsWith("\r");
  if (hadCR) body = body.split("\r\n").join("\n");
  if (body.endsWith("\r")) body = body.slice(0, -1);
  return { text: body, hadCR, hadBOM };
}

export interface SplitText {
  /** Line texts without terminators; "" has no lines. */
  lines: string[];
  finalNewline: boolean;
}

export function splitLines(text: string): SplitText {
  if (text === "") return { lines: [], finalNewline: false };
  const lines = text.split("\n");
  const finalNewline = text.endsWith("\n");
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

export function joinLines(lines: readonly string[], finalNewline: boolean): string {
  if (lines.length === 0) return "";
  return lines.join("\n") + (finalNewline ? "\n" : "");
}

const isBlankChar = (c: number): boolean => c === 32 || c === 9;

export function trimEndWs(s: string): string {
  let end = s.length;
  while (end > 0 && isBlankChar(s.charCodeAt(end - 1))) end--;
  return end === s.length ? s : s.slice(0, end);
}

export function leadingWs(s: string): string {
  let i = 0;
  while (i < s.length && isBlankChar(s.charCodeAt(i))) i++;
  return s.slice(0, i);
}

export function trimWs(s: string): string {
  const t = trimEndWs(s);
  let i = 0;
  while (i < t.length && isBlankChar(t.charCodeAt(i))) i++;
  return i === 0 ? t : t.slice(i);
}

/** Characters a model (or its tokenizer) swaps for a look-alike, and what they stand for. */
const LOOKALIKE: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u2032": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u201F": '"',
  "\u2033": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u2026": "...",
  "\u00A0": " ",
  "\u202F": " ",
  "\u205F": " ",
  "\u3000": " ",
  "\u200B": "",
  "\u2060": "",
  "\uFEFF": "",
};
for (let c = 0x2000; c <= 0x200a; c++) LOOKALIKE[String.fromCharCode(c)] = " ";

const NEEDS_FOLD = /[\\\u00A0-\uFFFF]/;
const FOLD =
  /[\u2018\u2019\u201A\u201B\u2032\u201C-\u201F\u2033\u2010-\u2015\u2212\u2026\u00A0\u202F\u205F\u3000\u200B\u2060\uFEFF\u2000-\u200A]|\\+(["'`])?/g;

/**
 * Unicode look-alikes to ASCII, and escapes folded so that an over-escaped
 * quote (`\"`, `\\"`) or a doubled backslash (`\\n`) equals what the file has.
 * Applied to both sides, so it can only merge keys, never split them.
 */
export function foldUnicode(s: string): string {
  if (!NEEDS_FOLD.test(s)) return s;
  return s.replace(FOLD, (m: string, quote: string | undefined) => {
    if (m.charCodeAt(0) === 92) return quote ?? "\\";
    return LOOKALIKE[m] ?? m;
  });
}

/** The look-alike part of foldUnicode alone: tells an escape difference from a quote style one. */
export function foldLookalikes(s: string): string {
  if (!NEEDS_FOLD.test(s)) return s;
  return s.replace(FOLD, (m: string) => (m.charCodeAt(0) === 92 ? m : (LOOKALIKE[m] ?? m)));
}

/** One level of escaping removed: what an over-escaped `\"`, `\'` or `\\n` meant. */
export function unescapeOnce(s: string): string {
  return s.replace(/\\(["'`\\])/g, (_m: string, c: string) => c);
}

export type KeyKind = "trailing" | "indent" | "unicode";

const KEY: Record<KeyKind, (line: string) => string> = {
  trailing: trimEndWs,
  indent: trimWs,
  unicode: (line) => foldUnicode(line).trim(),
};

export function lineKey(kind: KeyKind, line: string): string {
  return KEY[kind](line);
}

/** Blank for every rung: nothing but whitespace, Unicode spaces included. */
export function isBlank(line: string): boolean {
  return lineKey("unicode", line) === "";
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/** Length and three characters of s[start..end): equal keys have equal signatures. */
function signature(s: string, start: number, end: number): number {
  const len = end - start;
  if (len === 0) return 0;
  const mid = s.charCodeAt(start + (len >> 1));
  return (
    (Math.imul(len, 0x9e3779b1) ^
      Math.imul(s.charCodeAt(start), 0x85ebca6b) ^
      Math.imul(mid, 0xc2b2ae35) ^
      s.charCodeAt(end - 1)) |
    0
  );
}

/**
 * The file's lines, keyed per rung against old_text's line keys: each file
 * line gets the id of the old_text key it equals, or -1. Ids are computed
 * once per rung without building a key string for lines whose key length
 * cannot match, so keying a large file allocates almost nothing.
 */
export class LineView {
  private readonly ids = new Map<KeyKind, Int32Array>();
  private readonly interned = new Map<KeyKind, Map<string, number>>();

  constructor(
    readonly lines: readonly string[],
    private readonly oldLines: readonly string[],
  ) {}

  /** The key of one file line. */
  keyAt(kind: KeyKind, i: number): string {
    return KEY[kind](this.lines[i]!);
  }

  /** Ids of some of old_text's lines, in the same id space as fileIds. */
  oldIds(kind: KeyKind, lines: readonly string[]): Int32Array {
    const map = this.internedFor(kind);
    return Int32Array.from(lines, (l) => map.get(KEY[kind](l)) ?? -1);
  }

  fileIds(kind: KeyKind): Int32Array {
    let ids = this.ids.get(kind);
    if (ids) return ids;
    const map = this.internedFor(kind);
    const sigs = new Set<number>();
    for (const key of map.keys()) sigs.add(signature(key, 0, key.length));
    ids = new Int32Array(this.lines.length);
    for (let i = 0; i < this.lines.length; i++) ids[i] = this.idOf(kind, this.lines[i]!, map, sigs);
    this.ids.set(kind, ids);
    return ids;
  }

  private idOf(kind: KeyKind, line: string, map: Map<string, number>, sigs: Set<number>): number {
    if (kind === "unicode" && NEEDS_FOLD.test(line)) return map.get(KEY.unicode(line)) ?? -1;
    const space = kind === "unicode" ? isSpace : isBlankChar;
    let end = line.length;
    while (end > 0 && space(line.charCodeAt(end - 1))) end--;
    let start = 0;
    if (kind !== "trailing") while (start < end && space(line.charCodeAt(start))) start++;
    // Most lines equal no old_text line; the signature says so without a slice or a hash.
    if (!sigs.has(signature(line, start, end))) return -1;
    return map.get(start === 0 && end === line.length ? line : line.slice(start, end)) ?? -1;
  }

  private internedFor(kind: KeyKind): Map<string, number> {
    let map = this.interned.get(kind);
    if (!map) {
      map = new Map();
      for (const line of this.oldLines) {
        const key = KEY[kind](line);
        if (!map.has(key)) map.set(key, map.size);
      }
      this.interned.set(kind, map);
    }
    return map;
  }
}

/** Sum of line lengths without edge whitespace: how much content a span holds. */
export function contentLength(lines: readonly string[]): number {
  let n = 0;
  for (const l of lines) n += trimWs(l).length;
  return n;
}
