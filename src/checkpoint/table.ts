/**
 * The stat table: per file the metadata a snapshot saw and the sha of the
 * bytes it kept in history, so the next snapshot (in this process or a fresh
 * one, like git's index) copies only files whose metadata changed. It lives
 * beside the history (`checkpoint-table`), is replaced atomically, and is a
 * cache only: a damaged table, one of another root or history, or one past
 * the bounds is ignored and rebuilt.
 *
 * The one blind spot of any stat cache (git's too) is a rewrite that keeps
 * size, mtime, ctime and inode: possible only within one tick of the file
 * system's clock. Racy-git's rule closes it: a walk reads the clock (from a
 * file it writes) before it stats, and a file whose ctime is not older than
 * that is racy (snapshot.ts): never trusted, so read again next time.
 */

import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { PathGuard } from "../guard/path-guard.js";
import { tempPath } from "../history/fsutil.js";
import type { HistoryStore } from "../history/types.js";
import { stateLayout } from "../util/state-folder.js";
import { BeneathFs } from "../workspace/beneath-fs.js";
import { type FileMeta, sameMeta } from "./meta.js";

/** What the table needs of a snapshot's deps: whose root, which history. */
export interface TableDeps {
  guard: Pick<PathGuard, "root">;
  history: Pick<HistoryStore, "dir" | "hasBlob" | "unavailable">;
}

export const TABLE_FILE = "checkpoint-table";
const CLOCK_FILE = "checkpoint-clock";
/** 2: times in milliseconds (doubles), as meta.ts keeps them; a table of 1 (nanoseconds) is rebuilt. */
const MAGIC = "splice-stat-table 2";
/** Files a table holds at most (about 12 MiB on disk at 100,000): larger trees keep none. */
export const TABLE_MAX_FILES = 500_000;

export interface Table {
  /** The history journal's inode then: another one means a compaction may have removed blobs. */
  journal: string;
  /** The sha kept for `rel` when it was statted just as `meta` says, and not racy. */
  shaOf(rel: string, meta: FileMeta): string | undefined;
  /** Entries it holds. */
  size: number;
}

/** The stat fields an entry must match, as one string (compared whole). */
const statKey = (m: FileMeta) => `${m.size}\t${m.mtimeMs}\t${m.ctimeMs}\t${m.ino}\t${m.mode}`;

/** This process's table: the snapshot's own files. */
function liveTable(journal: string, files: Map<string, FileMeta>): Table {
  let size = 0;
  for (const m of files.values()) if (m.sha && !m.racy) size++;
  return {
    journal,
    size,
    shaOf(rel, meta) {
      const m = files.get(rel);
      return m?.sha && !m.racy && sameMeta(m, meta) ? m.sha : undefined;
    },
  };
}

/** Tables this process kept, by history and root: the newest one it wrote or read. */
const kept = new Map<string, Table>();

const keyOf = (deps: TableDeps) => `${deps.history.dir}\0${deps.guard.root}`;

/** Calls beneath the project (as the history's own): a `.splice` swapped for a link out is refused. */
const beneath = new Map<string, BeneathFs>();
function fsOf(deps: TableDeps): BeneathFs {
  const key = keyOf(deps);
  let fs = beneath.get(key);
  if (!fs) {
    fs = BeneathFs.around(deps.history.dir, deps.guard.root);
    beneath.set(key, fs);
  }
  return fs;
}

/**
 * The file-system clock now: the ctime a write gives a file in the history
 * (the same clock the root's files are stamped by); undefined when it cannot be written.
 */
