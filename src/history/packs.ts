/**
 * Packs: the new blobs of one batch in one file, `blobs/packs/<id>.pack`, so
 * a change of 120 files creates, fsyncs and names one file instead of 240.
 *
 *   splice-pack 1 <index bytes>\n
 *   [["<sha>", <size>], ...]\n          (the index, JSON, in data order)
 *   <the blobs' bytes, one after another>
 *
 * A pack is written whole to a temp file and renamed, so it is absent or
 * complete; a reader still checks every blob against its sha (a rename that
 * was not fsynced can come back empty after a power loss). Packs are never
 * changed: collection removes a pack whole, after storing the blobs still
 * referenced in it as loose blobs (blobs.ts).
 */
import { closeSync, constants, readSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SyncBarrier } from "../util/durable.js";
import { randomId } from "../util/ids.js";
import type { BeneathFs } from "../workspace/beneath-fs.js";
import { ensureDir, isErrno, writeFileAtomic } from "./fsutil.js";

const MAGIC = "splice-pack 1 ";
const NAME = /^[0-9a-f]{16}\.pack$/;
/** The first read of a pack: its header line and, nearly always, the whole index. */
const HEAD_BYTES = 64 * 1024;

/** New blobs in one batch from which they go into a pack rather than a file each. */
export const PACK_MIN = 8;
/** A pack is built in memory: at most this many bytes each, and a blob this big stays loose. */
const PACK_MAX_BYTES = 32 * 1024 * 1024;
const PACK_MAX_BLOB = 4 * 1024 * 1024;

