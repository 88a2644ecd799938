/**
 * Content-addressed blobs: `blobs/<first 2 hex>/<other 62 hex>` named by the
 * SHA-256 of the raw bytes. Writes go through a temp file and a rename, so a
 * blob file is either absent or complete.
 */
import { dirname, join } from "node:path";
import { SyncBarrier } from "../util/durable.js";
import { sha256 } from "../util/hash.js";
import { randomId } from "../util/ids.js";
import { BeneathFs } from "../workspace/beneath-fs.js";
import { ensureDir, isErrno, writeFileAtomic } from "./fsutil.js";
import { sweepDeadTemps } from "./temps.js";

const SHA_PATTERN = /^[0-9a-f]{64}$/;
const REST_PATTERN = /^[0-9a-f]{62}$/;
const FANOUT_PATTERN = /^[0-9a-f]{2}$/;
const ASIDE_PATTERN = /^[0-9a-f]{62}\.del-/;

export function isSha(value: string): boolean {
  return SHA_PATTERN.test(value);
}

export interface BlobFile {
  sha: string;
  path: string;
  size: number;
  mtimeMs: number;
}

export class BlobStore {
  readonly root: string;
  /** Whether backups are fsynced (false: written and checked, not synced). */
  private readonly fsync: boolean;
  /** Shas this process made backups of (synced when `fsync`): a backup again only checks the bytes. */
  private readonly backedUp = new Set<string>();
  /** Fan-out folders this process created without fsyncing their entry in the root. */
  private readonly unsyncedFanouts = new Set<string>();
  /** Whether this process created the store's root without fsyncing its entry in the folder above. */
  private unsyncedRoot = false;

  /** Where the calls are made: beneath the project (History passes its own), else beneath `root` itself. */
  private readonly fs: BeneathFs;

  constructor(root: string, fsync = true, fs?: BeneathFs) {
    this.root = root;
    this.fsync = fsync;
    this.fs = fs ?? BeneathFs.around(root);
  }

  pathOf(sha: string): string {
    return join(this.root, sha.slice(0, 2), sha.slice(2));
  }

  /**
   * Store bytes and return their sha. When the blob is already present its
   * mtime is refreshed, which tells a concurrent collection that it is in use
   * again (collection only deletes blobs older than its start). A caller
   * that already hashed the bytes passes `knownSha` to skip hashing again.
   * A `backup` (a version about to be replaced, so the only copy left) is
   * checked against the bytes and, when the store fsyncs, synced into
   * `barrier` when given (the caller flushes it before relying on the blob),
   * else before returning.
   */
  put(bytes: Uint8Array, backup = false, knownSha?: string, barrier?: SyncBarrier): string {
    const sha = knownSha ?? sha256(bytes);
    const path = this.pathOf(sha);
    const sync = backup && this.fsync ? (barrier ?? new SyncBarrier()) : undefined;
    try {
      if (!this.touch(path)) {
        this.write(sha, path, bytes, sync);
        if (backup) this.markBackedUp(sha, sync);
      } else if (backup) {
        this.makeBackup(sha, path, bytes, sync);
      }
    } catch (error) {
      // A read or write on a descriptor names no path; the blob's lets the error say where.
      const e = error as NodeJS.ErrnoException;
      if (typeof e.code === "string" && e.path === undefined) e.path = path;
      throw error;
    }
    if (sync && !barrier) sync.flushSync();
    return sha;
  }

