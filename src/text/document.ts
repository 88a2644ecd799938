/**
 * Bytes <-> lines. A Document keeps everything needed to write the file back
 * byte for byte: the BOM, each line's own terminator (so mixed files stay
 * mixed), and whether the last line ends with a newline.
 */

export type Eol = "\n" | "\r\n";

export interface Document {
  bom: boolean;
  /** Line texts without terminators. An empty file has no lines. */
  lines: string[];
  /** Terminator of each line: "\n", "\r\n", or "" for a last line without one. */
  eols: string[];
  /** The dominant terminator; new lines get this one. */
  eol: Eol;
}

const BOM = "\uFEFF";
const BINARY_SNIFF_BYTES = 8192;
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

export type DecodeFailure = { kind: "binary"; reason: string };

/** Why these bytes are not a text file we may edit, or undefined when they are. */
export function sniffBinary(bytes: Uint8Array): DecodeFailure | undefined {
  const head = bytes.subarray(0, BINARY_SNIFF_BYTES);
  const nul = head.indexOf(0);
  if (nul !== -1) return { kind: "binary", reason: `it contains a NUL byte at offset ${nul}` };
  return undefined;
}

/**
 * Decode UTF-8 strictly: a lossy decode would replace bad bytes with U+FFFD
 * and the next write would silently destroy them.
 */
export function decodeText(bytes: Uint8Array): string | DecodeFailure {
  const binary = sniffBinary(bytes);
  if (binary) return binary;
  try {
    return decoder.decode(bytes);
  } catch {
    return { kind: "binary", reason: "it is not valid UTF-8" };
  }
}

export function parseDocument(text: string): Document {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const lines: string[] = [];
  const eols: string[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  while (start < body.length) {
    const nl = body.indexOf("\n", start);
    if (nl === -1) {
      lines.push(body.slice(start));
      eols.push("");
      break;
    }
    if (nl > start && body.charCodeAt(nl - 1) === 13) {
      lines.push(body.slice(start, nl - 1));
      eols.push("\r\n");
      crlf++;
    } else {
      lines.push(body.slice(start, nl));
      eols.push("\n");
      lf++;
    }
    start = nl + 1;
  }
  return { bom, lines, eols, eol: crlf > lf ? "\r\n" : "\n" };
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

export function documentFromBytes(bytes: Uint8Array): Document | DecodeFailure {
  const text = decodeText(bytes);
  return typeof text === "string" ? parseDocument(text) : text;
}

export function documentToBytes(doc: Document): Uint8Array {
  return encoder.encode(renderDocument(doc));
}

export function hasFinalNewline(doc: Document): boolean {
  const last = doc.eols.at(-1);
  return last !== undefined && last !== "";
}

/** Text with the BOM removed and every terminator as LF: what a tag names. */
export function normalizedText(doc: Document): string {
  if (doc.lines.length === 0) return "";
  return doc.lines.join("\n") + (hasFinalNewline(doc) ? "\n" : "");
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
  return { bom: original.bom, lines, eols: out, eol: original.eol };
}

/**
 * A new version of `original` with these lines: lines the change left alone
 * at the start and end keep their own terminators (so a mixed file stays
 * mixed), changed lines get the dominant one, and the last line ends with a
 * newline exactly when `finalNewline` says so.
 */
export function restyle(original: Document, lines: string[], finalNewline: boolean): Document {
  const old = original.lines;
  const eols: string[] = new Array(lines.length).fill(original.eol);
  let p = 0;
  while (p < lines.length && p < old.length && lines[p] === old[p]) {
    eols[p] = original.eols[p] || original.eol;
    p++;
  }
  for (let s = 1; s <= Math.min(lines.length, old.length) - p; s++) {
    if (lines[lines.length - s] !== old[old.length - s]) break;
    eols[lines.length - s] = original.eols[old.length - s] || original.eol;
  }
  if (lines.length > 0) eols[lines.length - 1] = finalNewline ? eols[lines.length - 1]! : "";
  return { bom: original.bom, lines, eols, eol: original.eol };
}
