/**
 * Small synchronous file-system helpers for the history store: durable
 * directory entries, atomic file creation, errno checks. Every call goes
 * through the store's BeneathFs, so a folder of the store swapped for a link
 * out of the project is refused, never followed.
 */
import { closeSync, constants, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { isErrno } from "../util/durable.js";
import { stateTempName } from "../util/state-folder.js";
import type { BeneathFs } from "../workspace/beneath-fs.js";
import { newHolder } from "../workspace/holder.js";

export { isErrno };

/** A temp file's path in a folder of the state folder, named by util/state-folder.ts. */
export function tempPath(dir: string, label: string): string {
  return join(dir, stateTempName(label, newHolder()));
}

/** mkdir -p beneath the store's root; with `durable`, the parents of made folders are fsync'ed. True when something was made. */
export function ensureDir(fs: BeneathFs, dir: string, durable = true): boolean {
  try {
    fs.mkdir(dir);
  } catch (error) {
    if (isErrno(error, "EEXIST") && isFolder(fs, dir)) return false;
    if (!isErrno(error, "ENOENT") || dirname(dir) === dir || dir === fs.root) throw error;
    ensureDir(fs, dirname(dir), durable);
    try {
      fs.mkdir(dir);
    } catch (again) {
      if (isErrno(again, "EEXIST") && isFolder(fs, dir)) return false;
      throw again;
    }
  }
  if (durable) fs.fsyncDir(dirname(dir));
  return true;
}

/** A folder there, or a link inside the root that leads to one (an EEXIST that is not one stays an error). */
function isFolder(fs: BeneathFs, dir: string): boolean {
  try {
    return fs.stat(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Write all of `data` at the fd's position (or the end, for O_APPEND). */
export function writeAll(fd: number, data: Uint8Array): void {
  let offset = 0;
  while (offset < data.length) {
    offset += writeSync(fd, data, offset, data.length - offset);
  }
}

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

/**
 * A temp file made ahead, moved to `at` (the path a call on the temp name
 * uses) and open for writing; undefined to create one there instead.
 */
export type Stage = (at: string) => number | undefined;

/**
 * Create or replace `target` atomically: write a temp file beside it, then
 * rename. Not fsync'ed: callers that need it durable sync it after (a
 * SyncBarrier), before anything relies on it.
 */
export function writeFileAtomic(
  fs: BeneathFs,
  target: string,
  data: Uint8Array,
  stage?: Stage,
): void {
  const temp = tempPath(dirname(target), "w");
  const fd = (stage && fs.openWith(temp, stage)) ?? fs.open(temp, CREATE);
  try {
    writeAll(fd, data);
  } catch (error) {
    closeSync(fd);
    fs.rm(temp);
    throw error;
  }
  closeSync(fd);
  try {
    fs.rename(temp, target);
  } catch (error) {
    fs.rm(temp);
    throw error;
  }
}

/** Open a file to create it exclusively (`wx`). */
export const CREATE_FLAGS = CREATE;
