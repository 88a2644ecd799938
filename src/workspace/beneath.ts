/**
 * Path resolution beneath a root at the moment of each operation: the
 * descriptor walk every local file-system call under the root goes through.
 *
 * Node has no `openat2(RESOLVE_BENEATH)`, so on Linux each folder on the way
 * is opened with `O_PATH|O_DIRECTORY|O_NOFOLLOW` relative to the one above it
 * (through `/proc/self/fd/N/name`, which looks the name up in the folder the
 * descriptor holds, whatever path that folder now has). A link met on the way
 * is read and followed by this walk, never by the kernel, and refused when it
 * leads out of the root; the final call (open, mkdir, rename, unlink, lstat,
 * readdir) is made inside the last folder's descriptor. A folder swapped for
 * a link between a check and the call is therefore either the real folder
 * (the descriptor) or a link this walk refuses: no byte outside the root is
 * read or written. Go's `os.Root` and Rust's `cap-std` work the same way.
 *
 * Without `/proc/self/fd` (macOS, BSD, Windows, Linux without /proc) the
 * same walk runs on real path strings: every component is lstat'ed and links
 * are followed by hand, so a link planted before the call is refused, but a
 * swap in the microseconds between the walk and the call is not caught.
 */
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
} from "node:fs";
import path from "node:path";
import { segments, segmentsBelow } from "../util/paths.js";
import { enterCall, heldFolder, holdFolder } from "./beneath-held.js";
import { WorkspaceError } from "./workspace.js";

export { HELD_MAX } from "./beneath-held.js";

/** The kernel's own limit (Linux MAXSYMLINKS). */
const MAX_HOPS = 40;

/** An operation's answer "the last name is a link": the walk reads it and goes on. */
export const FOLLOW: unique symbol = Symbol("follow");
export type Follow = typeof FOLLOW;

/**
 * The operation at the end of a walk: `dir` is a path naming the folder
 * itself (a descriptor's /proc path on Linux), `name` one name in it ("."
 * for the folder). It must not follow a link at `name`; it returns FOLLOW to
 * have the walk follow one, where the call means to.
 */
export type Final<T> = (dir: string, name: string) => T | Follow;

export interface WalkOptions {
  /** Make missing folders on the way (mkdir -p), each beneath the one above. */
  create?: boolean;
}

/** O_PATH where its value is the generic one (x86, arm, arm64, riscv, ...). */
const O_PATH =
  process.platform === "linux" && !["sparc", "sparc64"].includes(process.arch) ? 0o10000000 : 0;

/** Whether the strong form holds here: descriptors can be walked through /proc. */
export const STRONG = process.platform === "linux" && O_PATH !== 0 && procWorks();

