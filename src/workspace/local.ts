import {
  close,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fsyncPath } from "../util/durable.js";
import { isInside } from "../util/paths.js";
import { withFileLock } from "./file-lock.js";
import { sweepTemps, tempName, testHangBeforeRename } from "./temp.js";
import {
  type DirEntry,
  type FileStat,
  holds,
  type Workspace,
  WorkspaceError,
  type WriteIfOptions,
  type WriteOptions,
} from "./workspace.js";

export interface LocalWorkspaceOptions {
  /**
   * When set, a write whose folder no longer resolves inside this directory
   * is refused: it catches a folder swapped for a link after the guard ran.
   */
  confineTo?: string;
  /** fsync files before renaming them into place (default true). */
  durable?: boolean;
  /** Where compare-and-swap writes keep their lock files (default: the OS temp folder). */
  lockDir?: string;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * The local disk. Writes go to a temp file in the same folder, then rename.
 * The calls are synchronous behind the async interface: each one is a
 * single short system call, and a trip through libuv's thread pool per call
 * cost more than the calls themselves (an edit makes about twenty).
 */
export class LocalWorkspace implements Workspace {
  readonly kind = "local";
  readonly #confineTo: string | undefined;
  readonly #durable: boolean;
  readonly #lockDir: string;

  constructor(options: LocalWorkspaceOptions = {}) {
    this.#confineTo = options.confineTo;
    this.#durable = options.durable ?? true;
    this.#lockDir = options.lockDir ?? join(tmpdir(), "splice-locks");
  }

  exclusive<T>(path: string, fn: () => Promise<T>): Promise<T> {
    return withFileLock(this.#lockDir, path, fn);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const s = statSync(path);
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
      const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        const st = fstatSync(fd);
        if (st.isDirectory()) throw Object.assign(new Error("EISDIR"), { code: "EISDIR" });
        if (!st.isFile()) {
          throw new WorkspaceError("not_a_file", path, `${path} is ${specialKind(st)}`);
        }
        return readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      if (error instanceof WorkspaceError) throw error;
      if (isMissing(error)) throw new WorkspaceError("missing", path, `${path} does not exist`);
      if ((error as NodeJS.ErrnoException).code === "EISDIR") {
        throw new WorkspaceError("is_directory", path, `${path} is a directory`);
      }
      throw error;
    }
  }

  async writeFile(path: string, bytes: Uint8Array, options: WriteOptions = {}): Promise<void> {
    const temp = this.#stage(path, bytes, options);
    await settle(temp, this.#durable ? fsyncPath(temp) : undefined);
    replace(temp, path);
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
    if (!(await holds(this, path, expected))) return false;
    const temp = this.#stage(path, bytes, options);
    const synced = this.#durable ? fsyncPath(temp) : undefined;
    const recorded = (async () => options.beforeReplace?.())(); // a throw becomes a rejection
    await settle(temp, Promise.all([synced, recorded]));
    replace(temp, path);
    return true;
  }

  /**
   * Writes the new bytes beside the file under a temp name. When confined,
   * the folder is checked first: a link planted after the guard ran must not
   * lead even the temp file out of the root.
   */
  #stage(path: string, bytes: Uint8Array, options: WriteOptions): string {
    const dir = dirname(path);
    if (this.#confineTo) this.#confine(path, dir);
    const temp = join(dir, tempName(basename(path)));
    sweepTemps(dir);
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    let fd: number;
    try {
      fd = openSync(temp, flags, 0o600);
    } catch (error) {
      if (!isMissing(error)) throw error;
      mkdirSync(dir, { recursive: true });
      fd = openSync(temp, flags, 0o600);
    }
    try {
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
      fchmodSync(fd, options.mode ?? existingMode(path) ?? 0o644);
    } catch (error) {
      closeSync(fd);
      rmSync(temp, { force: true });
      throw error;
    }
    closeSync(fd);
    return temp;
  }

  /** Makes the folder when missing, then refuses it if it resolves outside the root. */
  #confine(path: string, dir: string): void {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch (error) {
      if (!isMissing(error)) throw error;
      mkdirSync(dir, { recursive: true });
      real = realpathSync(dir);
    }
    if (!isInside(this.#confineTo!, real)) {
      throw new WorkspaceError("escape", path, `${dir} now resolves outside ${this.#confineTo}`);
    }
  }

  async remove(path: string): Promise<void> {
    if (this.#confineTo) {
      let dir: string;
      try {
        dir = realpathSync(dirname(path));
      } catch (error) {
        if (isMissing(error)) return; // no folder, no file
        throw error;
      }
      // The same defence as a write's: a folder swapped for a link out of the root after the guard ran.
      if (!isInside(this.#confineTo, dir)) {
        throw new WorkspaceError(
          "escape",
          path,
          `${dirname(path)} now resolves outside ${this.#confineTo}`,
        );
      }
    }
    rmSync(path, { force: true });
  }

  async readDir(path: string): Promise<DirEntry[]> {
    try {
      const entries = readdirSync(path, { withFileTypes: true });
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

/** Waits for `pending` (fsyncs, history); on failure the staged temp file is removed. */
async function settle(temp: string, pending: Promise<unknown> | undefined): Promise<void> {
  try {
    await pending;
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Renames the staged temp file over `path`; on failure the temp file is removed. */
function replace(temp: string, path: string): void {
  testHangBeforeRename(temp);
  const old = holdOpen(path);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  } finally {
    if (old !== undefined) close(old, () => {});
  }
}

const HOLD_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * A descriptor of the file about to be replaced, closed on the thread pool
 * after the rename. Dropping the last link to a file the disk is still
 * writing makes the kernel wait for that write (0.3-0.4 ms on ext4, the
 * largest part of a small edit); with the descriptor open the rename returns
 * at once and the wait happens off the main thread. Links, fifos and missing
 * files are not held.
 */
function holdOpen(path: string): number | undefined {
  try {
    return openSync(path, HOLD_FLAGS);
  } catch {
    return undefined;
  }
}

/** What a file that is neither a regular file nor a folder is, as a message says it. */
export function specialKind(st: { isFIFO(): boolean; isSocket(): boolean }): string {
  if (st.isFIFO()) return "a named pipe (FIFO)";
  if (st.isSocket()) return "a socket";
  return "a device or other special file";
}

function existingMode(path: string): number | undefined {
  try {
    const s = lstatSync(path);
    return s.isFile() ? s.mode & 0o7777 : undefined;
  } catch {
    return undefined;
  }
}
