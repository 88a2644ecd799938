/**
 * The synchronous file-system calls of splice's own folders (history's
 * `.splice/`: blobs, journal, locks, totals, its `.gitignore`), each made
 * beneath a root at the moment of the call, as the workspace's are
 * (beneath.ts): a `.splice`, `.splice/blobs` or `.splice/locks` swapped for a
 * link to an outside folder is refused (WorkspaceError "escape"), never
 * followed. No call follows a link at its last name either: a blob, journal
 * or lock replaced by a link fails (ELOOP) instead of reading or writing
 * where it leads.
 *
 * Errors name the path asked for, not the descriptor path the call used, so
 * history's messages (failure.ts) still say which file broke.
 */
import {
  closeSync,
  constants,
  futimesSync,
  linkSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  type Stats,
  symlinkSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname } from "node:path";
import { fsyncFd } from "../util/durable.js";
import { isInside } from "../util/paths.js";
import { Beneath, type Final, FOLLOW, type Follow, STRONG } from "./beneath.js";

/** Where the calls are made: a confined walk, or the path as it is. */
type At = Pick<Beneath, "at">;

/** The path as it is, every link on the way followed by the kernel (no confinement). */
export const PLAIN: At = {
  at: <T>(abs: string, final: Final<T>, options: { create?: boolean } = {}): T => {
    let done: T | Follow;
    try {
      done = final(dirname(abs), basename(abs));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (!options.create || (code !== "ENOENT" && code !== "ENOTDIR")) throw error;
      mkdirSync(dirname(abs), { recursive: true });
      done = final(dirname(abs), basename(abs));
    }
    if (done !== FOLLOW) return done;
    const real = realpathSync(abs);
    return final(dirname(real), basename(real)) as T;
  },
};

const NOFOLLOW = constants.O_NOFOLLOW;
const DIR_READ = constants.O_RDONLY | constants.O_DIRECTORY | NOFOLLOW;

/** An error of a call made through `used` (a /proc path), told as one on `abs`. */
function named(error: unknown, abs: string): unknown {
  const e = error as NodeJS.ErrnoException & { dest?: string };
  if (
    typeof e?.code === "string" &&
    (e.path === undefined || e.path.startsWith("/proc/self/fd/"))
  ) {
    e.path = abs;
    if (typeof e.dest === "string" && e.dest.startsWith("/proc/self/fd/")) e.dest = undefined;
  }
  return error;
}

export class BeneathFs {
  readonly #disk: At;
  /** The folder the calls are confined to; undefined for plain paths. */
  readonly root: string | undefined;

  constructor(root?: string) {
    this.root = root;
    this.#disk = root === undefined ? PLAIN : new Beneath(root);
  }

  /**
   * Calls on `dir` and below confined to `root` when `dir` is inside it (a
   * history in the project), else to `dir` itself (a history kept
   * elsewhere; its own path is trusted, and made when missing).
   */
  static around(dir: string, root?: string): BeneathFs {
    if (root !== undefined && isInside(root, dir)) return new BeneathFs(root);
    try {
      mkdirSync(dir, { recursive: true });
    } catch {
      // Unwritable or not a folder: the first call says so, as an error of its own.
    }
    return new BeneathFs(dir);
  }

