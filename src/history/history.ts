/**
 * The persistent history of a root: content-addressed blobs plus an
 * append-only journal of reads, writes, rollbacks and deletes, shared by every
 * process that opens the same directory. A `History` is one session's view
 * of the store; `forSession` gives another session's view of the same one.
 *
 * Before each query the in-memory index catches up with whatever other
 * processes appended since the last look, so a read recorded by one CLI call
 * vouches for an edit in the next.
 */
import type { ToolError } from "../errors.js";
import { backgroundSync, SyncBarrier, syncStats } from "../util/durable.js";
import { sha256 } from "../util/hash.js";
import { encodeHolder, newHolder } from "../workspace/holder.js";
import type { BatchIntent } from "./batches.js";
import type { BlobPut } from "./blobs.js";
import {
  listCheckpoints,
  loadCheckpoint,
  type StoredCheckpoint,
  saveCheckpoint,
} from "./checkpoints.js";
import { historyFailure } from "./failure.js";
import { Store } from "./store.js";
import {
  type BackupMark,
  type BackupSession,
  type CollectResult,
  checkWriteRecord,
  type HistoryOptions,
  type HistoryStats,
  type HistoryStore,
  type LastRead,
  readEvent,
  type VersionInfo,
  type VersionRef,
  type WriteRecord,
  writeEvent,
} from "./types.js";

/** The replaced version a write names, with its mode when the writer gave it. */
function beforeRef(sha: string, before: NonNullable<WriteRecord["before"]>): VersionRef {
  const ref: VersionRef = { sha, tag: before.tag, size: before.bytes.length };
  if (before.mode !== undefined) ref.mode = before.mode;
  return ref;
}

export class History implements HistoryStore {
  readonly dir: string;
  readonly session: string;
  private readonly store: Store;
  /** The program's name, shared with this handle's tool views (named after they were made, too). */
  #named: { client?: string } = {};
  #tool: string | undefined;

  private constructor(store: Store, session: string) {
    if (typeof session !== "string" || session === "") {
      throw new TypeError("a history session needs a non-empty name");
    }
    this.store = store;
    this.dir = store.dir;
    this.session = session;
  }

  /** Open (creating when missing) the history in `options.dir` for one session. */
  static open(options: HistoryOptions): History {
    return new History(new Store(options), options.session);
  }

  /** The same store seen as another session; the index is shared. */
  forSession(session: string): History {
    return new History(this.store, session);
  }

  /** Why no history can be kept (reads still work, unjournaled); undefined when it can. */
  get unavailable(): ToolError | undefined {
    return this.store.unavailable;
  }

  /** putBlob for a batch: its new blobs go into one pack (blobs.ts putMany). */
  putBlobs(items: readonly BlobPut[], barrier?: SyncBarrier): string[] {
    if (this.store.unavailable) {
      if (items.some((i) => i.backup)) throw this.store.unavailable;
      return items.map((i) => i.sha ?? sha256(i.bytes));
    }
    const shas = this.store.blobs.putMany(items, barrier);
    for (const [k, sha] of shas.entries()) this.store.index.noteBlob(sha, items[k]!.bytes.length);
    return shas;
  }

  putBlob(bytes: Uint8Array, backup = false, knownSha?: string, barrier?: SyncBarrier): string {
    if (this.store.unavailable) {
      if (backup) throw this.store.unavailable;
      return knownSha ?? sha256(bytes); // a read's version, named but not kept
    }
    const sha = this.store.blobs.put(bytes, backup, knownSha, barrier);
    this.store.index.noteBlob(sha, bytes.length);
    return sha;
  }

  getBlob(sha: string): Uint8Array | undefined {
    return this.store.blobs.get(sha);
  }

  hasBlob(sha: string): boolean {
    return this.store.blobs.has(sha);
  }

  checkpoint(name: string): StoredCheckpoint | undefined {
    return loadCheckpoint(this.store.fs, this.store.dir, name);
  }

  checkpoints(): StoredCheckpoint[] {
    return listCheckpoints(this.store.fs, this.store.dir);
  }

  saveCheckpoint(checkpoint: StoredCheckpoint): void {
    if (this.store.unavailable) throw this.store.unavailable;
    saveCheckpoint(this.store.fs, this.store.dir, checkpoint);
  }

  keepBlob(bytes: Uint8Array, sha?: string): string {
    if (this.store.unavailable) throw this.store.unavailable;
    return this.putBlob(bytes, false, sha);
  }

