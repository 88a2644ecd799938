/**
 * Which paths under watched folders may have changed, so that a warm lookup
 * can skip the lstat of every file it already checked. One non-recursive
 * `fs.watch` (inotify on Linux) per folder; a caller takes a ticket before it
 * checks a path, and vouches for the path once the check passed. A vouch
 * holds until an event names the path (or its folder's watch goes away), so
 * a path is trusted without a stat only when it was checked while watched and
 * nothing happened to it since.
 *
 * Events are delivered by the event loop, not at once: `settle` first lets
 * the loop poll twice, so every event the kernel queued before the call
 * (inotify queues them before the write that causes them returns) has been
 * applied. libuv drops the kernel's queue-overflow notice, so a burst of
 * events near the queue's size is taken as "lost track": every vouch is
 * dropped and callers check each path again.
 */
import { type FSWatcher, readFileSync, watch } from "node:fs";
import path from "node:path";
import { isInside } from "../util/paths.js";

/** What `vouch` needs: which watch covered the folder, and which settle it followed. */
export interface Ticket {
  readonly watcher: number;
  readonly settles: number;
}

interface Watched {
  serial: number;
  watcher: FSWatcher;
}

/** The kernel's per-instance event queue (inotify's max_queued_events); 16,384 by default. */
function queueSize(): number {
  try {
    const n = Number(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8"));
    return Number.isFinite(n) && n > 0 ? n : 16_384;
  } catch {
    return 16_384;
  }
}

/** Immediates run after the loop's poll phase; the second one follows a poll that began after this call. */
const afterPoll = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface TreeWatchOptions {
  /** Most folders watched (each is one inotify watch of the user's limit). */
  maxFolders?: number;
  /** Events between settles taken as a possible overflow; half the kernel's queue by default. */
  lostAfter?: number;
}

export class TreeWatch {
  readonly #folders = new Map<string, Watched>();
  /** Path → the watch its check was made under, and what the check found. */
  readonly #vouched = new Map<string, { serial: number; version: string }>();
  /** Paths events named since they were last vouched for: their stat may hide the change. */
  readonly #touched = new Set<string>();
  /** Paths named by events since the last settle ("" for a whole folder). */
  #pending = new Map<string, Set<string>>();
  #events = 0;
  #lost = false;
  #serial = 0;
  #settles = 0;
  #full = false;
  #closed = false;
  #changes = 0;
  readonly #maxFolders: number;
  readonly #lostAfter: number;

  constructor(options: TreeWatchOptions = {}) {
    this.#maxFolders = options.maxFolders ?? 8192;
    this.#lostAfter = options.lostAfter ?? Math.floor(queueSize() / 2);
  }

  /**
   * Bumped whenever a vouch may have been dropped (an event applied, a watch
   * gone, track lost): the same count means every vouch still holds.
   */
  get changes(): number {
    return this.#changes;
  }

  /** Whether `folder` (absolute) is watched now. */
  watches(folder: string): boolean {
    return this.#folders.has(folder);
  }

  /**
   * Starts watching `folder`, before the caller reads it: a change after this
   * returns is an event. False when it cannot be watched (the watch limit,
   * a folder gone): the caller checks its paths by stat as without a watch.
   */
  add(folder: string): boolean {
    if (this.#closed) return false;
    if (this.#folders.has(folder)) return true;
    if (this.#full || this.#folders.size >= this.#maxFolders) return false;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, { persistent: false }, (_type, name) => this.#event(folder, name));
    } catch (error) {
      // ENOSPC is the user's watch limit: stop asking for more; any other error is this folder's.
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") this.#full = true;
      return false;
    }
    const serial = ++this.#serial;
    watcher.on("error", () => this.#drop(folder, serial));
    this.#folders.set(folder, { serial, watcher });
    return true;
  }

  /**
   * Taken before a check of `abs` (a file, or `listing(folder)` for a
   * folder's entries); undefined when its folder is not watched.
   */
  ticket(abs: string, folder = path.dirname(abs)): Ticket | undefined {
    const watched = this.#folders.get(folder);
    return watched ? { watcher: watched.serial, settles: this.#settles } : undefined;
  }

  /**
   * Trusts `abs` as checked and found to be `version` (a content hash, say),
   * when the watch its ticket names still covers its folder and no settle
   * came between (its events may name the path).
   */
  vouch(abs: string, ticket: Ticket | undefined, version = "", folder = path.dirname(abs)): void {
    if (!ticket || ticket.settles !== this.#settles) return;
    if (this.#folders.get(folder)?.serial !== ticket.watcher) return;
    this.#vouched.set(abs, { serial: ticket.watcher, version });
    this.#touched.delete(abs);
  }

  /**
   * Whether an event named `abs` since it was last vouched for: a stat that
   * looks the same proves nothing then (a same-size write with its mtime put
   * back), so the caller compares the bytes.
   */
  touched(abs: string): boolean {
    return this.#touched.has(abs);
  }

  /** Whether `abs` is still the `version` it was vouched as (as of the last settle). */
  vouches(abs: string, version = ""): boolean {
    // A vouch made under a watch that has since gone was dropped with it.
    return this.#vouched.get(abs)?.version === version;
  }

  /** Applies every event queued before this call; true when it lost track (every vouch was dropped). */
  async settle(): Promise<boolean> {
    await afterPoll();
    await afterPoll();
    this.#settles++;
    const lost = this.#lost;
    if (lost || this.#pending.size > 0) this.#changes++;
    if (lost) this.#vouched.clear();
    for (const [folder, names] of lost ? [] : this.#pending) {
      // Any event in a folder may have changed its entries.
      this.#vouched.delete(listing(folder));
      for (const name of names) {
        const abs = path.join(folder, name);
        this.#vouched.delete(abs);
        this.#touched.add(abs);
        this.#dropTree(abs);
        // Events on the watched folder itself are named by its own base name.
        if (name === path.basename(folder)) this.#dropTree(folder);
      }
    }
    this.#pending = new Map();
    this.#events = 0;
    this.#lost = false;
    // Past a burst's worth of touched paths they are let go: judged by their stat again.
    if (this.#touched.size >= this.#lostAfter) this.#touched.clear();
    return lost;
  }

  close(): void {
    this.#closed = true;
    for (const { watcher } of this.#folders.values()) watcher.close();
    this.#folders.clear();
    this.#vouched.clear();
    this.#touched.clear();
    this.#pending.clear();
  }

  #event(folder: string, name: string | Buffer | null): void {
    if (this.#lost) return;
    if (++this.#events >= this.#lostAfter) {
      this.#lost = true;
      this.#pending.clear();
      return;
    }
    let names = this.#pending.get(folder);
    if (!names) {
      names = new Set();
      this.#pending.set(folder, names);
    }
    names.add(name === null ? path.basename(folder) : name.toString());
  }

  /** Stops watching `abs` and every folder below it, where it is watched. */
  #dropTree(abs: string): void {
    if (!this.#folders.has(abs)) return;
    for (const [folder, { serial }] of [...this.#folders]) {
      if (isInside(abs, folder)) this.#drop(folder, serial);
    }
  }

  #drop(folder: string, serial: number): void {
    const watched = this.#folders.get(folder);
    if (!watched || watched.serial !== serial) return;
    watched.watcher.close();
    this.#folders.delete(folder);
    this.#changes++;
    for (const [abs, vouched] of this.#vouched) {
      if (vouched.serial === serial) this.#vouched.delete(abs);
    }
  }
}

/** The key a folder's entries are vouched under (its path with a trailing separator). */
export const listing = (folder: string) => `${folder}${path.sep}`;