  /** The bytes of a blob, or undefined when absent or damaged (content does not match its name). */
  get(sha: string): Uint8Array | undefined {
    if (!isSha(sha)) return undefined;
    let bytes: Buffer;
    try {
      bytes = this.fs.readFile(this.pathOf(sha));
    } catch (error) {
      // A folder or a link where the blob should be is damage, as a wrong content is.
      if (isErrno(error, "ENOENT", "ENOTDIR", "EISDIR", "ELOOP")) return undefined;
      throw error;
    }
    if (sha256(bytes) !== sha) return undefined;
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  has(sha: string): boolean {
    if (!isSha(sha)) return false;
    try {
      this.fs.lstat(this.pathOf(sha));
      return true;
    } catch (error) {
      if (isErrno(error, "ENOENT", "ENOTDIR")) return false;
      throw error;
    }
  }

  /** Every blob file on disk. Temp files and foreign names are skipped. */
  list(): BlobFile[] {
    const out: BlobFile[] = [];
    for (const fanout of readdirSafe(this.fs, this.root)) {
      if (!FANOUT_PATTERN.test(fanout)) continue;
      const dir = join(this.root, fanout);
      for (const rest of readdirSafe(this.fs, dir)) {
        if (!REST_PATTERN.test(rest)) continue;
        const path = join(dir, rest);
        try {
          const st = this.fs.lstat(path);
          if (st.isFile())
            out.push({ sha: fanout + rest, path, size: st.size, mtimeMs: st.mtimeMs });
        } catch (error) {
          if (!isErrno(error, "ENOENT")) throw error;
        }
      }
    }
    return out;
  }

  /** Leftovers of a crash (temp files, blobs moved aside for deletion) older than `cutoffMs`. */
  staleTemps(cutoffMs: number): string[] {
    const out: string[] = [];
    for (const fanout of readdirSafe(this.fs, this.root)) {
      if (!FANOUT_PATTERN.test(fanout)) continue;
      const dir = join(this.root, fanout);
      for (const name of readdirSafe(this.fs, dir)) {
        if (!name.startsWith(".tmp-") && !ASIDE_PATTERN.test(name)) continue;
        const path = join(dir, name);
        try {
          if (this.fs.lstat(path).mtimeMs < cutoffMs) out.push(path);
        } catch (error) {
          if (!isErrno(error, "ENOENT")) throw error;
        }
      }
    }
    return out;
  }

  /** Removes the leftovers staleTemps finds. */
  removeTemps(cutoffMs: number): void {
    for (const path of this.staleTemps(cutoffMs)) this.fs.rm(path);
  }

  /**
   * Delete an unreferenced blob unless it was touched after `cutoffMs`. The
   * file is first moved aside, then its mtime is checked again: a concurrent
   * `put` either touched it before the move (seen here, so it is restored) or
   * found it gone and wrote a fresh copy. Returns the bytes freed, or
   * undefined when the blob was kept.
   */
  removeIfOlder(sha: string, cutoffMs: number): number | undefined {
    const path = this.pathOf(sha);
    const aside = `${path}.del-${randomId(4)}`;
    try {
      this.fs.rename(path, aside);
    } catch (error) {
      if (isErrno(error, "ENOENT")) return undefined;
      throw error;
    }
    const st = this.fs.lstat(aside);
    if (st.mtimeMs >= cutoffMs) {
      this.fs.rename(aside, path);
      return undefined;
    }
    this.fs.unlink(aside);
    this.backedUp.delete(sha);
    return st.size;
  }

  /** Refresh the mtime of an existing blob; false when it does not exist. */
  private touch(path: string): boolean {
    try {
      this.fs.touch(path);
      return true;
    } catch (error) {
      if (isErrno(error, "ENOENT", "ENOTDIR")) return false;
      throw error;
    }
  }

  /** Writes a new blob; with `sync`, it and its folder entries are synced there. */
  private write(sha: string, path: string, bytes: Uint8Array, sync?: SyncBarrier): void {
    const dir = join(this.root, sha.slice(0, 2));
    try {
      writeFileAtomic(this.fs, path, bytes);
    } catch (error) {
      // The fan-out folder is made only when missing: a mkdir per blob costs as much as the write.
      if (!isErrno(error, "ENOENT")) throw error;
      // New folders' entries are synced with the blob (syncEntry), not here on the hot path.
      if (ensureDir(this.fs, this.root, false)) this.unsyncedRoot = true;
      if (ensureDir(this.fs, dir, false)) this.unsyncedFanouts.add(dir);
      writeFileAtomic(this.fs, path, bytes);
    }
    sweepDeadTemps(this.fs, dir); // a killed writer's staged blob in this folder
    if (sync) this.syncEntry(sha, path, sync);
  }

  /**
   * An existing blob may have been stored without fsync (by a read), or
   * damaged since. Before it becomes the only copy, check it still holds
   * `bytes` (a power loss after a non-durable rename can leave it empty):
   * sync it when it does (once per process), write it afresh when it does not.
   */
  private makeBackup(sha: string, path: string, bytes: Uint8Array, sync?: SyncBarrier): void {
    let stored: Buffer | undefined;
    try {
      stored = this.fs.readFile(path);
    } catch (error) {
      if (!isErrno(error, "ENOENT")) throw error;
    }
    if (stored?.equals(bytes) && this.backedUp.has(sha)) return;
    if (!stored?.equals(bytes)) this.write(sha, path, bytes, sync);
    else if (sync) this.syncEntry(sha, path, sync);
    this.markBackedUp(sha, sync);
  }

  private markBackedUp(sha: string, sync?: SyncBarrier): void {
    if (sync) sync.onSynced(() => this.backedUp.add(sha));
    else this.backedUp.add(sha);
  }

  /** The blob, its fan-out folder, and that folder's entry when it was made without fsync. */
  private syncEntry(sha: string, path: string, sync: SyncBarrier): void {
    const fanout = join(this.root, sha.slice(0, 2));
    sync.add(path);
    sync.addFolder(fanout);
    if (this.unsyncedFanouts.has(fanout)) {
      sync.addFolder(this.root);
      sync.onSynced(() => this.unsyncedFanouts.delete(fanout));
    }
    if (this.unsyncedRoot) {
      sync.addFolder(dirname(this.root));
      sync.onSynced(() => {
        this.unsyncedRoot = false;
      });
    }
  }
}

function readdirSafe(fs: BeneathFs, dir: string): string[] {
  try {
    return fs.readdir(dir);
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return [];
    throw error;
  }
}
