/**
 * Recently decoded versions of each file, reused when a read returns the very
 * same bytes: decoding and splitting 1 MB costs about 10 ms, comparing it a
 * tenth of one. An entry is used only on a byte-for-byte match, so the cache
 * can never serve a stale version and is shared by every toolkit in the
 * process. Cached documents are frozen: nothing may change them in place.
 */
import type { Document } from "../text/document.js";

export interface Decoded {
  bytes: Uint8Array;
  doc: Document;
  /** The tag of the normalized text. */
  tag: string;
  /** SHA-256 of the bytes, hex. */
  sha: string;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** Two per file: the current version, and the one before it that a stale edit merges from. */
const VERSIONS_PER_FILE = 2;

export class DecodedCache {
  /** Per key, newest first; keys in least-recently-used order. */
  readonly #entries = new Map<string, Decoded[]>();
  #size = 0;

  /** `budget`: bytes of file content kept in all (the decoded text costs 1–2× more). */
  constructor(private readonly budget: number) {}

  get(key: string, bytes: Uint8Array): Decoded | undefined {
    const versions = this.#entries.get(key);
    const hit = versions?.find((v) => sameBytes(v.bytes, bytes));
    if (!versions || !hit) return undefined;
    this.#entries.delete(key); // most recently used goes last
    this.#entries.set(key, versions);
    return hit;
  }

  /** The version of `key` whose bytes have this SHA-256, without reading them again. */
  withSha(key: string, sha: string): Decoded | undefined {
    return this.#entries.get(key)?.find((v) => v.sha === sha);
  }

  /** The newest version kept for `key`, to reparse a changed file from. */
  latest(key: string): Decoded | undefined {
    return this.#entries.get(key)?.[0];
  }

  set(key: string, entry: Decoded): void {
    const versions = (this.#entries.get(key) ?? []).filter((v) => !sameBytes(v.bytes, entry.bytes));
    this.#forget(key);
    if (entry.bytes.length > this.budget / 4) return;
    Object.freeze(entry.doc.lines);
    Object.freeze(entry.doc.eols);
    Object.freeze(entry.doc);
    const kept = [entry, ...versions].slice(0, VERSIONS_PER_FILE);
    this.#entries.set(key, kept);
    for (const v of kept) this.#size += v.bytes.length;
    for (const oldest of this.#entries.keys()) {
      if (this.#size <= this.budget) break;
      this.#forget(oldest);
    }
  }

  #forget(key: string): void {
    for (const v of this.#entries.get(key) ?? []) this.#size -= v.bytes.length;
    this.#entries.delete(key);
  }
}

/** The process-wide cache: 64 MB of recent files. */
export const decodedFiles = new DecodedCache(64 * 1024 * 1024);
