/**
 * The local workspace's steps on one name in one folder: the folder is held
 * open (a /proc/self/fd path on Linux) and the name is never followed when it
 * is a link, so a folder or file swapped for a link after the guard ran is
 * answered with FOLLOW (resolve again) instead of being written through.
 */
import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  unlinkSync,
} from "node:fs";
import { sha256 } from "../util/hash.js";
import { FOLLOW, type Follow, STRONG } from "./beneath.js";
import { readAll } from "./displaced.js";
import { tempName } from "./temp.js";
import { WorkspaceError } from "./workspace.js";

export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** removeIf's step in the file's folder: rename aside, compare, then unlink or put back. */
export function removeAside(dir: string, name: string, expected: string): boolean | Follow {
  const at = `${dir}/${name}`;
  try {
    if (lstatSync(at).isSymbolicLink()) return FOLLOW; // the guard resolved it: remove its target
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  const aside = `${dir}/${tempName(name)}`;
  try {
    renameSync(at, aside);
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  let same = false;
  try {
    same = hashesTo(aside, expected);
  } finally {
    if (same) unlinkSync(aside);
    else putBack(aside, at);
  }
  return same;
}

/** Whether the regular file at `file` (not a link) hashes to `expected`. */
function hashesTo(file: string, expected: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, HOLD_FLAGS);
  } catch {
    return false; // a link or special file swapped in: not the file that was read
  }
  try {
    const st = fstatSync(fd);
    return st.isFile() && sha256(readAll(fd, st.size)) === expected;
  } finally {
    closeSync(fd);
  }
}

/**
 * Puts a file moved aside back under its name, never over a file another
 * program made there since (that one is newer, and stays).
 */
function putBack(aside: string, at: string): void {
  try {
    linkSync(aside, at);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EEXIST") {
      // No hard links here (some FUSE and FAT file systems): a rename is the one way back.
      renameSync(aside, at);
      return;
    }
  }
  unlinkSync(aside);
}

/** What a rename did: refused by the last check, or done (and what it took off the disk that was not expected). */
export interface Swap {
  refused: boolean;
  displaced?: Uint8Array;
  /**
   * The replaced file, still open: when something displaced it, its writer
   * may not be done; else a writer that opened it before the rename may
   * still write into it (watchedLate).
   */
  old?: number;
}

export const REFUSED: Swap = { refused: true };

/**
 * The last compare before the rename, on the descriptor that is held
 * across it: the file there must still hash to `expected` (null: nothing
 * there). A link or special file at the name keeps the earlier verdict,
 * which followed it; the rename replaces the link, never its target.
 */
export function stillHolds(
  old: number | undefined,
  staged: Staged,
  expected: string | null,
): boolean {
  if (old === undefined) {
    try {
      const st = lstatSync(`${staged.dir}/${staged.name}`);
      return st.isSymbolicLink() || expected !== null;
    } catch (error) {
      if (isMissing(error)) return expected === null;
      throw error;
    }
  }
  const st = fstatSync(old);
  if (!st.isFile()) return true;
  return sha256(readAll(old, st.size)) === expected;
}

/** A temp file staged beside its target, in a folder held open (Linux) until the rename. */
export interface Staged {
  /** The staging folder's descriptor; undefined without /proc. */
  folder: number | undefined;
  /** A path naming that folder (its descriptor's /proc path, or its real path). */
  dir: string;
  /** The target's name in the folder. */
  name: string;
  /** The temp file's path under `dir`. */
  temp: string;
}

export const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;
export const STAGE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const HOLD_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Opens `name` in `dir` without following a link; FOLLOW when it is one. */
export function openAt(dir: string, name: string, flags: number): number | Follow {
  try {
    return openSync(`${dir}/${name}`, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code === "ELOOP" || code === "ENOTDIR") && isLink(dir, name)) return FOLLOW;
    throw error;
  }
}

function isLink(dir: string, name: string): boolean {
  try {
    return lstatSync(`${dir}/${name}`).isSymbolicLink();
  } catch {
    return false;
  }
}

export function readOpen(fd: number, path: string): Uint8Array {
  const st = fstatSync(fd);
  if (st.isDirectory()) throw Object.assign(new Error("EISDIR"), { code: "EISDIR" });
  if (!st.isFile()) {
    throw new WorkspaceError("not_a_file", path, `${path} is ${specialKind(st)}`);
  }
  return readFileSync(fd);
}

export function readError(error: unknown, path: string): unknown {
  if (error instanceof WorkspaceError) return error;
  if (isMissing(error)) return new WorkspaceError("missing", path, `${path} does not exist`);
  if ((error as NodeJS.ErrnoException).code === "EISDIR") {
    return new WorkspaceError("is_directory", path, `${path} is a directory`);
  }
  return error;
}

export function statAt(dir: string, name: string): Stats | Follow {
  const st = lstatSync(`${dir}/${name}`);
  return st.isSymbolicLink() ? FOLLOW : st;
}

/** A folder's entries, the folder opened without following a link at its name. */
export function readDirAt(dir: string, name: string): Dirent[] | Follow {
  const at = `${dir}/${name}`;
  if (!STRONG || !dir.startsWith("/proc/self/fd/")) {
    if (lstatSync(at).isSymbolicLink()) return FOLLOW;
    return readdirSync(at, { withFileTypes: true });
  }
  const fd = openAt(dir, name, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  if (fd === FOLLOW) return FOLLOW;
  try {
    return readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true });
  } finally {
    closeSync(fd);
  }
}

/** A new descriptor of the walk's folder, kept past the walk (Linux only). */
export function holdFolder(dir: string): number | undefined {
  if (!dir.startsWith("/proc/self/fd/")) return undefined;
  return openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
}

export function folderPath(folder: number | undefined, dir: string): string {
  return folder === undefined ? dir : `/proc/self/fd/${folder}`;
}

export function releaseFolder(folder: number | undefined): void {
  if (folder !== undefined) closeSync(folder);
}

export function sameFolder(folder: number, dir: string): boolean {
  const held = fstatSync(folder);
  const now = statSync(dir);
  return held.ino === now.ino && held.dev === now.dev;
}

/** Removes a staged temp file and lets its folder go. */
export function discard(staged: Staged): void {
  rmSync(staged.temp, { force: true });
  releaseFolder(staged.folder);
  staged.folder = undefined;
}

/** Waits for `pending` (fsyncs, history); on failure the staged temp file is removed. */
export async function settle(staged: Staged, pending: Promise<unknown> | undefined): Promise<void> {
  try {
    await pending;
  } catch (error) {
    discard(staged);
    throw error;
  }
}

/**
 * A descriptor of the file about to be replaced, closed on the thread pool
 * after the rename. Dropping the last link to a file the disk is still
 * writing makes the kernel wait for that write (0.3-0.4 ms on ext4, the
 * largest part of a small edit); with the descriptor open the rename returns
 * at once and the wait happens off the main thread. Links, fifos and missing
 * files are not held.
 */
export function holdOpen(dir: string, name: string): number | undefined {
  try {
    return openSync(`${dir}/${name}`, HOLD_FLAGS);
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

export function existingMode(dir: string, name: string): number | undefined {
  try {
    const s = lstatSync(`${dir}/${name}`);
    return s.isFile() ? s.mode & 0o7777 : undefined;
  } catch {
    return undefined;
  }
}