export function readClock(deps: TableDeps): number | undefined {
  if (deps.history.unavailable) return undefined;
  let fd: number | undefined;
  try {
    fd = fsOf(deps).open(
      join(deps.history.dir, CLOCK_FILE),
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
      0o600,
    );
    writeSync(fd, "t");
    return fstatSync(fd).ctimeMs;
  } catch {
    return undefined; // no clock: every entry counts as racy, so none is trusted
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function journalId(deps: TableDeps): string {
  try {
    const st = fsOf(deps).lstat(stateLayout(deps.history.dir).journal);
    return `${st.dev}:${st.ino}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "none";
    throw error;
  }
}

/**
 * The sha `meta`'s bytes are kept under, when the table proves them unchanged:
 * the same size, mtime, ctime, inode and mode, the entry not racy, and (after
 * a compaction since) its blob still in history.
 */
export function trustedSha(
  deps: TableDeps,
  table: Table & { compacted: boolean },
  rel: string,
  meta: FileMeta,
): string | undefined {
  const sha = table.shaOf(rel, meta);
  if (!sha || (table.compacted && !deps.history.hasBlob(sha))) return undefined;
  return sha;
}

/** The last table of this history and root: this process's, else the one on disk. */
export function priorTable(deps: TableDeps): (Table & { compacted: boolean }) | undefined {
  const table = kept.get(keyOf(deps)) ?? readTable(deps);
  if (!table) return undefined;
  let journal: string;
  try {
    journal = journalId(deps);
  } catch {
    return undefined;
  }
  return { ...table, compacted: journal !== table.journal };
}

/** Keeps `files` as the table, in this process and (when `changed`) on disk. */
export function keepTable(deps: TableDeps, files: Map<string, FileMeta>, changed: boolean): void {
  if (files.size > TABLE_MAX_FILES) {
    kept.delete(keyOf(deps));
    return;
  }
  let journal: string;
  try {
    journal = journalId(deps);
  } catch {
    return;
  }
  kept.set(keyOf(deps), liveTable(journal, files));
  if (changed) writeTable(deps, journal, files);
}

/** Magic, a JSON header (whose table, the body's checksum), then one record per kept file, NUL-separated. */
function writeTable(deps: TableDeps, journal: string, files: Map<string, FileMeta>): void {
  const records: string[] = [];
  for (const [rel, m] of files)
    if (m.sha && !m.racy) records.push(`${statKey(m)}\t${m.sha}\t${rel}`);
  const body = Buffer.from(records.join("\0"));
  const header = JSON.stringify({ root: deps.guard.root, journal, sum: checksum(body) });
  const path = join(deps.history.dir, TABLE_FILE);
  // Named for its writer: the history sweeps a dead one's when it opens.
  const temp = tempPath(deps.history.dir, "table");
  const fs = fsOf(deps);
  try {
    fs.create(temp, Buffer.concat([Buffer.from(`${MAGIC}\n${header}\n`), body]));
    // A reader sees the old table or this one whole; the last writer of several wins, each one sound.
    fs.rename(temp, path);
  } catch {
    // Not kept: the next process reads what it needs again.
    try {
      fs.unlink(temp);
    } catch {}
  }
}

/** Catches a damaged table (a bit flipped, a stranger's edit); not a defence against forgery. */
const checksum = (bytes: Uint8Array) => createHash("md5").update(bytes).digest("hex");

/** The table on disk, or undefined when missing, damaged or another root's. */
export function readTable(deps: TableDeps): Table | undefined {
  let bytes: Buffer;
  try {
    bytes = fsOf(deps).readFile(join(deps.history.dir, TABLE_FILE));
  } catch {
    return undefined;
  }
  const first = bytes.indexOf(10);
  const second = bytes.indexOf(10, first + 1);
  if (first < 0 || second < 0 || bytes.toString("utf8", 0, first) !== MAGIC) return undefined;
  let header: { root?: unknown; journal?: unknown; sum?: unknown };
  try {
    header = JSON.parse(bytes.toString("utf8", first + 1, second));
  } catch {
    return undefined;
  }
  const { root, journal, sum } = header;
  if (root !== deps.guard.root || typeof journal !== "string") return undefined;
  const body = bytes.subarray(second + 1);
  if (sum !== checksum(body)) return undefined;
  // rel → the record's stat key and sha; parsed when looked up.
  const records = new Map<string, string>();
  if (body.length > 0) {
    for (const record of body.toString("utf8").split("\0")) {
      // Five numbers, a sha, then the path (which may hold tabs); the checksum vouches for the rest.
      let at = 0;
      for (let i = 0; i < 6 && at >= 0; i++) at = record.indexOf("\t", at + 1);
      if (at < 0) return undefined;
      at++;
      records.set(record.slice(at), record.slice(0, at - 1));
    }
  }
  return {
    journal,
    size: records.size,
    shaOf(rel, meta) {
      const record = records.get(rel);
      if (record === undefined) return undefined;
      const key = statKey(meta);
      if (record.length !== key.length + 65) return undefined;
      return record.startsWith(key) && record[key.length] === "\t"
        ? record.slice(key.length + 1)
        : undefined;
    },
  };
}
