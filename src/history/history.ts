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
import { ToolError } from "../errors.js";
import { backgroundSync, SyncBarrier, syncStats } from "../util/durable.js";
import { sha256 } from "../util/hash.js";
import { BeneathFs } from "../workspace/beneath-fs.js";
import { sweepDeadTemps } from "../workspace/dead-temps.js";
import { SparePool } from "../workspace/spares.js";
import { type BlobPut, BlobStore } from "./blobs.js";
import {
  listCheckpoints,
  loadCheckpoint,
  type StoredCheckpoint,
  saveCheckpoint,
} from "./checkpoints.js";
import { compact } from "./collect.js";
import { EventIndex } from "./event-index.js";
import { ensureDir, isErrno, type Stage } from "./fsutil.js";
import {
  JournalAppender,
  JournalReader,
  landedLine,
  newEventId,
  parseChunk,
  parseEvent,
  type StoredEvent,
  serializeEvent,
} from "./journal.js";
import { JournalPrefix, readTotals, totalsFit, writeTotals } from "./journal-prefix.js";
import {
  type BackupMark,
  type BackupSession,
  type CollectResult,
  checkWriteRecord,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_ENTRIES,
  type HistoryOptions,
  type HistoryStats,
  type HistoryStore,
  type JournalEvent,
  type LastRead,
  readEvent,
  type VersionInfo,
  type VersionRef,
  type WriteRecord,
  writeEvent,
} from "./types.js";

/** The error of a history folder that cannot be used; `code` is the errno that said so. */
function unavailableError(dir: string, code: string): ToolError {
  return new ToolError(
    "history_unavailable",
    `splice cannot keep its history in ${dir} (${code}), so it changes no file: every change is backed up there first. Reads still work, without history. Make the project folder writable, or remove or repair ${dir} if it is a file or unreadable (the library's history.dir option can move it), then try again.`,
    { history_dir: dir, errno: code },
  );
}