  /** Store the bytes a read showed (not fsync'ed) and journal the read, unless it repeats the last one. */
  recordRead(
    path: string,
    bytes: Uint8Array,
    tag: string,
    range?: [number, number],
    knownSha?: string,
  ): VersionRef {
    const sha = knownSha ?? sha256(bytes);
    // Relaxed: the version read is the one a coming edit replaces; sync it
    // now, in the background, so that edit has nothing left to wait for.
    const ahead = this.store.mayPrefetch(path, sha, bytes.length) ? new SyncBarrier() : undefined;
    const version = { sha, tag, size: bytes.length };
    try {
      // Reading the same version again adds nothing to the journal but a time.
      if (this.store.pathIndex(path).isRepeatRead(this.session, path, sha, range)) {
        if (ahead) this.putBlob(bytes, true, sha, ahead);
      } else {
        this.putBlob(bytes, ahead !== undefined, sha, ahead);
        this.store.append(readEvent(path, this.session, version, range), false);
      }
    } catch (error) {
      // The folder broke under a running process (removed, made a file, unwritable): the read
      // is still shown, its version known in memory only, and the call warned (Store.unkept).
      const failure = historyFailure(error, this.dir);
      if (!failure) throw error;
      this.store.readUnkept(readEvent(path, this.session, version, range), failure);
      return version;
    }
    if (ahead) this.store.syncAhead(path, sha, ahead, bytes.length);
    return version;
  }

  /** Why the last read could not be kept in history, until an append works again. */
  get unkept(): ToolError | undefined {
    return this.store.unkept;
  }

