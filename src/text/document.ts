/**
 * Bytes <-> lines. A Document keeps everything needed to write the file back
 * byte for byte: the BOM, each line's own terminator (so mixed files stay
 * mixed), and whether the last line ends with a newline.
 */
import { Buffer, isAscii, isUtf8 } from "node:buffer";
import { decodeStrict, type Encoding, encodeStrict, isUtf16 } from "./encoding.js";

export type Eol = "\n" | "\r\n";

export interface Document {
  bom: boolean;
  /** Line texts without terminators. An empty file has no lines. */
  lines: string[];
  /** Terminator of each line: "\n", "\r\n", or "" for a last line without one. */
  eols: string[];
  /** The dominant terminator; new lines get this one. */
  eol: Eol;
  /** The file's encoding when it is not UTF-8; the bytes are written back in it. */
  encoding?: Encoding;
}

const BOM = "\uFEFF";
const BINARY_SNIFF_BYTES = 8192;
const encoder = new TextEncoder();

export type DecodeFailure = { kind: "binary"; reason: string };

/** Why these bytes are not a text file we may edit, or undefined when they are. */
export function sniffBinary(bytes: Uint8Array, encoding?: Encoding): DecodeFailure | undefined {
  const head = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (isUtf16(encoding)) {
    for (let i = 0; i + 1 < head.length; i += 2) {
      if (head[i] === 0 && head[i + 1] === 0) {
        return { kind: "binary", reason: `it contains a NUL character at offset ${i}` };
      }
    }
    return undefined;
  }
  const nul = head.indexOf(0);
  if (nul !== -1) return { kind: "binary", reason: `it contains a NUL byte at offset ${nul}` };
  return undefined;
}

/**
 * Decode UTF-8 strictly: a lossy decode would replace bad bytes with U+FFFD
 * and the next write would silently destroy them.
 */
export function decodeText(bytes: Uint8Array): string | DecodeFailure {
  return notText(bytes) ?? decodeRange(bytes, 0, bytes.length);
}

/** Why these bytes are not UTF-8 text, or undefined when they are. */
export function notText(bytes: Uint8Array): DecodeFailure | undefined {
  // isUtf8 is native (simdutf); TextDecoder's fatal mode is much slower.
  const binary = sniffBinary(bytes);
  if (binary) return binary;
  return isUtf8(bytes) ? undefined : { kind: "binary", reason: "it is not valid UTF-8" };
}

/** Bytes [from, to) of checked UTF-8 as a string. */
export function decodeRange(bytes: Uint8Array, from: number, to: number): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from);
  // Pure ASCII (most source files) takes V8's much faster one-byte path.
  return buffer.toString(isAscii(buffer) ? "ascii" : "utf8");
}

export function parseDocument(text: string): Document {
  const bom = text.startsWith(BOM);
  const { lines, eols, crlf, lf } = splitLines(bom ? text.slice(1) : text);
  const doc: Document = { bom, lines, eols, eol: crlf > lf ? "\r\n" : "\n" };
  // Without a BOM or CRLF the text already is the normalized text: no join needed later.
  if (!bom && crlf === 0) normalized.set(doc, text);
  return doc;
}

/** Lines and their terminators, counted by kind. A BOM here is text. */
export function splitLines(body: string) {
  // split() is native and fast; a CR before each LF is peeled off afterwards.
  const lines = body === "" ? [] : body.split("\n");
  const finalNewline = lines.at(-1) === "";
  if (finalNewline) lines.pop();
  const eols: string[] = new Array(lines.length);
  let crlf = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const last = i === lines.length - 1 && !finalNewline;
    if (!last && line.charCodeAt(line.length - 1) === 13) {
      lines[i] = line.slice(0, -1);
      eols[i] = "\r\n";
      crlf++;
    } else {
      eols[i] = last ? "" : "\n";
    }
  }
  const lf = lines.length - crlf - (lines.length > 0 && !finalNewline ? 1 : 0);
  return { lines, eols, crlf, lf };
}

export function renderDocument(doc: Document): string {
  const { lines, eols } = doc;
  const n = lines.length;
  // Fast path: one terminator style throughout (the common case) joins in one go.
  const eol = eols[0];
  let uniform = n > 0;
  for (let i = 1; i < n - 1 && uniform; i++) uniform = eols[i] === eol;
  if (uniform && (n < 2 || eols[n - 2] === eol)) {
    return (doc.bom ? BOM : "") + lines.join(eol) + (eols[n - 1] ?? "");
  }
  const parts: string[] = doc.bom ? [BOM] : [];
  for (let i = 0; i < doc.lines.length; i++) {
    parts.push(doc.lines[i]!, doc.eols[i] ?? doc.eol);
  }
  return parts.join("");
}

/**
 * The document of `bytes`: UTF-8 without `encoding`, else in that encoding,
 * and then only when its text encodes back to exactly these bytes.
 */
export function documentFromBytes(
  bytes: Uint8Array,
  encoding?: Encoding,
): Document | DecodeFailure {
  if (encoding) return documentIn(bytes, encoding);
  const text = decodeText(bytes);
  return typeof text === "string" ? parseDocument(text) : text;
}

function documentIn(bytes: Uint8Array, encoding: Encoding): Document | DecodeFailure {
  const binary = sniffBinary(bytes, encoding);
  if (binary) return binary;
  const text = decodeStrict(bytes, encoding);
  if (text === undefined) return { kind: "binary", reason: `it is not valid ${encoding}` };
  const doc = parseDocument(text);
  // Only UTF-16 has a byte order mark among the legacy encodings.
  if (doc.bom && !isUtf16(encoding))
    return { kind: "binary", reason: `it is not valid ${encoding}` };
  doc.encoding = encoding;
  return doc;
}

