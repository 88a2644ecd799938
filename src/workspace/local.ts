import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
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
import { basename, dirname, join, sep } from "node:path";
import { withFileLock } from "./file-lock.js";
import {
  compareAndWrite,
  type DirEntry,
  type FileStat,
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

function inside(dir: string, root: string): boolean {
  return dir === root || dir.startsWith(root.endsWith(sep) ? root : root + sep);
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

  writeIf(
    path: string,
    bytes: Uint8Array,
    expected: string | null,
    options: WriteIfOptions = {},
  ): Promise<boolean> {
    return compareAndWrite(this, path, bytes, expected, options);
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

  async readFile(path: string): Promise<Uint8Array> {
    try {
      return readFileSync(path);
    } catch (error) {
      if (isMissing(error)) throw new WorkspaceError("missing", path, `${path} does not exist`);
      if ((error as NodeJS.ErrnoException).code === "EISDIR") {
        throw new WorkspaceError("is_directory", path, `${path} is a directory`);
      }
      throw error;
    }
  }

  async writeFile(path: string, bytes: Uint8Array, options: WriteOptions = {}): Promise<void> {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true });
    if (this.#confineTo) {
      const realDir = realpathSync(dir);
      if (!inside(realDir, this.#confineTo)) {
        throw new WorkspaceError("escape", path, `${dir} now resolves outside ${this.#confineTo}`);
      }
    }
    const mode = options.mode ?? existingMode(path) ?? 0o644;
    const temp = join(dir, `.${basename(path)}.splice-${randomBytes(6).toString("hex")}.tmp`);
    const fd = openSync(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
      fchmodSync(fd, mode);
      if (this.#durable) fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(temp, { force: true });
      throw error;
    }
    closeSync(fd);
    try {
      renameSync(temp, path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }

  async remove(path: string): Promise<void> {
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

function existingMode(path: string): number | undefined {
  try {
    const s = lstatSync(path);
    return s.isFile() ? s.mode & 0o7777 : undefined;
  } catch {
    return undefined;
  }
}
