/**
 * Waiting for the disk once instead of once per file. A durable write must
 * fsync several files (the staged new version, the backup of the old one,
 * its folder, the journal). One after another, each fsync costs a round
 * trip to the disk; side by side on the thread pool they mostly share one.
 */
import { closeSync, fsyncSync, openSync } from "node:fs";
import { open } from "node:fs/promises";

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

/** fsync a file or folder by path; any descriptor of a file flushes all of it. */
export async function fsyncPath(path: string, folder = false): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, flagsFor(folder));
  } catch (error) {
    if (unsupported(error, folder)) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!unsupported(error, folder)) throw error;
  } finally {
    await handle.close();
  }
}

/** fsyncPath without the thread pool, for callers that cannot wait. */
export function fsyncPathSync(path: string, folder = false): void {
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

  async flush(): Promise<void> {
    await Promise.all([...this.#paths].map(([path, folder]) => fsyncPath(path, folder)));
    this.#done();
  }

  flushSync(): void {
    for (const [path, folder] of this.#paths) fsyncPathSync(path, folder);
    this.#done();
  }

  #done(): void {
    for (const fn of this.#onSynced) fn();
    this.#paths.clear();
    this.#onSynced.length = 0;
  }
}