/** The text's bytes in the document's encoding; throws UnencodableError for text it cannot hold. */
export function encodeIn(text: string, encoding: Encoding | undefined): Uint8Array {
  return encoding ? encodeStrict(text, encoding) : encoder.encode(text);
}

export function documentToBytes(doc: Document): Uint8Array {
  return encodeIn(renderDocument(doc), doc.encoding);
}

export function hasFinalNewline(doc: Document): boolean {
  const last = doc.eols.at(-1);
  return last !== undefined && last !== "";
}

/**
 * One edit asks for the normalized text several times (tag, syntax check,
 * validation) and joining a 1 MB file costs milliseconds, so it is kept per
 * Document. Documents are never changed once built; edits make new ones.
 */
const normalized = new WeakMap<Document, string>();

/** Text with the BOM removed and every terminator as LF: what a tag names. */
export function normalizedText(doc: Document): string {
  let text = normalized.get(doc);
  if (text === undefined) {
    text = doc.lines.length === 0 ? "" : doc.lines.join("\n") + (hasFinalNewline(doc) ? "\n" : "");
    normalized.set(doc, text);
  }
  return text;
}

/**
 * What tells two versions with the same text apart ("BOM", "line endings"),
 * or undefined when their text differs. The text is what a tag names, so two
 * such versions share a tag and only this says what changed between them.
 */
export function styleChange(a: Document, b: Document): string | undefined {
  if (normalizedText(a) !== normalizedText(b)) return undefined;
  const what: string[] = [];
  if (a.bom !== b.bom) what.push("byte order mark");
  if (a.eols.some((e, i) => e !== b.eols[i])) what.push("line endings");
  return what.join(" and ") || "bytes";
}

export function lineEndingStyle(doc: Document): "lf" | "crlf" | "mixed" | "none" {
  let lf = false;
  let crlf = false;
  for (const e of doc.eols) {
    if (e === "\n") lf = true;
    else if (e === "\r\n") crlf = true;
  }
  if (lf && crlf) return "mixed";
  return crlf ? "crlf" : lf ? "lf" : "none";
}

/**
 * Whether parsing this document's bytes gives this very document back. An
 * edit can spell bytes another way: a last empty line without a newline, a
 * line ending in CR before an LF, a leading U+FEFF without `bom`, a stale
 * dominant `eol`. Such a document must not stand in for a parse.
 */
const SURROGATE = /[\uD800-\uDFFF]/;
/** Encoded, a lone surrogate becomes U+FFFD: the bytes would not give the line back. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isCanonical(doc: Document): boolean {
  const { lines, eols } = doc;
  const n = lines.length;
  if (n > 0 && !doc.bom && lines[0]!.startsWith(BOM)) return false;
  let crlf = 0;
  let lf = 0;
  for (let i = 0; i < n; i++) {
    const line = lines[i]!;
    const eol = eols[i];
    if (line.includes("\n") || (SURROGATE.test(line) && LONE_SURROGATE.test(line))) return false;
    if (eol === "\n") {
      if (line.endsWith("\r")) return false;
      lf++;
    } else if (eol === "\r\n") {
      crlf++;
    } else if (eol !== "" || i < n - 1 || line === "") {
      return false;
    }
  }
  return doc.eol === (crlf > lf ? "\r\n" : "\n");
}

/**
 * Rebuild a document with new lines, keeping the original's style: untouched
 * terminators come from `eols` (undefined = use the dominant style) and the
 * last line keeps the original's final-newline state.
 */
export function withLines(
  original: Document,
  lines: string[],
  eols: (string | undefined)[],
): Document {
  const finalNewline = original.lines.length === 0 ? true : hasFinalNewline(original);
  const out: string[] = new Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const e = eols[i];
    out[i] = e === undefined || e === "" ? original.eol : e;
  }
  if (lines.length > 0) {
    const last = lines.length - 1;
    out[last] = finalNewline ? out[last]! : "";
  }
  return { bom: original.bom, lines, eols: out, eol: original.eol, ...encodingOf(original) };
}

/** `{encoding}` of a document not in UTF-8, to spread into a new version of it. */
export function encodingOf(doc: Document | undefined): { encoding?: Encoding } {
  return doc?.encoding ? { encoding: doc.encoding } : {};
}

/**
 * A new version of `original` with these lines: lines the change left alone
 * at the start and end keep their own terminators (so a mixed file stays
 * mixed), changed lines that replace one line each keep that line's, added
 * lines get the dominant one, and the last line ends with a newline exactly
 * when `finalNewline` says so.
 */
export function restyle(original: Document, lines: string[], finalNewline: boolean): Document {
  const old = original.lines;
  const own = (i: number) => original.eols[i] || original.eol;
  const eols: string[] = new Array(lines.length).fill(original.eol);
  let p = 0;
  while (p < lines.length && p < old.length && lines[p] === old[p]) {
    eols[p] = own(p);
    p++;
  }
  let s = 0;
  while (s < Math.min(lines.length, old.length) - p) {
    if (lines[lines.length - 1 - s] !== old[old.length - 1 - s]) break;
    eols[lines.length - 1 - s] = own(old.length - 1 - s);
    s++;
  }
  // As many lines as before: the changed middle replaced its lines one for one.
  if (lines.length === old.length) for (let i = p; i < lines.length - s; i++) eols[i] = own(i);
  if (lines.length > 0) eols[lines.length - 1] = finalNewline ? eols[lines.length - 1]! : "";
  return { bom: original.bom, lines, eols, eol: original.eol, ...encodingOf(original) };
}
