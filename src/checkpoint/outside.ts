/**
 * Changes made outside splice (an editor, a build), recorded in history as
 * they happen, so a later edit merges against them and undo can put a file
 * back as it was before. A root watch names the paths; a metadata table (the
 * checkpoint's: size, mtime, inode, mode per file) says which of them really
 * changed, and the bytes decide whether splice itself wrote them: a version
 * history already ends at is splice's own write (the write pipeline records
 * before it replaces), never an outside change.
 *
 * Bounded: files up to CAPTURE_MAX_BYTES, VERSIONS_PER_MINUTE versions and
 * BATCH_BYTES bytes a batch; past that a change is named, counted and not
 * kept. When the watch lost track the table is walked again and diffed, so
 * what a burst did is still found. The same table makes `run`'s checkpoint
 * incremental: while the watch runs, its before and after passes re-stat only
 * what the watch named.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { EventBus, OutsideChange, OutsideReport } from "../events.js";
import { historyFailure } from "../history/failure.js";
import type { HistoryStore, WriteRecord } from "../history/types.js";
import { SyncBarrier } from "../util/durable.js";
import { identify } from "../util/hash.js";
import { newBackupId } from "../util/ids.js";
import { RootWatch, type WatchBatch } from "../workspace/root-watch.js";
import { type FileMeta, metaOf, sameMeta } from "./meta.js";
import { LISTED_MAX } from "./record.js";
import {
  CAPTURE_MAX_BYTES,
  type ChangeKind,
  diffSnapshots,
  type Snapshot,
  type SnapshotDeps,
  takeSnapshot,
} from "./snapshot.js";
import { readClock } from "./table.js";

/** An error as one line: its message, or what it is. */
const errorLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/\.?$/, ".");

/** Versions of outside changes kept per minute at most, over every file. */
export const VERSIONS_PER_MINUTE = 1_000;
/**
 * Trees smaller than this are walked around a command even while watched:
 * the watcher delivers a batch ~50 ms after its first event (its debounce),
 * about what walking 5,000 files costs.
 */
export const WALK_BELOW = 5_000;
/** New bytes one batch keeps in history at most. */
export const BATCH_BYTES = 64 * 1024 * 1024;

export interface OutsideDeps extends SnapshotDeps {
  events: EventBus;
  /** Where outside versions are recorded: a session of their own, so they vouch for no model's edit. */
  outsideHistory: HistoryStore;
}

export interface OutsideWatchOptions {
  debounceMs?: number;
  maxPaths?: number;
}

/** What one batch of outside changes came to, as it is gone through. */
interface Tally {
  records: WriteRecord[];
  listed: OutsideChange[];
  notRecorded: number;
  /** Versions recorded as reads only (not undoable). */
  recorded: number;
}

export class OutsideWatch {
  readonly #deps: OutsideDeps;
  #watch: RootWatch | undefined;
  #table: Snapshot | undefined;
  /** Batches are handled one at a time, in order. */
  #queue: Promise<unknown> = Promise.resolve();
  #minute = { start: 0, versions: 0 };

  private constructor(deps: OutsideDeps) {
    this.#deps = deps;
  }