/** The new blobs of a batch in groups of at most PACK_MAX_BYTES; a big blob is a group alone. */
export function packGroups<T extends readonly [string, { bytes: Uint8Array }]>(
  fresh: readonly T[],
): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const entry of fresh) {
    const size = entry[1].bytes.length;
    if (size > PACK_MAX_BLOB) {
      groups.push([entry]);
      continue;
    }
    if (bytes + size > PACK_MAX_BYTES) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

interface Entry {
  pack: string;
  offset: number;
  size: number;
}

type PackIndex = { entries: { sha: string; size: number }[]; dataStart: number };

export interface PackFile {
  path: string;
  mtimeMs: number;
  size: number;
  blobs: { sha: string; size: number }[];
}

export class PackSet {
  /** Where each known sha is: in the packs this process wrote or has looked into. */
  readonly #where = new Map<string, Entry>();
  /** Pack names looked into (a damaged one too, so it is not read again and again). */
  readonly #seen = new Set<string>();
  /** Whether this process made the packs folder without syncing its entry in blobs/. */
  #unsyncedDir = false;

  constructor(
    private readonly fs: BeneathFs,
    readonly dir: string,
  ) {}

  /** One pack of `blobs` (each sha already the hash of its bytes); its path. With `sync`, it and its folder are synced there. */
  write(blobs: readonly { sha: string; bytes: Uint8Array }[], sync?: SyncBarrier): string {
    const index = Buffer.from(`${JSON.stringify(blobs.map((b) => [b.sha, b.bytes.length]))}\n`);
    const head = Buffer.from(`${MAGIC}${index.length}\n`);
    const name = `${randomId(8)}.pack`;
    const path = join(this.dir, name);
    const data = Buffer.concat([head, index, ...blobs.map((b) => b.bytes)]);
    // A new packs folder's entry is synced with the pack, not by the mkdir.
    if (ensureDir(this.fs, this.dir, false)) this.#unsyncedDir = true;
    writeFileAtomic(this.fs, path, data);
    let offset = head.length + index.length;
    for (const { sha, bytes } of blobs) {
      if (!this.#where.has(sha)) this.#where.set(sha, { pack: name, offset, size: bytes.length });
      offset += bytes.length;
    }
    this.#seen.add(name);
    if (sync) {
      sync.add(path);
      sync.addFolder(this.dir);
      if (this.#unsyncedDir) {
        sync.addFolder(dirname(this.dir));
        sync.onSynced(() => {
          this.#unsyncedDir = false;
        });
      }
    }
    return path;
  }

  /** Whether a pack holds `sha`: this process's packs first, then any written since by others. */
  has(sha: string, lookAgain = true): boolean {
    if (this.#where.has(sha)) return true;
    if (!lookAgain) return false;
    this.#scan();
    return this.#where.has(sha);
  }

  /** The pack holding `sha`, when known to this process (no listing). */
  packOf(sha: string): string | undefined {
    const at = this.#where.get(sha);
    return at && join(this.dir, at.pack);
  }

  /** A blob's bytes as stored (unchecked), or undefined when no pack has it. */
  read(sha: string): Buffer | undefined {
    for (let attempt = 0; attempt < 2; attempt++) {
      if (!this.has(sha)) return undefined;
      const at = this.#where.get(sha)!;
      try {
        return this.#readRange(join(this.dir, at.pack), at.offset, at.size);
      } catch (error) {
        if (!isErrno(error, "ENOENT", "ENOTDIR")) throw error;
        this.forget(at.pack); // collected since: it may be loose now, or in another pack
      }
    }
    return undefined;
  }

  /** Every pack on disk with its index (damaged ones are skipped). */
  list(): PackFile[] {
    const out: PackFile[] = [];
    for (const name of this.#names()) {
      const path = join(this.dir, name);
      try {
        const st = this.fs.lstat(path);
        const blobs = this.#index(path);
        if (st.isFile() && blobs)
          out.push({ path, mtimeMs: st.mtimeMs, size: st.size, blobs: blobs.entries });
      } catch (error) {
        if (!isErrno(error, "ENOENT")) throw error;
      }
    }
    return out;
  }

  /** Drops what this process knew of a pack (removed, or about to be). */
  forget(pack: string): void {
    const name = pack.includes("/") ? pack.slice(pack.lastIndexOf("/") + 1) : pack;
    for (const [sha, at] of this.#where) if (at.pack === name) this.#where.delete(sha);
    this.#seen.delete(name);
  }

  #names(): string[] {
    try {
      return this.fs.readdir(this.dir).filter((n) => NAME.test(n));
    } catch (error) {
      if (isErrno(error, "ENOENT", "ENOTDIR")) return [];
      throw error;
    }
  }

  /** Looks into packs not seen yet. */
  #scan(): void {
    for (const name of this.#names()) {
      if (this.#seen.has(name)) continue;
      this.#seen.add(name);
      let index: PackIndex | undefined;
      try {
        index = this.#index(join(this.dir, name));
      } catch (error) {
        if (isErrno(error, "ENOENT")) continue;
        throw error;
      }
      if (!index) continue;
      let offset = index.dataStart;
      for (const { sha, size } of index.entries) {
        if (!this.#where.has(sha)) this.#where.set(sha, { pack: name, offset, size });
        offset += size;
      }
    }
  }

  /** A pack's index, or undefined when its head is not one (damaged, foreign, cut short). */
  #index(path: string): PackIndex | undefined {
    const first = this.#readRange(path, 0, HEAD_BYTES);
    const eol = first.indexOf(10);
    const line = eol < 0 ? "" : first.subarray(0, eol).toString("latin1");
    if (!line.startsWith(MAGIC)) return undefined;
    const length = Number(line.slice(MAGIC.length));
    if (!Number.isSafeInteger(length) || length <= 0) return undefined;
    const start = eol + 1;
    const bytes =
      start + length <= first.length
        ? first.subarray(start, start + length)
        : this.#readRange(path, start, length);
    if (bytes.length !== length) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString("utf8"));
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed)) return undefined;
    const entries: { sha: string; size: number }[] = [];
    for (const e of parsed) {
      if (!Array.isArray(e) || typeof e[0] !== "string" || !Number.isSafeInteger(e[1])) {
        return undefined;
      }
      entries.push({ sha: e[0], size: e[1] });
    }
    return { entries, dataStart: start + length };
  }

  /** Up to `size` bytes at `offset` (fewer when the file ends first: a blob's sha check then fails it). */
  #readRange(path: string, offset: number, size: number): Buffer {
    const fd = this.fs.open(path, constants.O_RDONLY);
    try {
      const buf = Buffer.allocUnsafe(size);
      let got = 0;
      while (got < size) {
        const n = readSync(fd, buf, got, size - got, offset + got);
        if (n === 0) break;
        got += n;
      }
      return buf.subarray(0, got);
    } finally {
      closeSync(fd);
    }
  }
}
