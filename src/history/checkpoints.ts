/**
 * Named checkpoints: the state of a root at one moment, kept in the history
 * folder (`checkpoints/<name>.json`) so it outlives the process. Each names
 * the blob of every file it copied; compaction keeps those blobs for as long
 * as the checkpoint is kept (CHECKPOINTS_KEPT newest, by time).
 */
import { closeSync, constants } from "node:fs";
import { join } from "node:path";
import { fsyncFd } from "../util/durable.js";
import { stateLayout } from "../util/state-folder.js";
import type { BeneathFs } from "../workspace/beneath-fs.js";
import { ensureDir, isErrno, tempPath, writeAll } from "./fsutil.js";

/** Checkpoints kept; saving one more removes the oldest. */
export const CHECKPOINTS_KEPT = 20;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Whether `name` can name a checkpoint (a plain file name: letters, digits, `.`, `_`, `-`). */
export const isCheckpointName = (name: string) => NAME.test(name) && !name.endsWith(".json");

/** One regular file as a checkpoint noted it. */
export interface CheckpointFile {
  size: number;
  /**
   * Milliseconds, as the checkpoint's stat gave them (checkpoint/meta.ts). A
   * checkpoint written before kept `mtime_ns` instead: none of its files
   * matches by metadata, so their bytes are compared.
   */
  mtime_ms: number;
  /** The ctime too (0: racy), so a same-size rewrite with its mtime put back is no match. */
  ctime_ms: number;
  ino: string;
  mode: number;
  /** SHA-256 of the bytes kept in history, when they were copied. */
  sha?: string;
  /** Git's blob id, when git's object store holds these bytes instead (a large tracked file). */
  git?: string;
}

export interface StoredCheckpoint {
  name: string;
  /** ISO time it was taken. */
  at: string;
  session: string;
  /** Root-relative path → what it was. */
  files: Record<string, CheckpointFile>;
  /** Files noted without their bytes (over the size limits, or unreadable). */
  uncaptured: string[];
  /** Ignored and heavy folders the checkpoint did not look into. */
  unwatched: string[];
}

const folder = (dir: string) => stateLayout(dir).checkpoints;

/** Writes `checkpoint` durably (temp file, fsync, rename), then drops the oldest past the bound. */
export function saveCheckpoint(fs: BeneathFs, dir: string, checkpoint: StoredCheckpoint): void {
  const at = folder(dir);
  ensureDir(fs, at);
  const temp = tempPath(at, "checkpoint");
  const fd = fs.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  try {
    writeAll(fd, Buffer.from(JSON.stringify(checkpoint), "utf8"));
    fsyncFd(fd, temp);
  } catch (error) {
    closeSync(fd);
    fs.rm(temp);
    throw error;
  }
  closeSync(fd);
  fs.rename(temp, join(at, `${checkpoint.name}.json`));
  fs.fsyncDir(at);
  const all = listCheckpoints(fs, dir);
  for (const old of all.slice(CHECKPOINTS_KEPT)) fs.rm(join(at, `${old.name}.json`));
}

export function loadCheckpoint(
  fs: BeneathFs,
  dir: string,
  name: string,
): StoredCheckpoint | undefined {
  if (!isCheckpointName(name)) return undefined;
  try {
    return JSON.parse(fs.readFile(join(folder(dir), `${name}.json`)).toString("utf8"));
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return undefined;
    throw error;
  }
}

/** Every checkpoint kept, newest first; an unreadable one is left out (and pins nothing). */
export function listCheckpoints(fs: BeneathFs, dir: string): StoredCheckpoint[] {
  let names: string[];
  try {
    names = fs.readdir(folder(dir));
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return [];
    throw error;
  }
  const out: StoredCheckpoint[] = [];
  for (const file of names) {
    if (!file.endsWith(".json")) continue;
    try {
      const checkpoint = loadCheckpoint(fs, dir, file.slice(0, -".json".length));
      if (checkpoint) out.push(checkpoint);
    } catch {
      // A torn or foreign file: not a checkpoint.
    }
  }
  return out.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** The blobs the kept checkpoints name, which compaction must not remove. */
export function checkpointShas(fs: BeneathFs, dir: string): Set<string> {
  const out = new Set<string>();
  for (const checkpoint of listCheckpoints(fs, dir)) {
    for (const file of Object.values(checkpoint.files)) if (file.sha) out.add(file.sha);
  }
  return out;
}
