/**
 * The blob store's files as names on disk: which names are blobs, packs or a
 * crash's leftovers, and the probes that ask about one file without turning
 * a miss into an error (a blob is mostly absent when first asked about).
 */
import { join } from "node:path";
import { randomId } from "../util/ids.js";
import { PACKS_FOLDER } from "../util/state-folder.js";
import type { BeneathFs } from "../workspace/beneath-fs.js";
import { isErrno } from "./fsutil.js";
import type { PackSet } from "./packs.js";

const SHA_PATTERN = /^[0-9a-f]{64}$/;
const REST_PATTERN = /^[0-9a-f]{62}$/;
export const FANOUT_PATTERN = /^[0-9a-f]{2}$/;
const ASIDE_PATTERN = /^[0-9a-f]{62}\.del-/;
const PACK_ASIDE_PATTERN = /^[0-9a-f]{16}\.pack\.del-/;

export function isSha(value: string): boolean {
  return SHA_PATTERN.test(value);
}

export interface BlobFile {
  sha: string;
  /** The blob's file, or the pack holding it. */
  path: string;
  size: number;
  mtimeMs: number;
  /** Set when `path` is a pack. */
  packed?: true;
}

/** Every blob under `root`, loose or packed. Temp files, foreign names and damaged packs are skipped. */
export function listBlobFiles(fs: BeneathFs, root: string, packs: PackSet): BlobFile[] {
  const out: BlobFile[] = [];
  for (const pack of packs.list()) {
    for (const { sha, size } of pack.blobs) {
      out.push({ sha, path: pack.path, size, mtimeMs: pack.mtimeMs, packed: true });
    }
  }
  for (const fanout of readdirSafe(fs, root)) {
    if (!FANOUT_PATTERN.test(fanout)) continue;
    const dir = join(root, fanout);
    for (const rest of readdirSafe(fs, dir)) {
      if (!REST_PATTERN.test(rest)) continue;
      const path = join(dir, rest);
      try {
        const st = fs.lstat(path);
        if (st.isFile()) out.push({ sha: fanout + rest, path, size: st.size, mtimeMs: st.mtimeMs });
      } catch (error) {
        if (!isErrno(error, "ENOENT")) throw error;
      }
    }
  }
  return out;
}

/** Leftovers of a crash under `root` (temp files, blobs moved aside for deletion) older than `cutoffMs`. */
export function blobLeftovers(fs: BeneathFs, root: string, cutoffMs: number): string[] {
  const out: string[] = [];
  for (const fanout of readdirSafe(fs, root)) {
    if (!FANOUT_PATTERN.test(fanout) && fanout !== PACKS_FOLDER) continue;
    const dir = join(root, fanout);
    for (const name of readdirSafe(fs, dir)) {
      const aside = fanout === PACKS_FOLDER ? PACK_ASIDE_PATTERN : ASIDE_PATTERN;
      if (!name.startsWith(".tmp-") && !aside.test(name)) continue;
      const path = join(dir, name);
      try {
        if (fs.lstat(path).mtimeMs < cutoffMs) out.push(path);
      } catch (error) {
        if (!isErrno(error, "ENOENT")) throw error;
      }
    }
  }
  return out;
}

/**
 * Moves `path` aside, checks its mtime again and deletes it unless it was
 * touched after `cutoffMs` (then it goes back): a concurrent `put` either
 * touched it before the move or found it gone and wrote a fresh copy. Its
 * size when deleted; undefined when kept or already gone.
 */
export function removeUntouched(fs: BeneathFs, path: string, cutoffMs: number): number | undefined {
  const aside = `${path}.del-${randomId(4)}`;
  try {
    fs.rename(path, aside);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return undefined;
    throw error;
  }
  const st = fs.lstat(aside);
  if (st.mtimeMs >= cutoffMs) {
    fs.rename(aside, path);
    return undefined;
  }
  fs.unlink(aside);
  return st.size;
}

/** Whether something is at `path`. */
export function exists(fs: BeneathFs, path: string): boolean {
  try {
    fs.lstat(path);
    return true;
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return false;
    throw error;
  }
}

/** touch, returning the file's bytes; undefined when it does not exist. */
export function touchAndRead(fs: BeneathFs, path: string): Buffer | undefined {
  try {
    return fs.touchAndRead(path);
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return undefined;
    throw error;
  }
}

/** False when nothing is at `path` (its folder gone too); asked without making an error for a miss. */
export function mayExist(fs: BeneathFs, path: string): boolean {
  try {
    return fs.lstatIfAny(path) !== undefined;
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return false;
    throw error;
  }
}

/** Refreshes the mtime of an existing file, which tells a concurrent collection it is in use; false when it does not exist. */
export function touch(fs: BeneathFs, path: string): boolean {
  try {
    fs.touch(path);
    return true;
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return false;
    throw error;
  }
}

export function readdirSafe(fs: BeneathFs, dir: string): string[] {
  try {
    return fs.readdir(dir);
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return [];
    throw error;
  }
}
