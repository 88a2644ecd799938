/**
 * Waiting for the disk once instead of once per file. A durable write must
 * fsync several files (the staged new version, the backup of the old one,
 * its folder, the journal). One after another, each fsync costs a round
 * trip to the disk; side by side on the thread pool they mostly share one.
 */
import { close, closeSync, fsync, fsyncSync, open, openSync } from "node:fs";

/** Whether `error` is a system error with one of these codes. */
export function isErrno(error: unknown, ...codes: string[]): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && codes.includes(code);
}

/**
 * Read-only, as POSIX allows (a file being written may already carry its
 * final read-only mode); Windows flushes only files open for writing.
 */
const flagsFor = (folder: boolean) => (!folder && process.platform === "win32" ? "r+" : "r");

/** Platforms that cannot open or sync folders (Windows) skip them. */
const unsupported = (error: unknown, folder: boolean) =>
  folder && isErrno(error, "EISDIR", "EPERM", "EACCES", "EINVAL", "EBADF");

/**
 * Test seam (the power-loss test): told of each fsync as it starts; the
 * function it returns is called once that fsync has finished.
 */
export const syncProbe: {
  onSync?: (path: string, folder: boolean) => (() => void) | undefined;
  /** Awaited after each asynchronous fsync, before it counts as done (a slow disk). */
  hold?: () => Promise<void>;
} = {};

/** fsync a file or folder by path; any descriptor of a file flushes all of it. */
export async function fsyncPath(path: string, folder = false): Promise<void> {
  const probed = syncProbe.onSync?.(path, folder);
  await fsyncPathUnprobed(path, folder);
  if (syncProbe.hold) await syncProbe.hold();
  probed?.();
}

/** open, fsync, close with callbacks: a FileHandle costs the main thread several times more per call. */
function fsyncPathUnprobed(path: string, folder: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    open(path, flagsFor(folder), (error, fd) => {
      if (error) return unsupported(error, folder) ? resolve() : reject(error);
      fsync(fd, (failed) => {
        close(fd, (closing) => {
          const first = failed && !unsupported(failed, folder) ? failed : closing;
          if (first) reject(first);
          else resolve();
        });
      });
    });
  });
}

/** fsync an open descriptor of `path` (the probe is told the path). */
export function fsyncFd(fd: number, path: string, folder = false): void {
  const probed = syncProbe.onSync?.(path, folder);
  fsyncSync(fd);
  probed?.();
}

/** fsyncPath without the thread pool, for callers that cannot wait. */
export function fsyncPathSync(path: string, folder = false): void {
  const probed = syncProbe.onSync?.(path, folder);
  fsyncPathSyncUnprobed(path, folder);
  probed?.();
}

function fsyncPathSyncUnprobed(path: string, folder: boolean): void {
  let fd: number;
  try {
    fd = openSync(path, flagsFor(folder));
  } catch (error) {
    if (unsupported(error, folder)) return;
    throw error;
  }
  try {
    fsyncSync(fd);
  } catch (error) {
    if (!unsupported(error, folder)) throw error;
  } finally {
    closeSync(fd);
  }
}

/**
 * Files and folders to fsync together. Nothing may rely on them (a file
 * replaced, a result returned) until `flush` has settled.
 */
export class SyncBarrier {
  readonly #paths = new Map<string, boolean>();
  readonly #onSynced: (() => void)[] = [];
  readonly #waitFor: Promise<unknown>[] = [];

  /** Whether flushing would wait for anything. */
  get empty(): boolean {
    return this.#paths.size === 0 && this.#waitFor.length === 0;
  }

  /** Makes `flush` wait for a sync already under way elsewhere (a background round). */
  waitFor(pending: Promise<unknown>): void {
    this.#waitFor.push(pending);
  }