/** How far past a bound the store may grow before a record call collects. */
function margin(bound: number): number {
  return Math.max(1, Math.ceil(bound / 10));
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be positive`);
  return value;
}

/** Journals larger than this are read a path at a time when their totals are known. */
const LAZY_ABOVE = 4 * 1024 * 1024;
/**
 * A process that parsed this many events past the totals indexes the whole
 * journal once and saves fresh totals, so the next process parses few.
 */
const REFRESH_AFTER = 10_000;

/** A read's version larger than this is not synced ahead (a write replacing it syncs it then). */
const PREFETCH_MAX_FILE = 1024 * 1024;
/** Bytes of read versions waiting for their background fsync at most; past it reads sync nothing ahead. */
const PREFETCH_MAX_PENDING = 8 * 1024 * 1024;
/** How many durable versions the store remembers (the oldest is forgotten first). */
const DURABLE_REMEMBERED = 4096;

/** The shared part: one per History.open, shared by its forSession views. */
class Store {
  readonly dir: string;
  readonly journalPath: string;
  readonly lockPath: string;
  readonly blobs: BlobStore;
  /** Every call on the store, made beneath the project (or beneath `dir` when it is elsewhere). */
  readonly fs: BeneathFs;
  readonly index = new EventIndex();
  readonly maxBytes: number;
  readonly maxEntries: number;
  private readonly reader: JournalReader;
  /** Every append of this store, on one descriptor kept open while appends keep coming. */
  private readonly appender: JournalAppender;
  private eventLimit: number;
  private byteLimit: number;
  private journalEntrySynced = false;
  private readonly lazyAbove: number;
  /** While indexing a path at a time: the journal's start, counted earlier, not parsed here. */
  private prefix: JournalPrefix | undefined;
  private prefixCount = 0;
  private prefixBytes = 0;
  /** The events indexed after the prefix, in journal order (kept while there is one). */
  private tail: StoredEvent[] = [];
  /** Whether "durable" writes are fsync'ed (HistoryOptions.fsync). */
  readonly fsync: boolean;
  /** Whether versions are made durable ahead, in the background (HistoryOptions.relaxed). */
  readonly relaxed: boolean;
  /**
   * `path\0sha` of versions durable in history (the blob synced, and a
   * journal line naming it for that path): true, or the round syncing them.
   */
  private readonly durable = new Map<string, true | Promise<void>>();
  private pendingBytes = 0;

  constructor(options: HistoryOptions) {
    this.dir = options.dir;
    this.fsync = options.fsync ?? true;
    this.relaxed = this.fsync && options.relaxed === true;
    this.maxBytes = positive(options.maxBytes, DEFAULT_MAX_BYTES, "maxBytes");
    this.maxEntries = positive(options.maxEntries, DEFAULT_MAX_ENTRIES, "maxEntries");
    this.eventLimit = this.maxEntries + margin(this.maxEntries);
    this.byteLimit = this.maxBytes + margin(this.maxBytes);
    this.lazyAbove = positive(options.lazyAbove, LAZY_ABOVE, "lazyAbove");
    const layout = stateLayout(this.dir);
    this.journalPath = layout.journal;
    this.lockPath = layout.historyLock;
    let fs: BeneathFs | undefined;
    try {
      fs = BeneathFs.around(this.dir, options.root);
      ensureDir(fs, this.dir);
      const { gitignore } = layout;
      try {
        fs.create(gitignore, "*\n");
      } catch (error) {
        if (!isErrno(error, "EEXIST")) throw error;
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code !== "string") throw error;
      this.unavailable = unavailableError(this.dir, code);
    }
    this.fs = fs ?? new BeneathFs(options.root ?? this.dir);
    if (!this.unavailable) sweepDeadTemps(this.fs, this.dir); // a killed compaction's journal, totals
    const { blobs } = layout;
    this.blobs = new BlobStore(
      blobs,
      this.fsync,
      this.fs,
      spareStage(this.fs, blobs, options.sparesDir),
    );
    this.reader = new JournalReader(this.fs, this.journalPath);
    this.appender = new JournalAppender(this.fs, this.journalPath);
  }

  /**
   * Set when the history folder cannot be made or written (a read-only
   * project, `.splice` a file or unreadable): reads are then indexed in
   * memory only, and every write is refused with this error, since no
   * backup could be kept.
   */
  readonly unavailable: ToolError | undefined;

  /** Index whatever was appended since the last look (all of it after a compaction). */
  catchUp(): void {
    if (this.unavailable) return;
    const { reset, events, raw, landed } = this.reader.poll(this.lazyAbove);
    if (reset) {
      this.index.reset();
      this.forgetPrefix();
    }
    if (raw) this.load(raw);
    if (landed) this.index.markLanded(landed);
    for (const event of events) this.add(event);
  }

  private add(event: StoredEvent): void {
    this.index.add(event);
    if (this.prefix) this.tail.push(event);
  }

  /**
   * A large journal read from the start: when an earlier process left totals
   * that fit it, what they cover stays unparsed; otherwise all is indexed,
   * and the totals written for the next process.
   */
  private load(raw: Buffer): void {
    const totals = readTotals(this.dir, this.fs);
    if (!totals || !totalsFit(totals, this.reader.position(), raw)) {
      const parsed = parseChunk(raw);
      for (const event of parsed.events) this.index.add(event);
      this.index.markLanded(parsed.landed);
      this.saveTotals();
      return;
    }
    this.prefix = new JournalPrefix(raw.subarray(0, totals.offset));
    this.prefixCount = totals.count;
    this.prefixBytes = totals.bytes;
    const rest = parseChunk(raw.subarray(totals.offset));
    for (const event of rest.events) this.add(event);
    this.index.markLanded(rest.landed);
    if (this.tail.length > REFRESH_AFTER) this.indexAll();
  }

  /** Parses the prefix too, so the index holds the whole journal (and saves fresh totals). */
  private indexAll(): void {
    const { prefix, tail } = this;
    if (!prefix) return;
    this.forgetPrefix();
    const landed = this.index.landedSoFar();
    this.index.reset();
    const parsed = prefix.parsed();
    for (const event of parsed.events) this.index.add(event);
    for (const event of tail) this.index.add(event);
    this.index.markLanded(parsed.landed);
    this.index.markLanded(landed);
    this.saveTotals();
  }

  private forgetPrefix(): void {
    this.prefix = undefined;
    this.prefixCount = 0;
    this.prefixBytes = 0;
    this.tail = [];
  }

  private saveTotals(): void {
    const { ino, head, offset } = this.reader.position();
    writeTotals(this.fs, this.dir, {
      ino,
      head,
      offset,
      count: this.index.count,
      bytes: this.index.bytes,
    });
  }

  /** An index that answers exactly for one path: the store's, or one of that path's events. */
  pathIndex(path: string): EventIndex {
    if (!this.prefix) return this.index;
    const view = new EventIndex();
    for (const event of this.prefix.eventsOf(path)) view.add(event);
    for (const event of this.index.eventsOf(path)) view.add(event);
    return view;
  }

  /** The index of the whole journal. */
  fullIndex(): EventIndex {
    this.indexAll();
    return this.index;
  }

  /** Appends a completion mark (not synced: a lost one only hides a change from undo's pick). */
  appendLanded(id: string): void {
    if (this.unavailable) return;
    const appended = this.appender.append([landedLine(id)], false, this.lockPath);
    this.index.markLanded([id]);
    if (!this.reader.acknowledge(appended)) this.catchUp();
  }

  /** Appends the completion marks of a batch in one write. */
  appendLandedAll(ids: readonly string[]): void {
    if (this.unavailable || ids.length === 0) return;
    const appended = this.appender.append(ids.map(landedLine), false, this.lockPath);
    this.index.markLanded([...ids]);
    if (!this.reader.acknowledge(appended)) this.catchUp();
  }

  /**
   * Appends durable events in one write (a batch's journal lines), synced into
   * `barrier`; returns their ids in order.
   */
  appendAll(events: readonly JournalEvent[], barrier: SyncBarrier): string[] {
    if (this.unavailable) throw this.unavailable;
    if (events.length === 0) return [];
    const stored = events.map((event) => ({ id: newEventId(), ...event }));
    const lines = stored.map(serializeEvent);
    const appended = this.appender.append(lines, this.fsync, this.lockPath, barrier);
    if (this.fsync && !this.journalEntrySynced) {
      barrier.addFolder(this.dir);
      barrier.onSynced(() => {
        this.journalEntrySynced = true;
      });
    }
    if (this.reader.acknowledge(appended)) {
      for (const line of lines) {
        const own = parseEvent(line);
        if (own) this.add(own);
      }
    } else this.catchUp();
    this.collectIfOver();
    return stored.map((e) => e.id);
  }

  /** Appends an event; a durable one is synced into `barrier` when given, else right away. */
  append(event: JournalEvent, wanted: boolean, barrier?: SyncBarrier): string {
    const durable = wanted && this.fsync;
    const id = newEventId();
    if (this.unavailable) {
      if (event.kind !== "read") throw this.unavailable;
      this.index.add({ id, ...event });
      return id;
    }
    const line = serializeEvent({ id, ...event });
    const appended = this.appender.append([line], durable, this.lockPath, barrier);
    if (durable && !this.journalEntrySynced) {
      // The journal file may have just been created: make its name durable too.
      const sync = barrier ?? new SyncBarrier();
      sync.addFolder(this.dir);
      sync.onSynced(() => {
        this.journalEntrySynced = true;
      });
      if (!barrier) sync.flushSync();
    }
    // Our own line is indexed as written, unless others appended around it.
    const own = parseEvent(line);
    if (own && this.reader.acknowledge(appended)) this.add(own);
    else this.catchUp();
    this.collectIfOver();
    return id;
  }

  /** Whether `sha` of `path` is durable in history: true, the round that makes it so, or undefined. */
  durableState(path: string, sha: string): true | Promise<void> | undefined {
    return this.durable.get(`${path}\0${sha}`);
  }

  /**
   * Syncs `barrier` (a version's blob) with the journal in the background;
   * `path`'s version `sha` counts as durable once that round is done.
   */
  syncAhead(path: string, sha: string, barrier: SyncBarrier, bytes: number): void {
    const key = `${path}\0${sha}`;
    barrier.add(this.journalPath);
    if (!this.journalEntrySynced) barrier.addFolder(this.dir);
    barrier.onSynced(() => {
      this.journalEntrySynced = true;
    });
    this.pendingBytes += bytes;
    const round = backgroundSync.defer(barrier);
    this.remember(key, round);
    round.then(
      () => {
        this.pendingBytes -= bytes;
        if (this.durable.get(key) === round) this.remember(key, true);
      },
      () => {
        this.pendingBytes -= bytes;
        if (this.durable.get(key) === round) this.durable.delete(key);
      },
    );
  }

  /** Whether a read of `size` bytes may be synced ahead now (the bounds of the background queue). */
  mayPrefetch(path: string, sha: string, size: number): boolean {
    return (
      this.relaxed &&
      !this.unavailable &&
      size <= PREFETCH_MAX_FILE &&
      this.pendingBytes + size <= PREFETCH_MAX_PENDING &&
      !this.durable.has(`${path}\0${sha}`)
    );
  }

  private remember(key: string, state: true | Promise<void>): void {
    this.durable.delete(key);
    this.durable.set(key, state);
    if (this.durable.size > DURABLE_REMEMBERED) {
      this.durable.delete(this.durable.keys().next().value as string);
    }
  }

  /** Collect when a bound is exceeded by more than its margin; the totals are kept as we go. */
  private collectIfOver(): void {
    // With a prefix, its totals make these upper bounds; only then index it all to be exact.
    const over = () =>
      this.prefixCount + this.index.count > this.eventLimit ||
      this.prefixBytes + this.index.bytes > this.byteLimit;
    if (!over()) return;
    this.indexAll();
    if (!over()) return;
    try {
      this.collect();
    } catch {
      // The event is already recorded; a failed collection only means the
      // store stays over its bound until the next attempt.
    }
  }

  collect(): CollectResult {
    if (this.unavailable) return { removedBlobs: 0, freedBytes: 0 };
    const outcome = compact({
      fs: this.fs,
      dir: this.dir,
      journalPath: this.journalPath,
      blobs: this.blobs,
      maxBytes: this.maxBytes,
      maxEntries: this.maxEntries,
    });
    this.catchUp();
    if (!outcome) return { removedBlobs: 0, freedBytes: 0 };
    // The newest event of each path is kept even past the bounds: do not
    // retry on every call when that alone exceeds them.
    this.eventLimit = Math.max(this.maxEntries, outcome.events) + margin(this.maxEntries);
    this.byteLimit = Math.max(this.maxBytes, outcome.bytes) + margin(this.maxBytes);
    return { removedBlobs: outcome.removedBlobs, freedBytes: outcome.freedBytes };
  }
}

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
    // Reading the same version again adds nothing to the journal but a time.
    if (this.store.pathIndex(path).isRepeatRead(this.session, path, sha, range)) {
      if (ahead) this.putBlob(bytes, true, sha, ahead);
    } else {
      this.putBlob(bytes, ahead !== undefined, sha, ahead);
      this.store.append(readEvent(path, this.session, version, range), false);
    }
    if (ahead) this.store.syncAhead(path, sha, ahead, bytes.length);
    return version;
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
    // Relaxed: a version already durable (or being made so) needs no sync here,
    // nor the journal line, which then only has to be durable before exit.
    let named = false;
    if (e.before) {
      const sha = e.before.sha ?? sha256(e.before.bytes);
      const state =
        barrier && this.store.relaxed ? this.store.durableState(e.path, sha) : undefined;
      // Checked to be whole even when synced ahead (a damaged blob is written and synced again).
      this.putBlob(e.before.bytes, true, sha, sync);
      if (state !== undefined && state !== true) sync.waitFor(state);
      named = state !== undefined;
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
  recordWrites(records: readonly WriteRecord[], barrier: SyncBarrier): { id: string }[] {
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
    return this.store.appendAll(events, barrier).map((id) => ({ id }));
  }

  /** Marks every pending change of a batch as landed, in one append. */
  landedAll(ids: readonly string[]): void {
    this.store.appendLandedAll(ids);
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
  VersionRef,
  WriteRecord,
} from "./types.js";

import { stateLayout } from "../util/state-folder.js";

/**
 * Staging in the process's spare pool, made on the first new blob (a
 * process that only reads makes none), when the pool and the blobs share a
 * file system (a spare is moved, not copied); undefined when there is no pool.
 */
function spareStage(
  fs: BeneathFs,
  blobs: string,
  dir: string | undefined,
): () => Stage | undefined {
  let stage: Stage | null | undefined; // null: no pool, or another file system
  return () => {
    if (stage === undefined && dir !== undefined) {
      const pool = SparePool.in(fs, dir);
      let dev: number | undefined;
      try {
        dev = fs.lstat(blobs).dev;
      } catch {
        return undefined; // no blob folder yet: the first blob makes it, the next one asks again
      }
      stage = pool && pool.dev === dev ? (at) => pool.stageTo(at) : null;
    }
    return stage ?? undefined;
  };
}
