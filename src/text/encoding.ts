/**
 * Text in its own encoding: the legacy encodings splice reads and writes
 * besides UTF-8, decoded only when encoding the text gives back exactly the
 * same bytes, so a write can never change a byte the edit did not touch.
 * Only encodings in which a line is independent of its neighbours are here:
 * 0x0A and 0x0D are never part of a multibyte character (or, in UTF-16, are
 * whole code units), so the file can be split, and rewritten, line by line.
 */
import { createRequire } from "node:module";
import type * as Chardet from "chardet";
import type * as Iconv from "iconv-lite";

// Loaded on first use: most files are UTF-8, and the two cost about 25 ms to load,
// which every splice command would pay at start.
const load = createRequire(import.meta.url);
let iconvLib: typeof Iconv | undefined;
let chardetLib: typeof Chardet | undefined;
const codec = (): typeof Iconv => {
  iconvLib ??= load("iconv-lite") as typeof Iconv;
  return iconvLib;
};
const detector = (): typeof Chardet => {
  chardetLib ??= load("chardet") as typeof Chardet;
  return chardetLib;
};

/** The legacy encodings, by the name results and errors use. */
export const ENCODINGS = [
  "windows-1252",
  "iso-8859-1",
  "iso-8859-15",
  "shift_jis",
  "cp932",
  "euc-jp",
  "euc-kr",
  "gbk",
  "gb18030",
  "big5",
  "utf-16le",
  "utf-16be",
] as const;
export type Encoding = (typeof ENCODINGS)[number];

const ALIASES: Record<string, Encoding | "utf-8"> = {
  utf8: "utf-8",
  utf8bom: "utf-8",
  cp1252: "windows-1252",
  windows1252: "windows-1252",
  latin1: "iso-8859-1",
  iso88591: "iso-8859-1",
  l1: "iso-8859-1",
  iso885915: "iso-8859-15",
  latin9: "iso-8859-15",
  shiftjis: "shift_jis",
  sjis: "shift_jis",
  cp932: "cp932",
  ms932: "cp932",
  windows31j: "cp932",
  eucjp: "euc-jp",
  euckr: "euc-kr",
  cp949: "euc-kr",
  uhc: "euc-kr",
  gbk: "gbk",
  cp936: "gbk",
  gb2312: "gbk",
  gb18030: "gb18030",
  big5: "big5",
  cp950: "big5",
  big5hkscs: "big5",
  utf16le: "utf-16le",
  utf16be: "utf-16be",
  // git's names for UTF-16 with a byte order mark (the mark is found before any config is asked).
  utf16lebom: "utf-16le",
  utf16bebom: "utf-16be",
};

/** The encoding a user or a config names ("Shift-JIS", "cp1252", "latin1"), or undefined. */
export function encodingNamed(name: string): Encoding | "utf-8" | undefined {
  return ALIASES[name.toLowerCase().replace(/[-_\s]/g, "")];
}

export const isUtf16 = (encoding: string | undefined): boolean =>
  encoding === "utf-16le" || encoding === "utf-16be";

/** The byte order mark's length in these bytes for this encoding (0 when none). */
export function bomLength(bytes: Uint8Array, encoding: string | undefined): number {
  if (encoding === "utf-16le") return bytes[0] === 0xff && bytes[1] === 0xfe ? 2 : 0;
  if (encoding === "utf-16be") return bytes[0] === 0xfe && bytes[1] === 0xff ? 2 : 0;
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/** The UTF-16 encoding a byte order mark names, or undefined (UTF-32's marks are not UTF-16). */
export function utf16Bom(bytes: Uint8Array): Encoding | undefined {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] !== 0xff || bytes[1] !== 0xfe) return undefined;
  return bytes[2] === 0 && bytes[3] === 0 ? undefined : "utf-16le";
}

/**
 * The text of `bytes` in `encoding`, a BOM kept as U+FEFF; undefined unless
 * encoding that text gives back exactly these bytes.
 */
export function decodeStrict(bytes: Uint8Array, encoding: Encoding): string | undefined {
  if (isUtf16(encoding) && bytes.length % 2 !== 0) return undefined;
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const text = codec().decode(buffer, encoding, { stripBOM: false });
  const back = codec().encode(text, encoding, { addBOM: false });
  return back.length === bytes.length && Buffer.compare(back, buffer) === 0 ? text : undefined;
}

/** Characters of `text` that `encoding` cannot hold, each once, in order. */
export function unencodable(text: string, encoding: Encoding): string[] {
  const bad = new Set<string>();
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80 && !isUtf16(encoding)) continue;
    const back = codec().decode(codec().encode(char, encoding, { addBOM: false }), encoding, {
      stripBOM: false,
    });
    if (back !== char) bad.add(char);
  }
  return [...bad];
}

/** Text that an encoding cannot hold: the characters it would have to replace. */
export class UnencodableError extends Error {
  constructor(
    readonly encoding: Encoding,
    readonly chars: string[],
  ) {
    super(`${encoding} cannot hold ${chars.map(describeChar).join(", ")}`);
    this.name = "UnencodableError";
  }
}

