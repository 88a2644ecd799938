/**
 * Hashline rendering: `¶path#TAG`, then `N| text` lines, then bracketed
 * notices. A model can always tell a file line from a notice, and the tag
 * names exactly the version it was shown.
 */
import { createHash } from "node:crypto";
import { type Document, documentFromBytes, normalizedText } from "./document.js";
import type { Encoding } from "./encoding.js";
import { escapeControls } from "./names.js";

export const TAG_PATTERN = /^[0-9A-F]{4}$/;

/** 4 uppercase hex of the normalized text: BOM and CRLF do not change it. */
export function tagOf(normalized: string): string {
  return createHash("sha256").update(normalized).digest("hex").slice(0, 4).toUpperCase();
}

export function documentTag(doc: Document): string {
  return tagOf(normalizedText(doc));
}

/**
 * The tag of the text these bytes hold, worked out on the bytes: the BOM
 * dropped and every CR before an LF removed, exactly what parsing
 * normalizes. The tag so depends on the bytes alone, never on how a
 * Document happens to spell them.
 */
export function bytesTag(bytes: Uint8Array, encoding?: Encoding): string {
  if (encoding) {
    // The tag names the text, whatever bytes spell it.
    const doc = documentFromBytes(bytes, encoding);
    if (!("kind" in doc)) return documentTag(doc);
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  const parts: Uint8Array[] = [];
  let from = 0;
  for (let cr = body.indexOf(13); cr !== -1; cr = body.indexOf(13, cr + 1)) {
    if (body[cr + 1] !== 10) continue;
    parts.push(body.subarray(from, cr));
    from = cr + 1;
  }
  parts.push(body.subarray(from));
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("hex").slice(0, 4).toUpperCase();
}

/** `¶path#TAG`, and ` (shift_jis)` after it for a file not in UTF-8. */
export function header(path: string, tag: string, encoding?: Encoding): string {
  return `¶${escapeControls(path)}#${tag}${encoding ? ` (${encoding})` : ""}`;
}

/** Normalizes a model-supplied tag ("#a1b2", "a1b2") or returns undefined. */
export function parseTag(input: string): string | undefined {
  const t = input.trim().replace(/^#/, "").toUpperCase();
  return TAG_PATTERN.test(t) ? t : undefined;
}

export interface RenderOptions {
  /** 1-based inclusive first line to show. */
  start?: number;
  /** 1-based inclusive last line to show. */
  end?: number;
  /** At most this many lines are rendered; the rest is named in a notice. */
  maxLines?: number;
  /** Longer lines are cut to this many characters, with a notice. */
  maxLineLength?: number;
  /**
   * The content (header, lines, notices) stays within this many UTF-8 bytes:
   * the lines stop where the next would not fit, and the rest is named in a
   * notice, as for maxLines. At least one line is always shown.
   */
  maxBytes?: number;
}

/** Bytes kept for the notices of a read cut short (the first line after the header, the last). */
const NOTICE_BYTES = 600;

export interface Rendered {
  /** Header, numbered lines, notices, joined by "\n". */
  content: string;
  /** The 1-based inclusive range actually shown; [0, 0] for an empty file. */
  shown: [number, number];
  truncatedLines: number[];
  notices: string[];
}

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_LINE_LENGTH = 2000;

export function renderHashline(
  doc: Document,
  path: string,
  tag: string,
  options: RenderOptions = {},
): Rendered {
  const total = doc.lines.length;
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxLen = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  const start = Math.max(1, options.start ?? 1);
  const wantedEnd = Math.min(total, options.end ?? total);
  let end = Math.min(wantedEnd, start + maxLines - 1);
  const out: string[] = [header(path, tag, doc.encoding)];
  const truncatedLines: number[] = [];
  const notices: string[] = [];
  const room = (options.maxBytes ?? Number.POSITIVE_INFINITY) - NOTICE_BYTES;
  let bytes = Buffer.byteLength(out[0]!) + 1;

  for (let n = start; n <= end; n++) {
    const line = doc.lines[n - 1]!;
    const long = line.length > maxLen;
    const text = `${n}| ${long ? cut(line, maxLen) : line}`;
    bytes += Buffer.byteLength(text) + 1;
    if (bytes > room && n > start) {
      end = n - 1;
      break;
    }
    if (long) truncatedLines.push(n);
    out.push(text);
  }
  if (total === 0) notices.push("[empty file]");
  if (truncatedLines.length > 0) {
    const list = truncatedLines.slice(0, 10).join(", ");
    const more = truncatedLines.length > 10 ? ` and ${truncatedLines.length - 10} more` : "";
    notices.push(
      `[lines ${list}${more} cut at ${maxLen} characters; search the file to see their full text]`,
    );
  }
  if (end < wantedEnd) {
    // Said first too, for a client that keeps only the two ends of a long result.
    out.splice(
      1,
      0,
      `[lines ${start}..${end} of ${total} shown; the last line says how to read on]`,
    );
    notices.push(
      `[showing lines ${start}..${end} of ${total}; read the rest with line_range "${end + 1}..${Math.min(wantedEnd, end + (end - start + 1))}"]`,
    );
  } else if (total > 0 && (start > 1 || end < total)) {
    notices.push(`[showing lines ${start}..${end} of ${total}]`);
  }
  out.push(...notices);
  return {
    content: out.join("\n"),
    shown: total === 0 ? [0, 0] : [start, end],
    truncatedLines,
    notices,
  };
}

/** Cuts at a character boundary: never half of a surrogate pair. */
function cut(line: string, max: number): string {
  const code = line.charCodeAt(max - 1);
  return line.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

const NUMBERED = /^(\d+)\| ?/;

/**
 * Strips copied `N| ` prefixes when every line carries one and the numbers
 * count up by one: then they are a copy of read output, not file content.
 */
export function stripNumberedPrefixes(lines: string[]): string[] | undefined {
  if (lines.length === 0) return undefined;
  let expected: number | undefined;
  const out: string[] = [];
  for (const line of lines) {
    const m = NUMBERED.exec(line);
    if (!m) return undefined;
    const n = Number(m[1]);
    if (expected !== undefined && n !== expected) return undefined;
    expected = n + 1;
    out.push(line.slice(m[0].length));
  }
  return out;
}

const HEADER_LINE = /^¶\S.*#[0-9A-Fa-f]{4}$/;

/** Does this text look like splice read output (header and numbered lines)? */
export function looksLikeHashline(text: string): boolean {
  const lines = text.split(/\r?\n/);
  if (!HEADER_LINE.test(lines[0] ?? "")) return false;
  const body = lines.slice(1).filter((l) => l !== "" && !/^\[.*\]$/.test(l));
  return body.length === 0 || stripNumberedPrefixes(body) !== undefined;
}
