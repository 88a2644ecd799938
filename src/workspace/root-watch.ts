/**
 * A watch on a whole root, for changes made outside splice (an editor, a
 * build). @parcel/watcher does the watching: native and recursive (one
 * inotify instance read by its own thread, events coalesced per path there),
 * so a burst reaches JavaScript as a few batches, not one callback per event.
 *
 * It reports root-relative paths `list` would show: heavy folders are ignored
 * natively, and `.gitignore` files, splice's temp names and the guard's
 * blocked and secret paths are filtered here. Paths are coalesced and
 * debounced; past `maxPaths` pending ones it stops naming them and says it
 * lost track (as when the kernel's queue overflowed, which the library does
 * not report), so the caller resyncs by a walk instead.
 */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import watcher from "@parcel/watcher";
import type { PathGuard } from "../guard/path-guard.js";
import { segmentsBelow } from "../util/paths.js";
import { isTempName, MARK_STEM, STAGED_TEMP_PATH, tempName } from "./temp.js";
import { ignoredBy, type Layer, loadLayer, SKIPPED_FOLDERS } from "./walk.js";
import type { Workspace } from "./workspace.js";

export interface WatchBatch {
  /** Root-relative paths events named (created, changed or removed), sorted. */
  paths: string[];
  /** Events were lost (a burst past the bound, or a watch error): every path may have changed. */
  lost: boolean;
}

export interface RootWatchOptions {
  /** Told each batch once `debounceMs` passed without an event (and nothing holds it). */
  onBatch: (batch: WatchBatch) => void | Promise<void>;
  /**
   * Told when a batch could not be taken or handled (onBatch threw or
   * rejected): the watch goes on, the failure is the caller's to report.
   */
  onError: (error: unknown) => void;
  /** Quiet time before a batch is told; default 200 ms. */
  debounceMs?: number;
  /** Pending paths at most; past it the watch says it lost track. Default 5,000. */
  maxPaths?: number;
  /** Longest a batch waits while events keep coming; default 1 s. */
  maxWaitMs?: number;
}

/** How long `sync` waits for its mark's event before taking track as lost. */
const MARK_TIMEOUT_MS = 2_000;

export class RootWatch {
  readonly #root: string;
  readonly #guard: PathGuard;
  readonly #workspace: Workspace;
  readonly #onBatch: (batch: WatchBatch) => void | Promise<void>;
  readonly #onError: (error: unknown) => void;
  readonly #debounceMs: number;
  readonly #maxPaths: number;
  readonly #maxWaitMs: number;
  /** When the oldest pending event came (0: none pending). */
  #since = 0;
  #subscription: watcher.AsyncSubscription | undefined;
  #pending = new Set<string>();
  #lost = false;
  #timer: NodeJS.Timeout | undefined;
  #holds = 0;
  #closed = false;
  /** Marks `sync` waits for: absolute path → resolve. */
  readonly #marks = new Map<string, () => void>();
  /** Root-relative folder → its .gitignore's rules (null: none); dropped when one changes. */
  readonly #layers = new Map<string, Layer | null>();

  private constructor(guard: PathGuard, workspace: Workspace, options: RootWatchOptions) {
    this.#root = guard.root;
    this.#guard = guard;
    this.#workspace = workspace;
    this.#onBatch = options.onBatch;
    this.#onError = options.onError;
    this.#debounceMs = options.debounceMs ?? 200;
    this.#maxPaths = options.maxPaths ?? 5_000;
    this.#maxWaitMs = options.maxWaitMs ?? 1_000;
  }

