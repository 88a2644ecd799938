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
import { WorkspaceError } from "./workspace.js";

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

/** The link's text, or undefined when `name` is (now) not a link. */
function linkText(dir: Dir, name: string): string | undefined {
  try {
    return readlinkSync(`${dir.path}/${name}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EINVAL") return undefined;
    throw error;
  }
}

/**
 * Folders a walk reached, held open so the next call in them need not walk
 * again (strong form only). An entry is used only while its descriptor's
 * current path, as the kernel tells it (readlink of /proc/self/fd/N, one
 * syscall), is still the one it had when the walk opened it: a folder on the
 * way moved, renamed, removed or swapped for a link changes that path (or
 * marks it deleted), and the call walks afresh as if nothing were held. Only
 * folders reached without a link on the way are held, so a held folder is
 * always the one a walk would reach now. Process-wide and bounded: the
 * oldest is closed first. The bound holds history's 256 blob fan-out folders
 * besides a batch's own: a batch writes a blob into a random one per file,
 * and with fewer held each of those writes walked from the root again.
 */
export const HELD_MAX = 320;
const held = new Map<string, { fd: number; real: string }>();
/** Held descriptors found stale while a call may still be using them: closed when the outermost call ends. */
const retired: number[] = [];
let depth = 0;

/** How the kernel names a removed folder's descriptor: its last path and this mark. */
const removed = (real: string) => real.endsWith(" (deleted)");

/** The /proc path of the held folder `key`, when it is still where it was. */
function heldFolder(key: string): string | undefined {
  const entry = held.get(key);
  if (!entry) return undefined;
  held.delete(key);
  let now: string | undefined;
  try {
    now = readlinkSync(`/proc/self/fd/${entry.fd}`);
  } catch {
    // Unreadable: treated as moved.
  }
  if (now !== entry.real || removed(now)) {
    retired.push(entry.fd);
    return undefined;
  }
  held.set(key, entry); // most recently used last
  return `/proc/self/fd/${entry.fd}`;
}

/** Keeps `fd` (a folder the walk opened) for `key`; false when it is not taken. */
function holdFolder(key: string, fd: number): boolean {
  if (held.has(key)) return false;
  let real: string;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return false;
  }
  // Not a path (an anonymous or unreachable folder), or removed already: a folder removed
  // between the walk and now keeps its "(deleted)" path, which would match it ever after.
  if (!real.startsWith("/") || removed(real)) return false;
  held.set(key, { fd, real });
  if (held.size > HELD_MAX) {
    const [oldest, entry] = held.entries().next().value as [string, { fd: number }];
    held.delete(oldest);
    retired.push(entry.fd);
  }
  return true;
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
    depth++;
    try {
      return this.#atHeld(abs, below, final, options);
    } finally {
      if (--depth === 0) for (const fd of retired.splice(0)) closeSync(fd);
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
    const stack: Dir[] = [openRoot(this.root)];
    let hops = 0;
    const follow = (target: string) => {
      if (++hops > MAX_HOPS) throw errno("ELOOP", abs);
      if (path.isAbsolute(target)) {
        const inside = segmentsBelow(this.root, path.normalize(target));
        if (inside === undefined) throw this.#escape(abs);
        while (stack.length > 1) closeDir(stack.pop()!);
        queue.unshift(...inside);
      } else {
        queue.unshift(...segments(target));
      }
    };
    try {
      for (;;) {
        const part = queue.shift();
        const top = stack.at(-1)!;
        if (part === undefined) {
          const done = final(top.path, ".");
          if (done === FOLLOW) throw errno("EINVAL", abs); // "." is never a link
          return done;
        }
        if (part === ".") continue;
        if (part === "..") {
          if (stack.length === 1) throw this.#escape(abs);
          closeDir(stack.pop()!);
          continue;
        }
        if (queue.length === 0) {
          const done = final(top.path, part);
          if (done !== FOLLOW) {
            // Reached by names alone (no link followed): hold the folder for the next call.
            if (key !== undefined && hops === 0 && top.fd !== undefined && holdFolder(key, top.fd))
              stack.pop();
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
          stack.push(child);
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
      for (const dir of stack) closeDir(dir);
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
