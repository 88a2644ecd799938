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
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { sha256 } from "../util/hash.js";
import type { FileMeta, SnapshotDeps } from "./snapshot.js";

export const TABLE_FILE = "checkpoint-table";
const CLOCK_FILE = "checkpoint-clock";
/** The journal's name in the history (history/journal.ts): a compaction replaces it. */
const JOURNAL_FILE = "journal.jsonl";
const MAGIC = "splice-stat-table 1";
/** Files a table holds at most (about 12 MiB on disk at 100,000): larger trees keep none. */
export const TABLE_MAX_FILES = 500_000;

export interface Table {
  /** The history journal's inode then: another one means a compaction may have removed blobs. */
  journal: string;
  files: Map<string, FileMeta>;
}

/** Tables this process kept, by history and root: the newest one it wrote or read. */
const kept = new Map<string, Table>();

const keyOf = (deps: SnapshotDeps) => `${deps.history.dir}\0${deps.guard.root}`;

const openFlags = (flags: number) => flags | (constants.O_NOFOLLOW ?? 0);

/**
 * The file-system clock now: the ctime a write gives a file in the history
 * (the same clock the root's files are stamped by); undefined when it cannot be written.
 */
export function readClock(deps: SnapshotDeps): bigint | undefined {
  if (deps.history.unavailable) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(
      join(deps.history.dir, CLOCK_FILE),
      openFlags(constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC),
      0o600,
    );
    writeSync(fd, "t");
    return fstatSync(fd, { bigint: true }).ctimeNs;
  } catch {
    return undefined; // no clock: every entry counts as racy, so none is trusted
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function journalId(deps: SnapshotDeps): string {
  const st = lstatSync(join(deps.history.dir, JOURNAL_FILE), {
    bigint: true,
    throwIfNoEntry: false,
  });
  return st ? `${st.dev}:${st.ino}` : "none";
}

/**
 * The sha `meta`'s bytes are kept under, when the table proves them unchanged:
 * the same size, mtime, ctime, inode and mode, the entry not racy, and (after
 * a compaction since) its blob still in history.
 */
export function trustedSha(
  deps: SnapshotDeps,
  table: Table & { compacted: boolean },
  rel: string,
  meta: FileMeta,
): string | undefined {
  const was = table.files.get(rel);
  if (!was?.sha || was.racy) return undefined;
  if (
    was.size !== meta.size ||
    was.mtimeNs !== meta.mtimeNs ||
    was.ctimeNs !== meta.ctimeNs ||
    was.ino !== meta.ino ||
    was.mode !== meta.mode
  ) {
    return undefined;
  }
  if (table.compacted && !deps.history.hasBlob(was.sha)) return undefined;
  return was.sha;
}

/** The last table of this history and root: this process's, else the one on disk. */
export function priorTable(deps: SnapshotDeps): (Table & { compacted: boolean }) | undefined {
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
export function keepTable(
  deps: SnapshotDeps,
  files: Map<string, FileMeta>,
  changed: boolean,
): void {
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
  const table: Table = { journal, files };
  kept.set(keyOf(deps), table);
  if (changed) writeTable(deps, table);
}

/** Magic, a JSON header (whose the body is, its sha), then one record per captured file, NUL-separated. */
function writeTable(deps: SnapshotDeps, table: Table): void {
  const records: string[] = [];
  for (const [rel, m] of table.files) {
    if (m.sha && !m.racy)
      records.push(`${m.size}\t${m.mtimeNs}\t${m.ctimeNs}\t${m.ino}\t${m.mode}\t${m.sha}\t${rel}`);
  }
  const body = records.join("\0");
  const header = JSON.stringify({
    root: deps.guard.root,
    journal: table.journal,
    sha: sha256(Buffer.from(body)),
  });
  const path = join(deps.history.dir, TABLE_FILE);
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(
      temp,
      openFlags(constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL),
      0o600,
    );
    writeSync(fd, `${MAGIC}\n${header}\n${body}`);
    closeSync(fd);
    fd = undefined;
    // A reader sees the old table or this one whole; the last writer of several wins, each one sound.
    renameSync(temp, path);
  } catch {
    // Not kept: the next process reads what it needs again.
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {}
  }
}

/** The table on disk, or undefined when missing, damaged or another root's. */
export function readTable(deps: SnapshotDeps): Table | undefined {
  let text: string;
  try {
    const fd = openSync(join(deps.history.dir, TABLE_FILE), openFlags(constants.O_RDONLY));
    try {
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const first = text.indexOf("\n");
  const second = text.indexOf("\n", first + 1);
  if (first < 0 || second < 0 || text.slice(0, first) !== MAGIC) return undefined;
  try {
    const header = JSON.parse(text.slice(first + 1, second));
    const body = text.slice(second + 1);
    if (header.root !== deps.guard.root || typeof header.journal !== "string") return undefined;
    if (header.sha !== sha256(Buffer.from(body))) return undefined; // torn or edited
    const files = new Map<string, FileMeta>();
    if (body !== "") {
      for (const record of body.split("\0")) {
        const f = record.split("\t");
        if (f.length < 7 || !/^[0-9a-f]{64}$/.test(f[5]!)) return undefined;
        files.set(f.slice(6).join("\t"), {
          size: Number(f[0]),
          mtimeNs: BigInt(f[1]!),
          ctimeNs: BigInt(f[2]!),
          ino: BigInt(f[3]!),
          mode: Number(f[4]),
          sha: f[5],
        });
      }
    }
    return { journal: header.journal, files };
  } catch {
    return undefined; // damaged: rebuilt by the next snapshot
  }
}