  #at<T>(abs: string, final: Final<T>, create = false): T {
    try {
      return this.#disk.at(abs, final, { create });
    } catch (error) {
      throw named(error, abs);
    }
  }

  /** open(2) with O_NOFOLLOW; `create` makes missing folders on the way. */
  open(abs: string, flags: number, mode = 0o666, create = false): number {
    return this.#at(abs, (dir, name) => openSync(`${dir}/${name}`, flags | NOFOLLOW, mode), create);
  }

  /** What `open` returns, given the path the call would use (a held folder's /proc path and the name). */
  openWith<T>(abs: string, open: (at: string) => T): T {
    return this.#at(abs, (dir, name) => open(`${dir}/${name}`));
  }

  readFile(abs: string): Buffer {
    const fd = this.open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      return readFileSync(fd);
    } catch (error) {
      throw named(error, abs);
    } finally {
      closeSync(fd);
    }
  }

  /** Creates `abs` with `data`; EEXIST when it is there. */
  create(abs: string, data: string | Uint8Array, create = false): void {
    const fd = this.open(
      abs,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      0o666,
      create,
    );
    try {
      const bytes = typeof data === "string" ? Buffer.from(data) : data;
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
    } catch (error) {
      closeSync(fd);
      this.rm(abs);
      throw named(error, abs);
    }
    closeSync(fd);
  }

  /** lstat(2): a link at the last name is itself. */
  lstat(abs: string): Stats {
    return this.#at(abs, (dir, name) => lstatSync(`${dir}/${name}`));
  }

  /** lstat, or undefined when the last name is missing: no error is made for the common miss. */
  lstatIfAny(abs: string): Stats | undefined {
    return this.#at(abs, (dir, name) => lstatSync(`${dir}/${name}`, { throwIfNoEntry: false }));
  }

  /** stat(2) with links inside the root followed by the walk. */
  stat(abs: string): Stats {
    return this.#at(abs, (dir, name) => {
      const st = lstatSync(`${dir}/${name}`);
      return st.isSymbolicLink() ? FOLLOW : st;
    });
  }

  readdir(abs: string): string[] {
    return this.#at(abs, (dir, name) => {
      if (!STRONG || !dir.startsWith("/proc/self/fd/")) {
        if (lstatSync(`${dir}/${name}`).isSymbolicLink()) return FOLLOW;
        return readdirSync(`${dir}/${name}`);
      }
      const fd = openSync(`${dir}/${name}`, DIR_READ);
      try {
        return readdirSync(`/proc/self/fd/${fd}`);
      } finally {
        closeSync(fd);
      }
    });
  }

  /** mkdir(2) of one folder; its parent must exist. */
  mkdir(abs: string): void {
    this.#at(abs, (dir, name) => mkdirSync(`${dir}/${name}`));
  }

  rename(from: string, to: string): void {
    this.#at(from, (d1, n1) => this.#at(to, (d2, n2) => renameSync(`${d1}/${n1}`, `${d2}/${n2}`)));
  }

  link(from: string, to: string): void {
    this.#at(from, (d1, n1) => this.#at(to, (d2, n2) => linkSync(`${d1}/${n1}`, `${d2}/${n2}`)));
  }

  unlink(abs: string): void {
    this.#at(abs, (dir, name) => unlinkSync(`${dir}/${name}`));
  }

  /** unlink, with no error when nothing is there. */
  rm(abs: string): void {
    try {
      this.unlink(abs);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    }
  }

  /** Sets a file's times to now through a descriptor; a link at the name fails (ELOOP). */
  touch(abs: string): void {
    const fd = this.open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const now = new Date();
      futimesSync(fd, now, now);
    } catch (error) {
      throw named(error, abs);
    } finally {
      closeSync(fd);
    }
  }

  /** touch, then the file's bytes, on one descriptor. */
  touchAndRead(abs: string): Buffer {
    const fd = this.open(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const now = new Date();
      futimesSync(fd, now, now);
      return readFileSync(fd);
    } catch (error) {
      throw named(error, abs);
    } finally {
      closeSync(fd);
    }
  }

  /** A link's own times set to now (a lock's heartbeat). */
  touchLink(abs: string): void {
    const now = new Date();
    this.#at(abs, (dir, name) => lutimesSync(`${dir}/${name}`, now, now));
  }

  /** mkdir -p, each folder made beneath the one above. */
  mkdirp(abs: string): void {
    this.#at(
      abs,
      (dir, name) => {
        try {
          mkdirSync(`${dir}/${name}`);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        }
      },
      true,
    );
  }

  symlink(text: string, abs: string): void {
    this.#at(abs, (dir, name) => symlinkSync(text, `${dir}/${name}`));
  }

  readlink(abs: string): string {
    return this.#at(abs, (dir, name) => readlinkSync(`${dir}/${name}`));
  }

  /** fsync a folder so entries made or renamed in it survive a power loss (skipped where folders cannot be synced). */
  fsyncDir(abs: string): void {
    let fd: number;
    try {
      fd = this.open(abs, DIR_READ);
    } catch (error) {
      if (unsyncable(error)) return;
      throw error;
    }
    try {
      fsyncFd(fd, abs, true);
    } catch (error) {
      if (!unsyncable(error)) throw named(error, abs);
    } finally {
      closeSync(fd);
    }
  }
}

/** Platforms that cannot open or sync folders (Windows) skip them, as util/durable.ts does. */
function unsyncable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  return ["EISDIR", "EPERM", "EACCES", "EINVAL", "EBADF"].includes(code);
}