  /** Starts watching `guard.root`; rejects when it cannot (the user's inotify watch limit, say). */
  static async start(
    guard: PathGuard,
    workspace: Workspace,
    options: RootWatchOptions,
  ): Promise<RootWatch> {
    const watch = new RootWatch(guard, workspace, options);
    watch.#subscription = await watcher.subscribe(
      guard.root,
      (error, events) => watch.#events(error, events),
      {
        // Temp files are ignored natively: the watch's thread neither stats them nor wakes
        // JavaScript for them (#shown would drop them), about four events per write.
        ignore: [...[...SKIPPED_FOLDERS].map((name) => `**/${name}`), STAGED_TEMP_PATH],
        // On Linux inotify itself: the default first probes for watchman with a shell that
        // is never reaped, one zombie per watch in a long-lived engine.
        ...(process.platform === "linux" ? { backend: "inotify" as const } : {}),
      },
    );
    return watch;
  }

  /**
   * Holds batches back until the returned release is called (while a call of
   * splice's own runs, its writes are not told as outside changes).
   */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds--;
      this.#schedule();
    };
  }

  /**
   * Waits until every event of a change made before this call has arrived
   * (a temp-named mark is written at the root and its own event awaited: one
   * inotify queue delivers in order), then takes what is pending without
   * telling it as a batch. `lost` when the mark did not come back in time.
   */
  async sync(): Promise<WatchBatch> {
    const mark = path.join(this.#root, tempName(MARK_STEM));
    let arrived = false;
    try {
      const seen = new Promise<void>((resolve) => this.#marks.set(mark, resolve));
      writeFileSync(mark, "");
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, MARK_TIMEOUT_MS);
      });
      await Promise.race([seen.then(() => (arrived = true)), late]);
      clearTimeout(timer);
    } catch {
      // A root that cannot be written to: nothing proves the queue drained.
    } finally {
      this.#marks.delete(mark);
      rmSync(mark, { force: true });
    }
    if (!arrived) this.#lost = true;
    return this.#take();
  }

  /** What is pending now, without telling it as a batch (and without waiting for events in flight). */
  drain(): Promise<WatchBatch> {
    return this.#take();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const resolve of this.#marks.values()) resolve();
    await this.#subscription?.unsubscribe().catch(() => {});
  }

  #events(error: Error | null, events: watcher.Event[]): void {
    if (this.#closed) return;
    if (error) this.#lost = true;
    for (const { path: abs } of events) {
      const mark = this.#marks.get(abs);
      if (mark) {
        mark();
        continue;
      }
      if (this.#lost) continue;
      if (this.#pending.size >= this.#maxPaths) {
        this.#lost = true;
        this.#pending.clear();
        continue;
      }
      this.#pending.add(abs);
    }
    if (this.#since === 0 && (this.#pending.size > 0 || this.#lost)) this.#since = Date.now();
    this.#schedule();
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    if (this.#closed || this.#holds > 0) return;
    if (this.#pending.size === 0 && !this.#lost) return;
    // Quiet for debounceMs, or at the latest maxWaitMs after the first event.
    const wait = Math.min(
      this.#debounceMs,
      Math.max(0, this.#since + this.#maxWaitMs - Date.now()),
    );
    this.#timer = setTimeout(async () => {
      if (this.#holds > 0 || this.#closed) return;
      try {
        const batch = await this.#take();
        if (batch.paths.length > 0 || batch.lost) await this.#onBatch(batch);
      } catch (error) {
        // No call waits on a batch: a failure goes to the caller's report, never up the loop.
        this.#onError(error);
      }
    }, wait);
    this.#timer.unref();
  }

  async #take(): Promise<WatchBatch> {
    const lost = this.#lost;
    const pending = this.#pending;
    this.#pending = new Set();
    this.#lost = false;
    this.#since = 0;
    if (lost) this.#layers.clear();
    const paths: string[] = [];
    for (const abs of lost ? [] : pending) {
      if (path.basename(abs) === ".gitignore") this.#layers.clear();
    }
    for (const abs of lost ? [] : pending) {
      const rel = await this.#shown(abs);
      if (rel !== undefined) paths.push(rel);
    }
    return { paths: paths.sort(), lost };
  }

  /** The root-relative path, when `list` would show it (as a file, or what was one). */
  async #shown(abs: string): Promise<string | undefined> {
    const names = segmentsBelow(this.#root, abs);
    if (!names || names.length === 0) return undefined;
    const rel = names.join("/");
    if (isTempName(names.at(-1)!)) return undefined;
    if (names.some((name) => SKIPPED_FOLDERS.has(name))) return undefined;
    if (ignoredBy(await this.#layersFor(names), rel, false)) return undefined;
    try {
      this.#guard.check(abs, "read");
    } catch {
      return undefined; // secrets, blocked paths, links out: list does not show them
    }
    return rel;
  }

  /** The .gitignore layers from the root down to the folder holding `names`. */
  async #layersFor(names: string[]): Promise<Layer[]> {
    const layers: Layer[] = [];
    for (let depth = 0; depth < names.length; depth++) {
      const dir = names.slice(0, depth).join("/");
      let layer = this.#layers.get(dir);
      if (layer === undefined) {
        layer = (await loadLayer(this.#workspace, path.join(this.#root, dir), dir)) ?? null;
        this.#layers.set(dir, layer);
      }
      if (layer) layers.push(layer);
    }
    return layers;
  }
}
