import { close, closeSync, fchmodSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { backgroundFiles, type Durability, fsyncPath, SyncBarrier } from "../util/durable.js";
import { Beneath, FOLLOW } from "./beneath.js";
import { BeneathFs, PLAIN } from "./beneath-fs.js";
import { displacedBytes, settled, watchLate } from "./displaced.js";
import { withFileLock } from "./file-lock.js";
import {
  discard,
  existingMode,
  folderPath,
  holdFolder,
  holdOpen,
  isMissing,
  openAt,
  READ_FLAGS,
  REFUSED,
  readDirAt,
  readError,
  readOpen,
  releaseFolder,
  removeAside,
  STAGE_FLAGS,
  type Staged,
  type Swap,
  sameFolder,
  settle,
  statAt,
  stillHolds,
} from "./local-at.js";
import { openLogFile, pruneLogFiles } from "./log-file.js";
import { SparePool } from "./spares.js";
import { sweepTemps, tempName, testHangBeforeRename } from "./temp.js";
import {
  type DirEntry,
  type FileStat,
  type LogFile,
  type Workspace,
  type WorkspaceCapabilities,
  WorkspaceError,
  type WriteIfOptions,
  type WriteOptions,
} from "./workspace.js";

export interface LocalWorkspaceOptions {
  /**
   * When set, every call on a path resolves it beneath this directory at the
   * moment of the call (beneath.ts): a folder swapped for a link out of it
   * after the guard ran is refused, never followed. Paths outside it are refused.
   */
  confineTo?: string;
  /**
   * fsync files before renaming them into place (true or "full", the
   * default), after it in the background ("relaxed", durable.ts), or never.
   */
  durable?: boolean | Durability;
  /** Where compare-and-swap writes keep their lock files (default: the OS temp folder). */
  lockDir?: string;
  /** Where spare inodes for temp files are made ahead (spares.ts; default: none). */
  sparesDir?: string;
}

/**
 * The local disk. Writes go to a temp file in the same folder, then rename.
 * The calls are synchronous behind the async interface: each one is a
 * single short system call, and a trip through libuv's thread pool per call
 * cost more than the calls themselves (an edit makes about twenty).
 */
export class LocalWorkspace implements Workspace {
  readonly kind = "local";
  readonly capabilities: WorkspaceCapabilities = { localFiles: true, statWalk: true };
  readonly #disk: Pick<Beneath, "at">; // PLAIN when unconfined
  readonly #durable: boolean;
  readonly #relaxed: boolean;
  readonly #lockDir: string;
  readonly #lockFs: BeneathFs;
  readonly #sparesDir: string | undefined;
  readonly #confineTo: string | undefined;
  /** undefined until the first write; null when there is none. */
  #pool: SparePool | null | undefined;

  constructor(options: LocalWorkspaceOptions = {}) {
    this.#disk = options.confineTo ? new Beneath(options.confineTo) : PLAIN;
    const durable = options.durable ?? true;
    this.#relaxed = durable === "relaxed";
    this.#durable = durable === true || durable === "full";
    this.#lockDir = options.lockDir ?? join(tmpdir(), "splice-locks");
    // Lock calls are confined too: a `.splice/locks` swapped for a link out of the root is refused.
    this.#lockFs = BeneathFs.around(dirname(this.#lockDir), options.confineTo);
    this.#sparesDir = options.sparesDir;
    this.#confineTo = options.confineTo;
  }

  /** The spare pool, made on the first write: a process that only reads makes none. */
  #spares(): SparePool | undefined {
    const dir = this.#sparesDir;
    if (this.#pool === undefined && dir !== undefined) {
      this.#pool = SparePool.in(BeneathFs.around(dirname(dir), this.#confineTo), dir) ?? null;
    }
    return this.#pool ?? undefined;
  }

  expectWrites(count: number): void {
    // Each write stages its file in a spare, and history (sharing the pool) its new version.
    this.#spares()?.expect(2 * count);
  }

  openLog(path: string): LogFile {
    return openLogFile(path, this.#confineTo);
  }

  pruneLogs(dir: string, keep: number): void {
    pruneLogFiles(dir, keep);
  }

  exclusive<T>(path: string, fn: () => Promise<T>): Promise<T> {
    return withFileLock(this.#lockDir, path, fn, this.#lockFs);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const s = this.#disk.at(path, statAt);
      return {
        kind: s.isFile() ? "file" : s.isDirectory() ? "directory" : "other",
        size: s.size,
        mode: s.mode & 0o7777,
        mtimeMs: s.mtimeMs,
      };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /**
   * Opened without blocking and checked before a byte is read: a FIFO would
   * block the read (and a server) until a writer came, a device might never
   * end. A regular file ignores O_NONBLOCK.
   */
  async readFile(path: string): Promise<Uint8Array> {
    try {
      return this.#disk.at(path, (dir, name) => {
        const fd = openAt(dir, name, READ_FLAGS);
        if (fd === FOLLOW) return FOLLOW;
        try {
          return readOpen(fd, path);
        } finally {
          closeSync(fd);
        }
      });
    } catch (error) {
      throw readError(error, path);
    }
  }

  async writeFile(path: string, bytes: Uint8Array, options: WriteOptions = {}): Promise<void> {
    const staged = this.#stage(path, bytes, options);
    await settle(staged, this.#durable ? fsyncPath(staged.temp) : undefined);
    this.#replace(staged, path);
    if (this.#relaxed) this.#syncLater(path);
  }

  /** Relaxed: the new file's bytes and its name, flushed in the background (and before exit). */
  #syncLater(path: string): void {
    const barrier = new SyncBarrier();
    barrier.add(path);
    barrier.addFolder(dirname(path));
    backgroundFiles.defer(barrier).catch(() => {}); // flush() reports a failure
  }

  /**
   * The compare-and-swap with one barrier: the new bytes are staged and
   * fsync'ed while history stores and fsyncs the old version, so a durable
   * write waits for the disk once, not once per file.
   */
  async writeIf(
    path: string,
    bytes: Uint8Array,
    expected: string | null,
    options: WriteIfOptions = {},
  ): Promise<boolean> {
    // No compare up front: #replace compares right before the rename, and an
    // edit's file was read a moment ago under the same lock, so a first
    // compare would read and hash it once more for a refusal that is rare.
    const staged = this.#stage(path, bytes, options);
    const synced = this.#durable ? fsyncPath(staged.temp) : undefined;
    const recorded = (async () => options.beforeReplace?.())(); // a throw becomes a rejection
    await settle(staged, Promise.all([synced, recorded]));
    const swap = this.#replace(staged, path, expected);
    if (swap.refused) return false;
    if (this.#relaxed) this.#syncLater(path);
    if (swap.displaced) await options.onDisplaced?.(await settled(swap.old!, swap.displaced));
    else if (swap.old !== undefined) {
      if (options.onDisplacedLate && expected)
        watchLate(swap.old, expected, options.onDisplacedLate);
      else close(swap.old, () => {});
    }
    return true;
  }

  /**
   * Writes the new bytes beside the file under a temp name, in the folder
   * the walk reached (its missing folders made beneath the root); the folder
   * stays open until the rename, so the temp file is never looked up by path.
   */
  #stage(path: string, bytes: Uint8Array, options: WriteOptions): Staged {
    return this.#disk.at(
      path,
      (dir, name) => {
        const temp = tempName(name);
        sweepTemps(dir, Date.now(), dirname(path));
        const folder = holdFolder(dir);
        const staged: Staged = { folder, dir: folderPath(folder, dir), name, temp: "" };
        staged.temp = `${staged.dir}/${temp}`;
        let fd: number;
        try {
          fd =
            (folder !== undefined ? this.#spares()?.stageAt(folder, staged.temp) : undefined) ??
            openSync(staged.temp, STAGE_FLAGS, 0o600);
        } catch (error) {
          releaseFolder(folder);
          throw error;
        }
        try {
          for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
          fchmodSync(fd, options.mode ?? existingMode(dir, name) ?? 0o644);
        } catch (error) {
          closeSync(fd);
          discard(staged);
          throw error;
        }
        closeSync(fd);
        return staged;
      },
      { create: true },
    );
  }

  /**
   * Renames the staged temp file over `path`, in the folder it was staged
   * in, once a fresh walk still reaches that same folder: a folder moved or
   * swapped since staging is refused. With `expected` (a compare-and-swap)
   * the file is compared once more right before the rename, and the old
   * file, held open across it, once more after: what another program wrote
   * in between is handed back as `displaced`. On failure or refusal the temp
   * file is removed.
   */
  #replace(staged: Staged, path: string, expected?: string | null): Swap {
    let swap: Swap;
    try {
      testHangBeforeRename(join(dirname(path), basename(staged.temp)));
      swap = this.#disk.at(path, (dir) => {
        if (staged.folder !== undefined && !sameFolder(staged.folder, dir)) {
          throw new WorkspaceError(
            "escape",
            path,
            `${dirname(path)} was moved or replaced while ${basename(path)} was being written; nothing was written. Check the folder and try again.`,
          );
        }
        const old = holdOpen(staged.dir, staged.name);
        let keep = false;
        try {
          if (expected !== undefined && !stillHolds(old, staged, expected)) return REFUSED;
          renameSync(staged.temp, `${staged.dir}/${staged.name}`);
          const displaced = displacedBytes(old, expected);
          // Kept open for a late look, or for the displacing writer to finish.
          keep = old !== undefined && expected !== undefined;
          return keep
            ? { refused: false, ...(displaced ? { displaced } : {}), old }
            : { refused: false };
        } finally {
          if (old !== undefined && !keep) close(old, () => {});
        }
      });
    } catch (error) {
      discard(staged);
      throw error;
    }
    if (swap.refused) discard(staged);
    else releaseFolder(staged.folder);
    return swap;
  }

  async remove(path: string): Promise<void> {
    try {
      this.#disk.at(path, (dir, name) => unlinkSync(`${dir}/${name}`));
    } catch (error) {
      if (isMissing(error)) return; // no folder, no file
      throw error;
    }
  }

  /**
   * The file is renamed aside (a temp name in its folder) before it is
   * compared, so the bytes compared are the bytes removed: a program that
   * wrote the file before the rename is seen by the compare and its file put
   * back; one that writes the name after it makes a new file, which stays.
   */
  async removeIf(path: string, expected: string): Promise<boolean> {
    try {
      return this.#disk.at(path, (dir, name) => removeAside(dir, name, expected));
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async readDir(path: string): Promise<DirEntry[]> {
    try {
      const entries = this.#disk.at(path, readDirAt);
      return entries.map((e) => ({
        name: e.name,
        kind: e.isFile()
          ? "file"
          : e.isDirectory()
            ? "directory"
            : e.isSymbolicLink()
              ? "symlink"
              : "other",
      }));
    } catch (error) {
      if (isMissing(error)) throw new WorkspaceError("missing", path, `${path} does not exist`);
      throw error;
    }
  }
}
