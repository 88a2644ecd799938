/**
 * Small synchronous file-system helpers for the history store: durable
 * directory entries, atomic file creation, errno checks.
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { fsyncPathSync, isErrno } from "../util/durable.js";
import { randomId } from "../util/ids.js";

export { isErrno };

/** Temp files start with "." so blob listings can skip them by name. */
export function tempPath(dir: string, label: string): string {
  return join(dir, `.tmp-${label}-${process.pid}-${randomId(6)}`);
}

/** fsync a directory so the entries created or renamed in it survive a power loss. */
export function fsyncDir(dir: string): void {
  fsyncPathSync(dir, true);
}

/**
 * mkdir -p. When directories were created and `durable` asks for it, their
 * parents are fsync'ed so the new entries survive a power loss too. True
 * when something was created.
 */
export function ensureDir(dir: string, durable = true): boolean {
  const created = mkdirSync(dir, { recursive: true });
  if (created === undefined) return false;
  if (!durable) return true;
  const stop = dirname(created);
  let current = dir;
  for (;;) {
    const parent = dirname(current);
    fsyncDir(parent);
    if (parent === stop || parent === current) break;
    current = parent;
  }
  return true;
}

/** Write all of `data` at the fd's position (or the end, for O_APPEND). */
export function writeAll(fd: number, data: Uint8Array): void {
  let offset = 0;
  while (offset < data.length) {
    offset += writeSync(fd, data, offset, data.length - offset);
  }
}

/**
 * Create or replace `target` atomically: write a temp file beside it, then
 * rename. Not fsync'ed: callers that need it durable sync it after (a
 * SyncBarrier), before anything relies on it.
 */
export function writeFileAtomic(target: string, data: Uint8Array): void {
  const temp = tempPath(dirname(target), "w");
  const fd = openSync(temp, "wx");
  try {
    writeAll(fd, data);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
