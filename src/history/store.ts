/**
 * The history store every session's view shares: the blob store, the
 * journal's reader and appender, the in-memory index that catches up with
 * other processes' appends before each query, and the bounds that collect
 * it. A `History` (history.ts) is one session's view of a Store.
 */
import type { ToolError } from "../errors.js";
import { backgroundSync, SyncBarrier } from "../util/durable.js";
import { stateLayout } from "../util/state-folder.js";
import type { BeneathFs } from "../workspace/beneath-fs.js";
import { sweepDeadTemps } from "../workspace/dead-temps.js";
import {
  type BatchIntent,
  type BatchStart,
  batchDoneLine,
  intentLine,
  intentOf,
  OpenBatches,
  scanBatchLines,
} from "./batches.js";
import { BlobStore } from "./blobs.js";
import { compact } from "./collect.js";
import { EventIndex } from "./event-index.js";
import { isErrno } from "./fsutil.js";
import {
  type Appended,
  JournalAppender,
  landedLine,
  newEventId,
  parseChunk,
  parseEvent,
  type StoredEvent,
  serializeEvent,
} from "./journal.js";
import { JournalPrefix, readTotals, totalsFit, writeTotals } from "./journal-prefix.js";
import { JournalReader } from "./journal-reader.js";
import { FolderCheck, makeFolder, openFolder, spareStage } from "./store-folder.js";
import { SyncedAhead } from "./synced-ahead.js";
import {
  type CollectResult,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_ENTRIES,
  type HistoryOptions,
  type JournalEvent,
  margin,
  positive,
} from "./types.js";

/** Journals larger than this are read a path at a time when their totals are known. */
const LAZY_ABOVE = 4 * 1024 * 1024;
/**
 * A process that parsed this many events past the totals indexes the whole
 * journal once and saves fresh totals, so the next process parses few.
 */
const REFRESH_AFTER = 10_000;

/** The shared part: one per History.open, shared by its forSession views. */
export class Store {
  readonly dir: string;
  readonly journalPath: string;
  readonly lockPath: string;
  readonly blobs: BlobStore;
  /** Every call on the store, made beneath the project (or beneath `dir` when it is elsewhere). */
  readonly fs: BeneathFs;
  readonly index = new EventIndex();
  /** Batches journaled and not marked done (batches.ts). */
  readonly batches = new OpenBatches();
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
  private ahead = new SyncedAhead();

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
    const folder = openFolder(this.dir, options.root);
    this.fs = folder.fs;
    this.#folder = new FolderCheck(this.fs, this.dir, folder.unavailable);
    if (!folder.unavailable) sweepDeadTemps(this.fs, this.dir); // a killed compaction's journal, totals
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

  readonly #folder: FolderCheck;

  /**
   * Set while the history folder cannot be made or written (a read-only
   * project, `.splice` a file or unreadable): reads are then indexed in
   * memory only, and every write is refused with this error, since no
   * backup could be kept. Tried again at most once a second.
   */
  get unavailable(): ToolError | undefined {
    return this.#folder.error;
  }

  /** Why the last read could not be journaled; cleared once an append works again. */
  unkept: ToolError | undefined;

  /** A read that could not be journaled (`failure` says why): known in memory only. */
  readUnkept(event: JournalEvent, failure: ToolError): void {
    this.index.add({ id: newEventId(), ...event });
    this.unkept = failure;
  }