  /**
   * Watches the root, then walks it once for the table (a change during the
   * walk is an event, applied after it). Rejects when the root cannot be watched.
   */
  static async start(deps: OutsideDeps, options: OutsideWatchOptions = {}): Promise<OutsideWatch> {
    const outside = new OutsideWatch(deps);
    outside.#watch = await RootWatch.start(deps.guard, deps.workspace, {
      ...options,
      onBatch: (batch) => outside.#serial(() => outside.#outside(batch)),
      onError: (error) => outside.#failed(error),
    });
    const hold = outside.#watch.hold();
    try {
      outside.#table = await takeSnapshot(deps, false);
    } catch (error) {
      await outside.close();
      throw error;
    } finally {
      hold();
    }
    return outside;
  }

  /**
   * A batch that could not be recorded (history's folder removed or
   * unwritable, a file unreadable): no call runs to carry the error, so the
   * bus tells it (a server logs it), and the watch goes on with the next one.
   */
  #failed(error: unknown): void {
    const { history, events, guard } = this.#deps;
    const e = error as NodeJS.ErrnoException;
    const inHistory = historyFailure(error, history.dir) !== undefined;
    const why = inHistory
      ? `its folder ${history.dir} could not be used (${e.code} on ${e.syscall} of ${e.path}).`
      : errorLine(error);
    events.emit({
      type: "background_failure",
      task: "outside changes",
      message: `changes made outside splice in ${guard.root} were not recorded in history: ${why} The watch goes on; the next change is recorded again.`,
    });
  }

  /** Holds outside batches back while a call of splice's own runs. */
  hold(): () => void {
    return this.#watch?.hold() ?? (() => {});
  }

  /**
   * Before a command: records what changed outside since the last batch,
   * then gives the table as of now (a copy), which `takeSnapshot` takes in
   * place of its walk.
   */
  before(): Promise<Snapshot | undefined> {
    return this.#serial(async () => {
      if (!this.#watch) return undefined; // closed: the caller walks
      const at = new Date().toISOString();
      if (this.#small()) {
        // A walk is cheaper than waiting for the mark: it finds what changed outside, events in flight too.
        await this.#watch.drain();
        await this.#tell(await this.#rewalk(), false);
      } else await this.#outside(await this.#watch.sync());
      return this.#copy(at);
    });
  }

  /**
   * After a command: the table with what the watch named applied, none of it
   * told as outside (on a small tree a walk, which becomes the table).
   */
  after(): Promise<Snapshot | undefined> {
    return this.#serial(async () => {
      if (!this.#watch) return undefined;
      const at = new Date().toISOString();
      if (this.#small()) {
        // Events still in flight find the walked table already as they say.
        await this.#watch.drain();
        await this.#rewalk();
      } else await this.#apply(await this.#watch.sync());
      return this.#copy(at);
    });
  }

  /** Below WALK_BELOW files, two walks cost less than two marks' round trips (~50 ms each). */
  #small(): boolean {
    return (this.#table?.files.size ?? 0) < WALK_BELOW;
  }

  async close(): Promise<void> {
    await this.#watch?.close();
    this.#watch = undefined;
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => {});
    return run;
  }

  /** The table as of `at` (when the caller asked for it). */
  #copy(at: string): Snapshot | undefined {
    const table = this.#table;
    if (!table) return undefined;
    // The table replaces a file's meta, never changes one (a capture only adds the sha of
    // the bytes it read), so the copy may share them.
    const { files, unwatched } = table;
    return { at, files: new Map(files), unwatched: [...unwatched], uncaptured: new Set() };
  }

  /** Brings the table up to date with `batch`; returns what changed by its metadata. */
  async #apply(batch: WatchBatch): Promise<[string, ChangeKind][]> {
    const table = this.#table;
    if (!table) return [];
    // A .gitignore or a new folder changes what the walk sees: walk again.
    const rewalk =
      batch.lost ||
      batch.paths.some(
        (rel) => rel === ".gitignore" || rel.endsWith("/.gitignore") || this.#isFolder(rel),
      );
    if (rewalk) return this.#rewalk();
    const changes: [string, ChangeKind][] = [];
    const clock = readClock(this.#deps); // before the stats: what changes after it is racy
    const removed = (prefix: string) => {
      for (const rel of table.files.keys()) {
        if (rel.startsWith(prefix)) {
          table.files.delete(rel);
          changes.push([rel, "deleted"]);
        }
      }
    };
    for (const rel of batch.paths) {
      const was = table.files.get(rel);
      const now = this.#stat(rel, clock);
      if (now) table.files.set(rel, now);
      else if (was) table.files.delete(rel);
      else removed(`${rel}/`); // a folder removed: its files went with it
      if (!now && was) changes.push([rel, "deleted"]);
      else if (now && !was) changes.push([rel, "created"]);
      else if (now && was && !sameMeta(now, was)) changes.push([rel, "changed"]);
    }
    return changes;
  }

  /** Walks the root for a fresh table; returns what differs from the last. */
  async #rewalk(): Promise<[string, ChangeKind][]> {
    const fresh = await takeSnapshot(this.#deps, false);
    const last = this.#table;
    this.#table = fresh;
    return last ? diffSnapshots(last, fresh) : [];
  }

  #isFolder(rel: string): boolean {
    try {
      return lstatSync(join(this.#deps.guard.root, rel)).isDirectory();
    } catch {
      return false;
    }
  }

  #stat(rel: string, clock: number | undefined): FileMeta | undefined {
    try {
      const st = lstatSync(join(this.#deps.guard.root, rel), { throwIfNoEntry: false });
      return st?.isFile() ? metaOf(st, clock) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Applies `batch` and records its changes as outside ones; tells the bus when any was real. */
  async #outside(batch: WatchBatch): Promise<void> {
    await this.#tell(await this.#apply(batch), batch.lost);
  }

  async #tell(changes: [string, ChangeKind][], lostTrack: boolean): Promise<void> {
    if (changes.length === 0) return;
    const report = await this.#record(changes, lostTrack);
    if (report) this.#deps.events.emit({ type: "outside_changes", ...report });
  }

  async #record(
    changes: [string, ChangeKind][],
    lostTrack: boolean,
  ): Promise<OutsideReport | undefined> {
    const { workspace, guard, history, outsideHistory } = this.#deps;
    const now = Date.now();
    if (now - this.#minute.start >= 60_000) this.#minute = { start: now, versions: 0 };
    const tally: Tally = { records: [], listed: [], notRecorded: 0, recorded: 0 };
    const { records, listed } = tally;
    let bytesLeft = BATCH_BYTES;
    const note = "changed outside splice";
    for (const [rel, kind] of changes) {
      const latest = history.latestKnown(rel);
      const old = latest ? history.getBlob(latest) : undefined;
      if (kind === "deleted") {
        this.#deleted(tally, rel, latest, old, note);
        continue;
      }
      const size = this.#table?.files.get(rel)?.size ?? 0;
      if (size > CAPTURE_MAX_BYTES || size > bytesLeft) {
        listed.push({ path: rel, kind });
        tally.notRecorded++;
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = await workspace.readFile(join(guard.root, rel));
      } catch {
        continue; // gone again, or unreadable: the next event or walk says what it became
      }
      const after = { bytes, ...identify(bytes) };
      // Splice's own write, or one under way (the file still the version it replaces).
      if (after.sha === latest || history.isOwnVersion(rel, after.sha)) continue;
      listed.push({ path: rel, kind });
      if (!this.#allow()) {
        tally.notRecorded++;
        continue;
      }
      bytesLeft -= bytes.length;
      if (old)
        records.push({
          kind: "write",
          path: rel,
          before: { bytes: old, ...identify(old) },
          after,
          note,
        });
      else if (kind === "created" && !latest)
        records.push({ kind: "write", path: rel, after, note });
      else {
        // Changed, but splice never kept what it replaced: the new version is known, not undoable.
        outsideHistory.recordRead(rel, bytes, after.tag, undefined, after.sha);
        tally.recorded++;
      }
    }
    if (listed.length === 0) return undefined;
    const report: OutsideReport = {
      changes: listed.slice(0, LISTED_MAX),
      more: Math.max(0, listed.length - LISTED_MAX),
      recorded: tally.recorded + records.length,
      notRecorded: tally.notRecorded,
      lostTrack,
    };
    if (records.length > 0) {
      const backup = newBackupId();
      const barrier = new SyncBarrier();
      outsideHistory.recordWrites(
        records.map((r) => ({ ...r, backup })),
        barrier,
      );
      barrier.flushSync();
      report.backupSession = backup;
    }
    return report;
  }

  /** A file deleted outside: its last version recorded, unless nothing known was there or splice itself deleted it (history ends at a delete). */
  #deleted(
    tally: Tally,
    rel: string,
    latest: string | undefined,
    old: Uint8Array | undefined,
    note: string,
  ): void {
    if (!latest && this.#deps.history.versions(rel).length > 0) return;
    tally.listed.push({ path: rel, kind: "deleted" });
    if (!latest || !old || !this.#allow()) {
      tally.notRecorded++;
      return;
    }
    tally.records.push({
      kind: "delete",
      path: rel,
      before: { bytes: old, ...identify(old) },
      note,
    });
  }

  /** Takes one version from the rate budget; false past it. */
  #allow(): boolean {
    if (this.#minute.versions >= VERSIONS_PER_MINUTE) return false;
    this.#minute.versions++;
    return true;
  }
}
