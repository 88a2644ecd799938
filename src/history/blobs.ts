/**
 * Content-addressed blobs: `blobs/<first 2 hex>/<other 62 hex>` named by the
 * SHA-256 of the raw bytes, or for a batch's new blobs one pack in
 * `blobs/packs/` (packs.ts). Writes go through a temp file and a rename, so a
 * blob file or pack is either absent or complete.
 */
import { dirname, join } from "node:path";
import { SyncBarrier } from "../util/durable.js";
import { sha256 } from "../util/hash.js";
import { PACKS_FOLDER } from "../util/state-folder.js";
import { BeneathFs } from "../workspace/beneath-fs.js";
import { noteFreshFolder, sweepDeadTemps } from "../workspace/dead-temps.js";
import {
  type BlobFile,
  blobLeftovers,
  exists,
  FANOUT_PATTERN,
  isSha,
  listBlobFiles,
  mayExist,
  readdirSafe,
  removeUntouched,
  touch,
  touchAndRead,
} from "./blob-files.js";
import { ensureDir, isErrno, type Stage, writeFileAtomic } from "./fsutil.js";
import { PACK_MIN, PackSet, packGroups } from "./packs.js";

type Fresh = [sha: string, blob: { bytes: Uint8Array; backup: boolean }];

/** One blob of a batch for `putMany`. */
export interface BlobPut {
  bytes: Uint8Array;
  backup: boolean;
  /** The bytes' sha when the caller has it. */
  sha?: string;
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
  /**
   * Fan-out folders known to exist (listed once, then each one this process
   * made or wrote in); undefined until the first put. A blob whose folder is
   * not in it is written without first looking for it, and its folder made
   * without first failing a write: each of those walks from the project root.
   * A folder another process made meanwhile costs a second copy of the same
   * bytes only.
   */
  private fanouts: Set<string> | undefined;
  /** Whether the store's root is known to exist. */
  private rootListed = false;

  /** Where the calls are made: beneath the project (History passes its own), else beneath `root` itself. */
  private readonly fs: BeneathFs;
  private readonly packs: PackSet;

  /** A spare inode to stage a new blob in, when the process keeps a pool (history.ts spareStage). */
  private readonly stage: () => Stage | undefined;

