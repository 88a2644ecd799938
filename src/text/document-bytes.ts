/**
 * A new version as bytes, and new bytes as a version, through only what
 * changed: the lines both share at their ends are copied or kept as they
 * are, so a one-line edit of a 10 MB file encodes and decodes one line.
 */
import { Buffer } from "node:buffer";
import {
  type DecodeFailure,
  type Document,
  decodeRange,
  documentFromBytes,
  encodeIn,
  notText,
  renderDocument,
  splitLines,
} from "./document.js";
import { bomLength, isUtf16 } from "./encoding.js";

/**
 * The bytes of `next`, a new version of the document `prev` was parsed from
 * (`prevBytes`): the unchanged lines at both ends are copied as bytes, and
 * only the changed middle is rendered and encoded. A one-line edit of a
 * 10 MB file encodes one line, not 10 MB.
 */
export function changedBytes(prevBytes: Uint8Array, prev: Document, next: Document): Uint8Array {
  // A new version is never converted by accident: it is written in the encoding it was read in.
  const encoding = next.encoding ?? prev.encoding;
  if (prev.bom !== next.bom || encoding !== prev.encoding) {
    return encodeIn(renderDocument(next), encoding);
  }
  const a = prev.lines;
  const b = next.lines;
  const min = Math.min(a.length, b.length);
  let p = 0;
  while (p < min && a[p] === b[p] && prev.eols[p] === next.eols[p]) p++;
  let s = 0;
  while (
    s < min - p &&
    a[a.length - 1 - s] === b[b.length - 1 - s] &&
    prev.eols[a.length - 1 - s] === next.eols[b.length - 1 - s]
  ) {
    s++;
  }
  const start = lineOffset(prevBytes, prev, p);
  const end = lineOffset(prevBytes, prev, a.length - s);
  const middle: string[] = [];
  for (let i = p; i < b.length - s; i++) middle.push(b[i]!, next.eols[i]!);
  const mid = encodeIn(middle.join(""), encoding);
  const out = new Uint8Array(start + mid.length + (prevBytes.length - end));
  out.set(prevBytes.subarray(0, start), 0);
  out.set(mid, start);
  out.set(prevBytes.subarray(end), start + mid.length);
  return out;
}

/** Byte offset where line `index` (0-based) starts; the end of the bytes past the last line. */
function lineOffset(bytes: Uint8Array, doc: Document, index: number): number {
  const { bom, encoding } = doc;
  if (isUtf16(encoding)) return utf16LineOffset(bytes, encoding === "utf-16le", index);
  let pos = bom ? bomLength(bytes, encoding) : 0;
  for (let i = 0; i < index; i++) {
    const nl = bytes.indexOf(10, pos);
    if (nl === -1) return bytes.length;
    pos = nl + 1;
  }
  return pos;
}

/** lineOffset for UTF-16: an LF is the code unit 0x000A, at an even offset. */
function utf16LineOffset(bytes: Uint8Array, le: boolean, index: number): number {
  let pos = bomLength(bytes, le ? "utf-16le" : "utf-16be");
  const [lo, hi] = le ? [10, 0] : [0, 10];
  for (let i = 0; i < index; i++) {
    let nl = bytes.indexOf(lo, pos);
    while (nl !== -1 && ((nl - pos) % 2 !== 0 || bytes[nl + 1] !== hi))
      nl = bytes.indexOf(lo, nl + 1);
    if (nl === -1) return bytes.length;
    pos = nl + 2;
  }
  return pos;
}

/**
 * Parses `bytes`, a new version of the file `prev` was parsed from
 * (`prevBytes`), decoding only the lines between the parts the two share at
 * both ends; the shared lines are prev's own strings. A formatter touching
 * one line of a 10 MB file costs one line of decoding, and later diffs find
 * the unchanged lines equal by identity instead of by content.
 */
export function reparseDocument(
  prevBytes: Uint8Array,
  prev: Document,
  bytes: Uint8Array,
): Document | DecodeFailure {
  // Files in legacy encodings are rare and small: decoded whole, in the encoding prev was read in.
  if (prev.encoding) return documentFromBytes(bytes, prev.encoding);
  const bom = startsWithBom(bytes);
  if (bom !== prev.bom || bom !== startsWithBom(prevBytes)) return documentFromBytes(bytes);
  const failure = notText(bytes);
  if (failure) return failure;
  const start = bom ? 3 : 0;
  const prefix = commonPrefix(prevBytes, bytes);
  const suffix = commonSuffix(prevBytes, bytes, Math.min(prevBytes.length, bytes.length) - prefix);
  // Whole lines inside the shared prefix, and inside the shared suffix (a
  // tail line starts right after a newline that is itself shared).
  const headEnd = Math.max(start, prefix > 0 ? bytes.lastIndexOf(10, prefix - 1) + 1 : 0);
  const newline = suffix > 0 ? bytes.indexOf(10, bytes.length - suffix) : -1;
  const tailStart = newline === -1 ? bytes.length : newline + 1;
  const head = countLines(bytes, start, headEnd);
  const tail = countLines(bytes, tailStart, bytes.length);
  const middle = splitLines(decodeRange(bytes, headEnd, tailStart));
  const lines = around(prev.lines, head, middle.lines, tail);
  const eols = around(prev.eols, head, middle.eols, tail);
  let crlf = 0;
  let lf = 0;
  for (const e of eols) {
    if (e === "\r\n") crlf++;
    else if (e === "\n") lf++;
  }
  return { bom, lines, eols, eol: crlf > lf ? "\r\n" : "\n" };
}

/**
 * The first `head` and last `tail` items of `all` around `middle`, copied
 * into one array of the final size: slices and concat would allocate three
 * large arrays where one will do.
 */
function around(all: string[], head: number, middle: string[], tail: number): string[] {
  const out: string[] = new Array(head + middle.length + tail);
  for (let i = 0; i < head; i++) out[i] = all[i]!;
  for (let i = 0; i < middle.length; i++) out[head + i] = middle[i]!;
  const from = all.length - tail;
  for (let i = 0; i < tail; i++) out[head + middle.length + i] = all[from + i]!;
  return out;
}

function startsWithBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** Lines in bytes[from, to): newlines, plus a last line without one. */
function countLines(bytes: Uint8Array, from: number, to: number): number {
  let count = 0;
  for (let nl = bytes.indexOf(10, from); nl !== -1 && nl < to; nl = bytes.indexOf(10, nl + 1)) {
    count++;
  }
  const last = to > from && bytes[to - 1] !== 10 && to === bytes.length;
  return count + (last ? 1 : 0);
}

/** Chunk sizes for comparing bytes natively: big strides first, then finer. */
const STRIDES = [65536, 4096, 256, 16, 1];

function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  for (const step of STRIDES) {
    while (
      i + step <= n &&
      Buffer.compare(a.subarray(i, i + step), b.subarray(i, i + step)) === 0
    ) {
      i += step;
    }
  }
  return i;
}

/** Bytes the two share at their ends, at most `max`. */
function commonSuffix(a: Uint8Array, b: Uint8Array, max: number): number {
  let s = 0;
  for (const step of STRIDES) {
    while (s + step <= max) {
      const x = a.subarray(a.length - s - step, a.length - s);
      const y = b.subarray(b.length - s - step, b.length - s);
      if (Buffer.compare(x, y) !== 0) break;
      s += step;
    }
  }
  return s;
}