  /** Takes over another barrier's paths and callbacks (coalescing rounds). */
  absorb(other: SyncBarrier): void {
    for (const [path, folder] of other.#paths)
      this.#paths.set(path, folder || (this.#paths.get(path) ?? false));
    this.#onSynced.push(...other.#onSynced);
    this.#waitFor.push(...other.#waitFor);
  }

  add(path: string): void {
    this.#paths.set(path, this.#paths.get(path) ?? false);
  }

  addFolder(path: string): void {
    this.#paths.set(path, true);
  }

  /** Runs `fn` once every path has been synced (not at all if a sync fails). */
  onSynced(fn: () => void): void {
    this.#onSynced.push(fn);
  }

  /** `missingOk`: a path gone since it was added (removed, collected) has nothing left to sync. */
  async flush({ missingOk = false } = {}): Promise<void> {
    const paths = [...this.#paths];
    this.#paths.clear();
    await Promise.all([
      ...this.#waitFor.splice(0),
      ...paths.map(([path, folder]) => fsyncPath(path, folder).catch(missing(missingOk))),
    ]);
    this.#done();
  }

  flushSync({ missingOk = false } = {}): void {
    for (const [path, folder] of this.#paths) {
      try {
        fsyncPathSync(path, folder);
      } catch (error) {
        missing(missingOk)(error);
      }
    }
    this.#done();
  }

  #done(): void {
    const done = this.#onSynced.splice(0);
    this.#paths.clear();
    for (const fn of done) fn();
  }
}

const missing = (ok: boolean) => (error: unknown) => {
  if (!(ok && isErrno(error, "ENOENT", "ENOTDIR"))) throw error;
};

/**
 * How much a write waits for the disk. "full": every byte it wrote and the
 * old version it replaced are fsynced before it answers. "relaxed" (the
 * default): only the old version, and a journal line naming it, are
 * durable before the file is replaced; the new bytes are flushed in the
 * background, coalesced, and always before the process exits. "none": no
 * fsync at all (still atomic, still safe against a killed process).
 */
export type Durability = "full" | "relaxed" | "none";

/** The library option (true is "full", as before relaxed existed) or the environment's SPLICE_DURABLE. */
export function durabilityOf(option: boolean | Durability | undefined, env?: string): Durability {
  if (option === true) return "full";
  if (option === false) return "none";
  if (option !== undefined) return option;
  if (env === "0") return "none";
  if (env === "full") return "full";
  return "relaxed";
}

/** How often a write's hot path still waited for an fsync (process-wide, for benchmarks). */
export const syncStats = { writes: 0, waited: 0 };

/**
 * fsyncs deferred off the hot path, coalesced: everything deferred while a
 * round runs is synced together in the next one. Two per process (history,
 * project files), so that `flushBackground` (and the exit hook) covers every
 * toolkit's pending bytes, and a write waiting for history's round does not
 * also wait for the files'.
 */
export class BackgroundSync {
  #next: SyncBarrier | undefined;
  #nextDone: Promise<void> | undefined;
  #running: Promise<void> = Promise.resolve();
  #inFlight: SyncBarrier | undefined;
  #failure: unknown;
  #hooked = false;

  /** Syncs `barrier`'s paths in the next round; resolves when they are durable. */
  defer(barrier: SyncBarrier): Promise<void> {
    if (!this.#hooked) {
      this.#hooked = true;
      // process.exit() skips pending work: flush what is left, synchronously.
      process.once("exit", () => {
        try {
          this.flushSync();
        } catch (error) {
          // Nothing is left to tell but stderr: the process is ending either way.
          process.stderr.write(
            `splice: an fsync at exit failed (${(error as Error).message}): the newest writes are in place but may not survive a power loss.\n`,
          );
        }
      });
    }
    if (this.#next) {
      this.#next.absorb(barrier);
      return this.#nextDone!;
    }
    const next = barrier;
    this.#next = next;
    this.#nextDone = this.#running.then(
      () =>
        new Promise<void>((resolve, reject) => {
          setImmediate(() => {
            if (this.#next === next) this.#next = undefined;
            this.#inFlight = next;
            next.flush({ missingOk: true }).then(resolve, (error) => {
              this.#failure ??= error;
              reject(error);
            });
          });
        }),
    );
    this.#nextDone.catch(() => {}); // a failure is reported by flush()
    this.#running = this.#nextDone.then(
      () => {
        this.#inFlight = undefined;
      },
      () => {
        this.#inFlight = undefined;
      },
    );
    return this.#nextDone;
  }

  /** Resolves once everything deferred so far is durable; rejects with the first fsync that failed. */
  async flush(): Promise<void> {
    while (this.#next || this.#inFlight) await this.#running;
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure !== undefined) throw failure;
  }

  /** The exit path: syncs what is in flight or waiting, without the thread pool. */
  flushSync(): void {
    for (const barrier of [this.#inFlight, this.#next]) barrier?.flushSync({ missingOk: true });
  }
}

/** History's versions synced ahead: the round an edit may have to wait for. */
export const backgroundSync = new BackgroundSync();
/** The new bytes of project files (relaxed): nothing waits for these but flush and exit. */
export const backgroundFiles = new BackgroundSync();

/** Resolves once every deferred fsync of this process is done; rejects with the first that failed. */
export async function flushBackground(): Promise<void> {
  await Promise.all([backgroundSync.flush(), backgroundFiles.flush()]);
}