  constructor(root: string, fsync = true, fs?: BeneathFs, stage?: () => Stage | undefined) {
    this.root = root;
    this.fsync = fsync;
    this.stage = stage ?? (() => undefined);
    this.fs = fs ?? BeneathFs.around(root);
    this.packs = new PackSet(this.fs, join(root, PACKS_FOLDER));
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
      const listed = this.knownFanout(sha);
      if (!this.putExisting(sha, bytes, backup, sync, listed)) {
        this.writeNew(sha, bytes, backup, sync, this.stage());
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

  /**
   * Stores a batch's blobs, as `put` does each, except that the new ones go
   * into one pack when there are PACK_MIN or more: one file to create and,
   * when any is a backup, one to sync (into `barrier` when given, else before
   * returning). Returns each item's sha.
   */
  putMany(items: readonly BlobPut[], barrier?: SyncBarrier): string[] {
    const sync =
      this.fsync && items.some((i) => i.backup) ? (barrier ?? new SyncBarrier()) : undefined;
    const fresh = new Map<string, Fresh[1]>();
    // A blob in a fan-out folder not known to exist is not loose (knownFanout): looking for it
    // would walk from the root to fail.
    const shas = items.map(({ bytes, backup, sha: known }) => {
      const sha = known ?? sha256(bytes);
      const seen = fresh.get(sha);
      if (seen) seen.backup ||= backup;
      else if (
        !this.putExisting(sha, bytes, backup, backup ? sync : undefined, this.knownFanout(sha))
      ) {
        fresh.set(sha, { bytes, backup });
      }
      return sha;
    });
    for (const group of packGroups([...fresh])) {
      if (group.length >= PACK_MIN) this.writePack(group, sync);
      else {
        for (const [sha, { bytes, backup }] of group)
          this.writeNew(sha, bytes, backup, backup ? sync : undefined);
      }
    }
    if (sync && !barrier) sync.flushSync();
    return shas;
  }

  /**
   * The bytes of a blob, or undefined when absent or damaged (content does not
   * match its name). Loose first, then packed, then loose again: a collection
   * may have moved it out of a pack in between.
   */
  get(sha: string): Uint8Array | undefined {
    if (!isSha(sha)) return undefined;
    return this.loose(sha) ?? this.packed(sha) ?? this.loose(sha);
  }

  has(sha: string): boolean {
    if (!isSha(sha)) return false;
    return exists(this.fs, this.pathOf(sha)) || this.packs.has(sha);
  }

  /** Every blob on disk, loose or packed. */
  list(): BlobFile[] {
    return listBlobFiles(this.fs, this.root, this.packs);
  }

  /** Leftovers of a crash (temp files, blobs moved aside for deletion) older than `cutoffMs`. */
  staleTemps(cutoffMs: number): string[] {
    return blobLeftovers(this.fs, this.root, cutoffMs);
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
    const size = removeUntouched(this.fs, this.pathOf(sha), cutoffMs);
    if (size !== undefined) this.backedUp.delete(sha);
    return size;
  }

  /** A new loose blob; a backup is synced into `sync` (when the store syncs) and marked so. */
  private writeNew(
    sha: string,
    bytes: Uint8Array,
    backup: boolean,
    sync?: SyncBarrier,
    stage?: Stage,
  ): void {
    this.write(sha, this.pathOf(sha), bytes, sync, stage);
    if (backup) this.markBackedUp(sha, sync);
  }

  /** One pack of `group`, synced into `sync` when it holds a backup. */
  private writePack(group: readonly Fresh[], sync: SyncBarrier | undefined): void {
    const backups = group.filter(([, b]) => b.backup).map(([sha]) => sha);
    const packSync = backups.length > 0 ? sync : undefined;
    if (ensureDir(this.fs, this.root, false)) this.unsyncedRoot = true;
    if (packSync) this.syncRoot(packSync);
    this.packs.write(
      group.map(([sha, { bytes }]) => ({ sha, bytes })),
      packSync,
    );
    sweepDeadTemps(this.fs, this.packs.dir);
    for (const sha of backups) this.markBackedUp(sha, packSync);
  }

  /**
   * Removes the packs older than `cutoff` that hold a blob not in `referenced`.
   * The referenced blobs of such a pack are first stored loose (and synced,
   * when the store syncs), so the pack goes whole; then it is moved aside and
   * its mtime checked again (removeUntouched): a pack a `put` touched
   * meanwhile is put back. Returns the blobs and bytes freed.
   */
  removePacksOlder(
    referenced: ReadonlySet<string>,
    cutoffMs: number,
  ): { removedBlobs: number; freedBytes: number } {
    let removedBlobs = 0;
    let freedBytes = 0;
    for (const pack of this.packs.list()) {
      const dead = pack.blobs.filter((b) => !referenced.has(b.sha));
      if (pack.mtimeMs >= cutoffMs || dead.length === 0) continue;
      const sync = this.fsync ? new SyncBarrier() : undefined;
      for (const { sha } of pack.blobs) {
        if (!referenced.has(sha) || exists(this.fs, this.pathOf(sha))) continue;
        const bytes = this.packed(sha);
        if (bytes) this.write(sha, this.pathOf(sha), bytes, sync);
      }
      sync?.flushSync();
      this.packs.forget(pack.path);
      if (removeUntouched(this.fs, pack.path, cutoffMs) === undefined) continue;
      for (const { sha, size } of dead) {
        this.backedUp.delete(sha);
        removedBlobs++;
        freedBytes += size;
      }
    }
    return { removedBlobs, freedBytes };
  }

  /**
   * A blob already stored, loose or in a pack this process knows: touched (so
   * a concurrent collection keeps it) and, for a backup, made one (checked,
   * synced into `sync`). False when it must be written.
   */
  private putExisting(
    sha: string,
    bytes: Uint8Array,
    backup: boolean,
    sync: SyncBarrier | undefined,
    mayBeLoose = true,
  ): boolean {
    const path = this.pathOf(sha);
    if (mayBeLoose && backup) {
      // A backup's bytes are checked anyway: read them on the descriptor the touch opens.
      const stored = touchAndRead(this.fs, path);
      if (stored) {
        this.makeBackup(sha, path, bytes, stored, sync);
        return true;
      }
    } else if (mayBeLoose && mayExist(this.fs, path) && touch(this.fs, path)) {
      // A new version's blob is mostly not there yet: a miss makes no error object.
      return true;
    }
    const pack = this.packs.packOf(sha);
    if (!pack || !touch(this.fs, pack)) return false;
    if (!backup || this.backedUp.has(sha)) return true;
    // As makeBackup: the pack may have been written without fsync, or damaged since.
    if (!this.packs.read(sha)?.equals(bytes)) return false;
    if (sync) {
      sync.add(pack);
      sync.addFolder(this.packs.dir);
    }
    this.markBackedUp(sha, sync);
    return true;
  }

  /** A loose blob's bytes when they still match its name. */
  private loose(sha: string): Uint8Array | undefined {
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

  /** A packed blob's bytes when they still match its sha. */
  private packed(sha: string): Uint8Array | undefined {
    const bytes = this.packs.read(sha);
    if (!bytes || sha256(bytes) !== sha) return undefined;
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Whether the blob's fan-out folder is known to exist (the root is listed on the first call). */
  private knownFanout(sha: string): boolean {
    if (!this.fanouts) {
      const names = readdirSafe(this.fs, this.root);
      this.fanouts = new Set(names.filter((name) => FANOUT_PATTERN.test(name)));
      this.rootListed = names.length > 0; // an empty listing may be a missing root
    }
    return this.fanouts.has(sha.slice(0, 2));
  }

  /**
   * Writes a new blob; with `sync`, it and its folder entries are synced
   * there. A single write (put) stages in a spare; a batch's blobs do not,
   * since the batch's own files take as many spares as the pool was told of.
   */
  private write(
    sha: string,
    path: string,
    bytes: Uint8Array,
    sync?: SyncBarrier,
    stage?: Stage,
  ): void {
    const fanout = sha.slice(0, 2);
    const dir = join(this.root, fanout);
    const made = () => {
      // The fan-out folder is made only when missing: a mkdir per blob costs as much as the write.
      // New folders' entries are synced with the blob (syncEntry), not here on the hot path.
      if (!this.rootListed && ensureDir(this.fs, this.root, false)) this.unsyncedRoot = true;
      this.rootListed = true;
      if (!ensureDir(this.fs, dir, false)) return;
      this.unsyncedFanouts.add(dir);
      noteFreshFolder(dir); // nothing to sweep in it
    };
    if (!this.knownFanout(sha)) made();
    try {
      writeFileAtomic(this.fs, path, bytes, stage);
    } catch (error) {
      if (!isErrno(error, "ENOENT")) throw error;
      this.rootListed = false; // removed since it was listed, perhaps with the root
      made();
      writeFileAtomic(this.fs, path, bytes, stage);
    }
    this.fanouts?.add(fanout);
    sweepDeadTemps(this.fs, dir); // a killed writer's staged blob in this folder
    if (sync) this.syncEntry(sha, path, sync);
  }

  /**
   * An existing blob may have been stored without fsync (by a read), or
   * damaged since. Before it becomes the only copy, check it still holds
   * `bytes` (a power loss after a non-durable rename can leave it empty):
   * sync it when it does (once per process), write it afresh when it does not.
   */
  private makeBackup(
    sha: string,
    path: string,
    bytes: Uint8Array,
    stored: Buffer,
    sync?: SyncBarrier,
  ): void {
    if (stored.equals(bytes) && this.backedUp.has(sha)) return;
    if (!stored.equals(bytes)) this.write(sha, path, bytes, sync);
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
    this.syncRoot(sync);
  }

  /** The store root's entry, when this process made the root without syncing it. */
  private syncRoot(sync: SyncBarrier): void {
    if (!this.unsyncedRoot) return;
    sync.addFolder(dirname(this.root));
    sync.onSynced(() => {
      this.unsyncedRoot = false;
    });
  }
}