  /** Index whatever was appended since the last look (all of it after a compaction). */
  catchUp(): void {
    if (this.unavailable) return;
    const { reset, events, raw, landed, batches } = this.reader.poll(this.lazyAbove);
    if (reset) {
      this.index.reset();
      this.forgetPrefix();
      this.batches.clear();
    }
    if (raw) this.load(raw);
    if (landed) this.index.markLanded(landed);
    if (batches) this.batches.add(batches);
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
      this.batches.add(parsed.batches);
      this.saveTotals();
      return;
    }
    this.prefix = new JournalPrefix(raw.subarray(0, totals.offset));
    this.prefixCount = totals.count;
    this.prefixBytes = totals.bytes;
    const rest = parseChunk(raw.subarray(totals.offset));
    for (const event of rest.events) this.add(event);
    this.index.markLanded(rest.landed);
    this.batches.add([...scanBatchLines(raw.subarray(0, totals.offset)), ...rest.batches]);
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
    const appended = this.#append([landedLine(id)], false);
    this.index.markLanded([id]);
    if (!this.reader.acknowledge(appended)) this.catchUp();
  }

  /** Appends the completion marks of a batch in one write; with `done`, the batch's done mark too. */
  appendLandedAll(ids: readonly string[], done?: string): void {
    const lines = [...ids.map(landedLine), ...(done === undefined ? [] : [batchDoneLine(done)])];
    if (this.unavailable || lines.length === 0) return;
    const appended = this.#append(lines, false);
    this.index.markLanded([...ids]);
    if (done !== undefined) this.batches.add([{ done }]);
    if (!this.reader.acknowledge(appended)) this.catchUp();
  }

  /**
   * Appends durable events in one write (a batch's journal lines), synced into
   * `barrier`, after the batch's intent when `batch` starts one; returns their
   * ids in order.
   */
  appendAll(events: readonly JournalEvent[], barrier: SyncBarrier, batch?: BatchStart): string[] {
    if (this.unavailable) throw this.unavailable;
    if (events.length === 0) return [];
    const stored = events.map((event) => ({ id: newEventId(), ...event }));
    const intent = batch && intentOf(batch, stored);
    const lines = [...(intent ? [intentLine(intent)] : []), ...stored.map(serializeEvent)];
    const appended = this.#append(lines, this.fsync, barrier);
    if (intent) this.batches.add([{ intent }]);
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
    const appended = this.#append([line], durable, barrier);
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

  /**
   * One append to the journal. A history folder removed under a running
   * process (`rm -rf .splice`) is made again, with its `.gitignore`, and the
   * append tried once more. A journal empty before the append is a new one
   * in a new folder: what this store knew to be durable there is not now.
   */
  #append(lines: string[], durable: boolean, barrier?: SyncBarrier): Appended {
    let appended: Appended;
    try {
      appended = this.appender.append(lines, durable, this.lockPath, barrier);
    } catch (error) {
      if (!isErrno(error, "ENOENT")) throw error;
      makeFolder(this.fs, this.dir);
      appended = this.appender.append(lines, durable, this.lockPath, barrier);
    }
    this.unkept = undefined;
    if (appended.start.size === 0) {
      this.journalEntrySynced = false;
      this.ahead = new SyncedAhead();
      try {
        makeFolder(this.fs, this.dir); // the .gitignore, when a blob made the folder again first
      } catch {
        // Removed again already: the line is appended, and the next new journal tries again.
      }
    }
    return appended;
  }

  /** The batches whose process stopped between their first rename and their done mark. */
  interruptedBatches(): BatchIntent[] {
    this.catchUp();
    return this.batches.interrupted();
  }

  /** Whether `sha` of `path` is durable in history: true, the round that makes it so, or undefined. */
  durableState(path: string, sha: string): true | Promise<void> | undefined {
    return this.ahead.state(path, sha);
  }

  /**
   * Syncs `barrier` (a version's blob) with the journal in the background;
   * `path`'s version `sha` counts as durable once that round is done.
   */
  syncAhead(path: string, sha: string, barrier: SyncBarrier, bytes: number): void {
    barrier.add(this.journalPath);
    if (!this.journalEntrySynced) barrier.addFolder(this.dir);
    barrier.onSynced(() => {
      this.journalEntrySynced = true;
    });
    this.ahead.track(path, sha, backgroundSync.defer(barrier), bytes);
  }

  /** Whether a read of `size` bytes may be synced ahead now (the bounds of the background queue). */
  mayPrefetch(path: string, sha: string, size: number): boolean {
    return this.relaxed && !this.unavailable && this.ahead.hasRoomFor(path, sha, size);
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
