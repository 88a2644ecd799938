/**
 * The one content hash: history names blobs by it and a compare-and-swap
 * compares by it; and, with it, the tag a hashline read shows for the same
 * bytes (text/hashline.ts defines the tag).
 */
import { createHash } from "node:crypto";
import type { Encoding } from "../text/encoding.js";
import { bytesTag } from "../text/hashline.js";

export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The SHA-256 of the bytes and the tag of their text. Without a BOM or CR the
 * bytes are the normalized text already, so one hash serves both.
 */
export function identify(
  bytes: Uint8Array,
  sha = sha256(bytes),
  encoding?: Encoding,
): { sha: string; tag: string } {
  if (encoding) return { sha, tag: bytesTag(bytes, encoding) };
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const normalized = !bom && bytes.indexOf(13) === -1;
  return { sha, tag: normalized ? sha.slice(0, 4).toUpperCase() : bytesTag(bytes) };
}