function procWorks(): boolean {
  try {
    if (!existsSync("/proc/self/fd")) return false;
    const fd = openSync("/", O_PATH | constants.O_DIRECTORY);
    try {
      return lstatSync(`/proc/self/fd/${fd}/.`).isDirectory();
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

const DIR_FLAGS = O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW;

function errno(code: string, what: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${what}`), { code });
}

/** A folder on the walk: a descriptor (strong) or a real path (fallback). */
interface Dir {
  path: string;
  fd: number | undefined;
}

function openRoot(root: string): Dir {
  if (!STRONG) return { path: root, fd: undefined };
  // The root's own path is trusted: links above it are followed.
  const fd = openSync(root, O_PATH | constants.O_DIRECTORY);
  return { path: `/proc/self/fd/${fd}`, fd };
}

/** Opens `name` in `dir` as a folder without following a link; undefined when it is a link or not a folder. */
function openChild(dir: Dir, name: string): Dir | undefined {
  const at = `${dir.path}/${name}`;
  if (STRONG) {
    try {
      const fd = openSync(at, DIR_FLAGS);
      return { path: `/proc/self/fd/${fd}`, fd };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ELOOP" || code === "ENOTDIR") return undefined;
      throw error;
    }
  }
  const st = lstatSync(at);
  return st.isDirectory() ? { path: at, fd: undefined } : undefined;
}

function closeDir(dir: Dir): void {
  if (dir.fd !== undefined) closeSync(dir.fd);
}

/**
 * Folders a walk keeps open below the root: the deepest few. A path 128
 * names deep (a link may lead deeper) would otherwise hold one descriptor a
 * folder until its call ends. A folder closed on the way down is opened
 * again only if a link's `..` climbs back to it, name by name from the
 * root, each without following a link, as the walk opened it.
 */
export const WALK_OPEN_MAX = 8;

/** The folders from the root down to where the walk is, the deeper ones open. */
class WalkStack {
  readonly #dirs: (Dir | undefined)[];
  /** The name each folder below the root was opened by, in the one above it. */
  readonly #names: string[] = [];
  /** Folders below this index (the root excepted) are closed. */
  #open = 1;

  constructor(root: Dir) {
    this.#dirs = [root];
  }

  get depth(): number {
    return this.#dirs.length - 1;
  }

  /** The folder the walk is in (always open). */
  top(abs: string): Dir {
    const at = this.#dirs.length - 1;
    const dir = this.#dirs[at] ?? this.#reopen(at, abs);
    this.#dirs[at] = dir;
    return dir;
  }

  push(name: string, dir: Dir): void {
    this.#dirs.push(dir);
    this.#names.push(name);
    // The fallback walks path strings: nothing to close.
    if (!STRONG || this.#dirs.length - this.#open <= WALK_OPEN_MAX) return;
    const oldest = this.#dirs[this.#open];
    if (oldest) closeDir(oldest);
    this.#dirs[this.#open++] = undefined;
  }

  /** Up one folder (`..`); the caller checked the walk is below the root. */
  pop(): void {
    const dir = this.#dirs.pop();
    if (dir) closeDir(dir);
    this.#names.pop();
    // A folder closed on the way down may be the top now: top() opens it again.
    this.#open = Math.max(1, Math.min(this.#open, this.#dirs.length));
  }

  /** Back to the root (an absolute link target). */
  toRoot(): void {
    while (this.#dirs.length > 1) this.pop();
  }

  /** Takes the top folder out of the stack (a held folder), so close() leaves it open. */
  release(): void {
    this.#dirs[this.#dirs.length - 1] = undefined;
  }

  close(): void {
    for (const dir of this.#dirs) if (dir) closeDir(dir);
  }

  /** Opens the closed folder at `at` again from the root, holding one descriptor at a time. */
  #reopen(at: number, abs: string): Dir {
    let dir = this.#dirs[0]!;
    for (let i = 0; i < at; i++) {
      const child = openChild(dir, this.#names[i]!);
      if (i > 0) closeDir(dir);
      // Moved or swapped for a link since the walk passed: no longer where it was.
      if (!child) throw errno("ENOENT", abs);
      dir = child;
    }
    this.#open = at;
    return dir;
  }
}

/** The link's text, or undefined when `name` is (now) not a link. */
function linkText(dir: Dir, name: string): string | undefined {
  try {
    return readlinkSync(`${dir.path}/${name}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EINVAL") return undefined;
    throw error;
  }
}

/** A local root and the walk beneath it. */
export class Beneath {
  /** Real path of the root (links above it are trusted). */
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  /** Whether `abs` lies lexically under the root. */
  contains(abs: string): boolean {
    return segmentsBelow(this.root, abs) !== undefined;
  }

  /**
   * Walks `abs` (absolute, under the root) down to its last name and runs
   * `final` in that folder. Links inside the root are followed by the walk;
   * one that leads out, or `..` above the root, throws WorkspaceError
   * "escape". Missing folders throw ENOENT (ENOTDIR below a file), like the
   * plain call would.
   */
  at<T>(abs: string, final: Final<T>, options: WalkOptions = {}): T {
    const below = segmentsBelow(this.root, abs);
    if (below === undefined) {
      throw new WorkspaceError(
        "escape",
        abs,
        `${abs} is not inside ${this.root}; nothing was read or written. Pass a path inside the root.`,
      );
    }
    const leave = enterCall();
    try {
      return this.#atHeld(abs, below, final, options);
    } finally {
      leave();
    }
  }

  #atHeld<T>(abs: string, below: string[], final: Final<T>, options: WalkOptions): T {
    // A plain descent (no ".", "..") may start in a folder held from an earlier walk.
    const plain = STRONG && below.length > 0 && below.every((s) => s !== "." && s !== "..");
    const key = plain ? `${this.root}\0${below.slice(0, -1).join("/")}` : undefined;
    if (key !== undefined) {
      const dir = heldFolder(key);
      if (dir !== undefined) {
        const done = final(dir, below.at(-1)!);
        if (done !== FOLLOW) return done;
        // A link at the last name: the walk below follows it.
      }
    }
    return this.#walk(abs, below, final, options, key);
  }

  #walk<T>(
    abs: string,
    below: string[],
    final: Final<T>,
    options: WalkOptions,
    key: string | undefined,
  ): T {
    const queue = below.filter((s) => s !== ".");
    const stack = new WalkStack(openRoot(this.root));
    let hops = 0;
    const follow = (target: string) => {
      if (++hops > MAX_HOPS) throw errno("ELOOP", abs);
      if (path.isAbsolute(target)) {
        const inside = segmentsBelow(this.root, path.normalize(target));
        if (inside === undefined) throw this.#escape(abs);
        stack.toRoot();
        queue.unshift(...inside);
      } else {
        queue.unshift(...segments(target));
      }
    };
    try {
      for (;;) {
        const part = queue.shift();
        if (part === "..") {
          if (stack.depth === 0) throw this.#escape(abs);
          stack.pop();
          continue;
        }
        const top = stack.top(abs);
        if (part === undefined) {
          const done = final(top.path, ".");
          if (done === FOLLOW) throw errno("EINVAL", abs); // "." is never a link
          return done;
        }
        if (part === ".") continue;
        if (queue.length === 0) {
          const done = final(top.path, part);
          if (done !== FOLLOW) {
            // Reached by names alone (no link followed): hold the folder for the next call.
            if (key !== undefined && hops === 0 && top.fd !== undefined && holdFolder(key, top.fd))
              stack.release();
            return done;
          }
          const target = linkText(top, part);
          if (target === undefined) {
            // Replaced by a file or folder since the call looked: ask again.
            if (++hops > MAX_HOPS) throw errno("ELOOP", abs);
            queue.unshift(part);
          } else {
            follow(target);
          }
          continue;
        }
        const child = this.#descend(top, part, options);
        if (child) {
          stack.push(part, child);
          continue;
        }
        const target = linkText(top, part);
        if (target === undefined) {
          // A file where a folder should be, unless it was a link just swapped back.
          if (lstatSync(`${top.path}/${part}`).isDirectory() && ++hops <= MAX_HOPS) {
            queue.unshift(part);
            continue;
          }
          throw errno("ENOTDIR", abs);
        }
        follow(target);
      }
    } finally {
      stack.close();
    }
  }

  #descend(top: Dir, part: string, options: WalkOptions): Dir | undefined {
    try {
      return openChild(top, part);
    } catch (error) {
      if (!options.create || (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    try {
      mkdirSync(`${top.path}/${part}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    return openChild(top, part);
  }

  #escape(abs: string): WorkspaceError {
    return new WorkspaceError(
      "escape",
      abs,
      `${abs} now leads outside ${this.root} (a folder on the way was replaced by a link since it was checked); nothing was read or written there. Check the folder and try again.`,
    );
  }
}