  /**
   * Journal a write, rollback or delete. Call it BEFORE replacing the file:
   * the replaced version is stored, the new one stored, the event line
   * appended, and the old version and the line are fsync'ed, so once this
   * returns the original cannot be lost. With a `barrier`, those fsyncs join
   * it instead: flush it before replacing the file.
   */
  recordWrite(
    e: WriteRecord,
    barrier?: SyncBarrier,
  ): { before?: VersionRef; after?: VersionRef; id: string } {
    checkWriteRecord(e);
    if (this.store.unavailable) throw this.store.unavailable;
    const sync = barrier ?? new SyncBarrier();
    const out: { before?: VersionRef; after?: VersionRef } = {};
    // Relaxed: a version already durable needs no sync here, nor the journal
    // line, which then only has to be durable before exit.
    let named = false;
    if (e.before) {
      const sha = e.before.sha ?? sha256(e.before.bytes);
      const state =
        barrier && this.store.relaxed ? this.store.durableState(e.path, sha) : undefined;
      // Checked to be whole even when synced ahead (a damaged blob is written and synced again);
      // one whose round has not finished is synced into `sync` here, with this write's line.
      this.putBlob(e.before.bytes, true, sha, sync);
      // Not waiting for that round: with many sessions writing it holds all their versions and
      // runs after the one under way, so each write waited up to two of them (0.5 s at 64 sessions).
      named = state === true;
      out.before = beforeRef(sha, e.before);
    }
    // Relaxed: the new version is synced in the background, so the next write
    // of this file (whose old version it is) finds it durable.
    const ahead = barrier && this.store.relaxed ? new SyncBarrier() : undefined;
    if (e.after) {
      // Full: not fsynced: until the rename, the old file is what exists; after
      // it, the file itself holds these bytes. Only `before` must survive.
      const sha = this.putBlob(e.after.bytes, ahead !== undefined, e.after.sha, ahead);
      out.after = { sha, tag: e.after.tag, size: e.after.bytes.length };
    }
    const id = this.store.append(writeEvent(e, this.session, out, this.#maker()), !named, sync);
    if (this.store.fsync) {
      syncStats.writes++;
      if (!sync.empty) syncStats.waited++;
    }
    if (ahead && out.after) this.store.syncAhead(e.path, out.after.sha, ahead, 0);
    else if (ahead) {
      ahead.add(this.store.journalPath);
      backgroundSync.defer(ahead).catch(() => {}); // flush() reports a failure
    }
    if (!barrier) sync.flushSync();
    return { ...out, id };
  }

  /** Marks the pending change `id` (from recordWrite) as landed: call it right after the rename. */
  landed(id: string): void {
    this.store.appendLanded(id);
  }

  /**
   * recordWrite for a whole batch: every version stored (the old ones as
   * backups into `barrier`), then every journal line in one append, synced
   * into `barrier` too. Flush it before replacing any of the files.
   */
  recordWrites(
    records: readonly WriteRecord[],
    barrier: SyncBarrier,
    batch?: string,
  ): { id: string }[] {
    if (this.store.unavailable) throw this.store.unavailable;
    for (const e of records) checkWriteRecord(e);
    // As in recordWrite: only `before` is a backup that must survive. All of
    // them go in at once, so a batch's new blobs make one pack, synced once.
    const puts = records.flatMap((e) => [
      ...(e.before ? [{ bytes: e.before.bytes, backup: true, sha: e.before.sha }] : []),
      ...(e.after ? [{ bytes: e.after.bytes, backup: false, sha: e.after.sha }] : []),
    ]);
    const shas = this.putBlobs(puts, barrier);
    let next = 0;
    const events = records.map((e) => {
      const out: { before?: VersionRef; after?: VersionRef } = {};
      if (e.before) out.before = beforeRef(shas[next++]!, e.before);
      if (e.after) out.after = { sha: shas[next++]!, tag: e.after.tag, size: e.after.bytes.length };
      return writeEvent(e, this.session, out, this.#maker());
    });
    // A batch's intent names this process, so another one knows whether it still runs.
    const backup = records[0]?.backup;
    const start =
      batch === undefined
        ? undefined
        : { batch, holder: encodeHolder(newHolder()), ...(backup ? { backup } : {}) };
    return this.store.appendAll(events, barrier, start).map((id) => ({ id }));
  }

  /** Marks every pending change of a batch as landed, in one append; `done` ends a batch too. */
  landedAll(ids: readonly string[], done?: string): void {
    this.store.appendLandedAll(ids, done);
  }

  /** The batches whose process stopped between their first rename and their done mark. */
  interruptedBatches(): BatchIntent[] {
    return this.store.unavailable ? [] : this.store.interruptedBatches();
  }

  seenShasForTag(path: string, tag: string): string[] {
    this.store.catchUp();
    return this.store.pathIndex(path).seenShasForTag(this.session, path, tag);
  }

  hasSeen(path: string, sha: string): boolean {
    this.store.catchUp();
    return this.store.pathIndex(path).hasSeen(this.session, path, sha);
  }

  /** The version of `path` this session read or wrote most recently. */
  lastSeen(path: string): { sha: string; tag: string } | undefined {
    this.store.catchUp();
    return this.store.pathIndex(path).lastSeen(this.session, path);
  }

  lastRead(path: string): LastRead | undefined {
    this.store.catchUp();
    return this.store.pathIndex(path).lastRead(this.session, path);
  }

  versions(path: string): VersionInfo[] {
    this.store.catchUp();
    return this.store.pathIndex(path).versions(path);
  }

  findByTag(path: string, tag: string): VersionInfo[] {
    return this.versions(path).filter((v) => v.tag === tag);
  }

  latestKnown(path: string): string | undefined {
    this.store.catchUp();
    return this.store.pathIndex(path).latestKnown(path);
  }

  isOwnVersion(path: string, sha: string): boolean {
    this.store.catchUp();
    return this.store.pathIndex(path).isOwnVersion(path, sha);
  }

  versionBefore(path: string, sha: string): VersionRef | undefined {
    this.store.catchUp();
    return this.store.pathIndex(path).versionBefore(path, sha);
  }

  nameClient(name: string): void {
    const client = name.trim();
    if (client) this.#named.client = client;
    else delete this.#named.client;
  }

  forTool(tool: string): History {
    const view = new History(this.store, this.session);
    view.#named = this.#named;
    view.#tool = tool;
    return view;
  }

  #maker(): { client?: string; tool?: string } {
    return { ...this.#named, ...(this.#tool !== undefined ? { tool: this.#tool } : {}) };
  }

  /** Backup sessions of every session, newest first. */
  backups(): BackupSession[] {
    this.store.catchUp();
    return this.store.fullIndex().backups();
  }

  backupMark(): BackupMark {
    this.store.catchUp();
    return this.store.fullIndex().backupMark();
  }

  /** Blob files and bytes as found on disk; events as indexed from the journal. */
  stats(): HistoryStats {
    if (this.store.unavailable) return { blobs: 0, bytes: 0, events: 0 };
    this.store.catchUp();
    let bytes = 0;
    const blobs = this.store.blobs.list();
    for (const blob of blobs) bytes += blob.size;
    return { blobs: blobs.length, bytes, events: this.store.fullIndex().count };
  }

  /** Bound the store now (a no-op returning zeros while another process compacts). */
  collect(): CollectResult {
    return this.store.collect();
  }
}

export type {
  BackupChange,
  BackupMark,
  BackupSession,
  CollectResult,
  EventKind,
  HistoryOptions,
  HistoryReader,
  HistoryStats,
  HistoryStore,
  JournalEvent,
  LastRead,
  VersionInfo,
  VersionMaker,
  VersionRef,
  WriteRecord,
} from "./types.js";