/** `"😀" (U+1F600)`: the character and its code point, so a model can find it. */
export function describeChar(char: string): string {
  const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `${JSON.stringify(char)} (U+${code})`;
}

/** `text` as bytes in `encoding`, or an UnencodableError naming what it cannot hold. */
export function encodeStrict(text: string, encoding: Encoding): Uint8Array {
  const bytes = codec().encode(text, encoding, { addBOM: false });
  // A character the encoding lacks comes back as "?" (or a replacement): compare the round trip.
  if (codec().decode(bytes, encoding, { stripBOM: false }) !== text) {
    throw new UnencodableError(encoding, unencodable(text, encoding));
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

export interface Candidate {
  encoding: Encoding;
  /** chardet's confidence, 0..100. */
  confidence: number;
}

/** chardet's names for the encodings it tells apart, and ours to try for each, in order. */
const FAMILIES: Record<string, Encoding[]> = {
  "ISO-8859-1": ["windows-1252", "iso-8859-1"],
  "windows-1252": ["windows-1252", "iso-8859-1"],
  Shift_JIS: ["shift_jis", "cp932"],
  "EUC-JP": ["euc-jp"],
  "EUC-KR": ["euc-kr"],
  GB18030: ["gbk", "gb18030"],
  Big5: ["big5"],
  "UTF-16LE": ["utf-16le"],
  "UTF-16BE": ["utf-16be"],
};

/** At least this confidence, and this far ahead of the next candidate, to decode without being told. */
export const SURE_CONFIDENCE = 80;
export const SURE_MARGIN = 20;

/**
 * The encodings these (non-UTF-8) bytes may be in, most likely first, with
 * chardet's confidence; only those that decode and encode back byte for byte.
 */
export function guessEncodings(bytes: Uint8Array): Candidate[] {
  const out: Candidate[] = [];
  for (const { name, confidence } of detector().analyse(bytes)) {
    const family = FAMILIES[name];
    const encoding = family?.find((e) => decodeStrict(bytes, e) !== undefined);
    if (encoding && !out.some((c) => c.encoding === encoding)) out.push({ encoding, confidence });
  }
  // Too few letters for chardet: any bytes are Western single-byte text, which is only a guess.
  if (out.length === 0) {
    const western = FAMILIES["windows-1252"]!.find((e) => decodeStrict(bytes, e) !== undefined);
    if (western) out.push({ encoding: western, confidence: 0 });
  }
  return out;
}

/** The one candidate sure enough to decode with, or undefined when it is a guess. */
export function sureCandidate(candidates: Candidate[]): Candidate | undefined {
  const [first, second] = candidates;
  if (!first || first.confidence < SURE_CONFIDENCE) return undefined;
  if (second && first.confidence - second.confidence < SURE_MARGIN) return undefined;
  return first;
}

/**
 * The WHATWG Encoding Standard's label for `encoding`: the name ripgrep's
 * `--encoding` and `TextDecoder` take (ISO-8859-1 is read as Windows-1252 there).
 */
export function whatwgLabel(encoding: Encoding): string {
  return encoding === "cp932" ? "windows-31j" : encoding;
}

/**
 * `text` as bytes in each legacy encoding that holds it and reads ASCII as
 * ASCII (not UTF-16), each byte sequence once: what a search for `text`
 * looks for in files whose encoding nothing declares.
 */
export function byteForms(text: string): Uint8Array[] {
  const forms = new Map<string, Uint8Array>();
  for (const encoding of ENCODINGS) {
    if (isUtf16(encoding)) continue;
    try {
      const bytes = encodeStrict(text, encoding);
      forms.set(Buffer.from(bytes).toString("hex"), bytes);
    } catch {
      // This encoding cannot hold the text: no file in it can match.
    }
  }
  return [...forms.values()];
}

let westernTable: string[] | undefined;

/**
 * `bytes` decoded as the WHATWG Encoding Standard decodes them, as ripgrep's
 * `--encoding` reads a file (a BOM of the encoding dropped, a bad sequence
 * replaced). `TextDecoder`, except for Windows-1252 (which the standard
 * reads ISO-8859-1 as): Node 20's TextDecoder reads that one as ISO-8859-1.
 */
export function decodeWhatwg(bytes: Uint8Array, encoding: Encoding): string {
  const label = whatwgLabel(encoding);
  if (new TextDecoder(label).encoding !== "windows-1252") {
    return new TextDecoder(label).decode(bytes);
  }
  // The five bytes Windows-1252 leaves undefined stand for the C1 controls of their value.
  westernTable ??= Array.from({ length: 256 }, (_, b) => {
    const char = codec().decode(Buffer.from([b]), "windows-1252");
    return char === "\uFFFD" ? String.fromCharCode(b) : char;
  });
  const table = westernTable;
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += table[bytes[i]!];
  return out;
}
