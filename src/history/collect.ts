/**
 * Bounding the store. Under the lock: rewrite the journal keeping the newest
 * events that fit within the bounds (and always each path's newest version
 * and newest backup, see selectKept), rename it over the old one, carry over lines other processes
 * appended meanwhile, then delete blobs that no kept event names and that are
 * older than the compaction start minus a grace period.
 */
import { closeSync, constants, fstatSync } from "node:fs";
import { join } from "node:path";
import { fsyncFd } from "../util/durable.js";
import { HISTORY_LOCK_FILE } from "../util/state-folder.js";
import type { BeneathFs } from "../workspace/beneath-fs.js";
import { batchLineText, intentLine, OpenBatches } from "./batches.js";
import type { BlobStore } from "./blobs.js";
import { checkpointShas } from "./checkpoints.js";
import { EventIndex } from "./event-index.js";
import { CREATE_FLAGS, isErrno, tempPath, writeAll } from "./fsutil.js";
import {
  appendLines,
  compactionHeader,
  landedLine,
  parseChunk,
  readRange,
  type StoredEvent,
  serializeEvent,
} from "./journal.js";
import { DirLock } from "./lock.js";
import { BLOB_GRACE_MS, type CollectResult, shasOf } from "./types.js";

export interface CompactTarget {
  /** Where the store's calls are made (beneath the project). */
  fs: BeneathFs;
  dir: string;
  journalPath: string;
  blobs: BlobStore;
  maxBytes: number;
  maxEntries: number;
}

export interface CompactOutcome extends CollectResult {
  /** Events in the journal after compaction. */
  events: number;
  /** Bytes of the distinct blobs the kept events name. */
  bytes: number;
}

/**
 * Which events to keep, newest first: a contiguous run of the newest events
 * while both bounds hold, plus, regardless of the bounds, what undo needs
 * most: the newest event of every path (its newest version), the newest
 * event of every path that replaced a version (its newest backup, which reads
 * after it would otherwise crowd out), and every event of the backup
 * sessions those belong to (an undo restores a session whole or not at all).
 * Blob bytes count once per distinct sha.
 */
export function selectKept(events: StoredEvent[], maxEntries: number, maxBytes: number): boolean[] {
  const pinned = pinnedEvents(events);
  const keep = new Array<boolean>(events.length).fill(false);
  const counted = new Set<string>();
  let count = 0;
  let bytes = 0;
  let full = false;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    let extra = 0;
    if (e.sha && !counted.has(e.sha)) extra += e.size ?? 0;
    if (e.before && !counted.has(e.before.sha) && e.before.sha !== e.sha) extra += e.before.size;
    const fits = !full && count + 1 <= maxEntries && bytes + extra <= maxBytes;
    if (!fits) full = true;
    if (!fits && !pinned[i]) continue;
    keep[i] = true;
    count++;
    bytes += extra;
    for (const sha of shasOf(e)) counted.add(sha);
  }
  return keep;
}

/** The events selectKept keeps past the bounds. */
function pinnedEvents(events: StoredEvent[]): boolean[] {
  const pinned = new Array<boolean>(events.length).fill(false);
  const newest = new Set<string>();
  const newestBackup = new Set<string>();
  const sessions = new Set<string>();
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (!newest.has(e.path)) {
      newest.add(e.path);
      pinned[i] = true;
    }
    if (e.before && !newestBackup.has(e.path)) {
      newestBackup.add(e.path);
      pinned[i] = true;
      if (e.backup !== undefined) sessions.add(e.backup);
    }
  }
  events.forEach((e, i) => {
    if (e.backup !== undefined && sessions.has(e.backup)) pinned[i] = true;
  });
  return pinned;
}

/** Compact the journal and sweep blobs; undefined when another process holds the lock. */
export function compact(target: CompactTarget): CompactOutcome | undefined {
  const lock = new DirLock(target.fs, join(target.dir, HISTORY_LOCK_FILE));
  if (!lock.tryAcquire()) return undefined;
  const startMs = Date.now();
  try {
    const journal = rewriteJournal(target, lock);
    if (!journal) return undefined;
    const cutoff = startMs - BLOB_GRACE_MS;
    // Named checkpoints keep the bytes they copied, whatever the journal kept.
    for (const sha of checkpointShas(target.fs, target.dir)) journal.referenced.add(sha);
    const swept = sweepBlobs(target.blobs, journal.referenced, cutoff);
    sweepLeftovers(target.fs, target.dir, cutoff);
    return { ...swept, events: journal.events, bytes: journal.bytes };
  } finally {
    lock.release();
  }
}

interface Rewritten {
  referenced: Set<string>;
  events: number;
  bytes: number;
}

function rewriteJournal(target: CompactTarget, lock: DirLock): Rewritten | undefined {
  let fd: number;
  try {
    fd = target.fs.open(target.journalPath, constants.O_RDONLY);
  } catch (error) {
    if (!isErrno(error, "ENOENT")) throw error;
    return { referenced: new Set(), events: 0, bytes: 0 };
  }
  try {
    const size = fstatSync(fd).size;
    const { events: parsed, consumed, lines, landed, batches } = parseChunk(readRange(fd, 0, size));
    const events = settle(dedupe(parsed), landed);
    const keep = selectKept(events, target.maxEntries, target.maxBytes);
    const kept = events.filter((_, i) => keep[i]);
    // A batch not marked done may have been interrupted: its intent stays, for the next open.
    const open = new OpenBatches();
    open.add(batches);
    const intents = open.list();
    let carried: StoredEvent[] = [];
    if (kept.length + intents.length !== lines) {
      const temp = tempPath(target.dir, "journal");
      const body = [...kept.map(serializeEvent), ...intents.map(intentLine)];
      writeJournal(target.fs, temp, [compactionHeader(), ...body]);
      if (!lock.holds()) {
        target.fs.rm(temp);
        return undefined;
      }
      target.fs.rename(temp, target.journalPath);
      target.fs.fsyncDir(target.dir);
      // Lines appended to the old file after we read it. Writers that append
      // after this point notice the new inode and write their line again.
      const tail = readRange(fd, consumed, fstatSync(fd).size - consumed);
      const late = parseChunk(tail);
      carried = late.events;
      const lines = [
        ...carried.map(serializeEvent),
        ...late.landed.map(landedLine),
        ...late.batches.map(batchLineText),
      ];
      if (lines.length > 0) appendLines(target.fs, target.journalPath, lines, true);
    }
    const referenced = new Set<string>();
    // What finishing an open batch needs: each file's version before and after.
    for (const { files } of intents) {
      for (const f of files) for (const sha of [f.before, f.after]) if (sha) referenced.add(sha);
    }
    const sizes = new Map<string, number>();
    for (const e of [...kept, ...carried]) {
      if (e.sha) sizes.set(e.sha, e.size ?? 0);
      if (e.before) sizes.set(e.before.sha, e.before.size);
      for (const sha of shasOf(e)) referenced.add(sha);
    }
    let bytes = 0;
    for (const n of sizes.values()) bytes += n;
    return { referenced, events: kept.length + carried.length, bytes };
  } finally {
    closeSync(fd);
  }
}

/**
 * Folds completion marks into their events (the marks are not kept): a
 * pending change that landed is written back as a plain one; one that never
 * landed stays pending, so it stays no change.
 */
function settle(events: StoredEvent[], landed: string[]): StoredEvent[] {
  const index = new EventIndex();
  for (const e of events) index.add(e);
  index.markLanded(landed);
  return events.map((e) => {
    if (!e.pending || !index.landed(e)) return e;
    const { pending: _, ...rest } = e;
    return rest;
  });
}

function dedupe(events: StoredEvent[]): StoredEvent[] {
  const ids = new Set<string>();
  return events.filter((e) => {
    if (e.id === undefined) return true;
    if (ids.has(e.id)) return false;
    ids.add(e.id);
    return true;
  });
}

function writeJournal(fs: BeneathFs, path: string, lines: string[]): void {
  const fd = fs.open(path, CREATE_FLAGS);
  try {
    writeAll(fd, Buffer.from(`${lines.join("\n")}\n`, "utf8"));
    fsyncFd(fd, path);
  } catch (error) {
    closeSync(fd);
    fs.rm(path);
    throw error;
  }
  closeSync(fd);
}

function sweepBlobs(blobs: BlobStore, referenced: Set<string>, cutoff: number): CollectResult {
  let removedBlobs = 0;
  let freedBytes = 0;
  for (const blob of blobs.list()) {
    if (blob.packed || referenced.has(blob.sha) || blob.mtimeMs >= cutoff) continue;
    const freed = blobs.removeIfOlder(blob.sha, cutoff);
    if (freed === undefined) continue;
    removedBlobs++;
    freedBytes += freed;
  }
  const packs = blobs.removePacksOlder(referenced, cutoff);
  blobs.removeTemps(cutoff);
  return {
    removedBlobs: removedBlobs + packs.removedBlobs,
    freedBytes: freedBytes + packs.freedBytes,
  };
}

/** Temp journals and broken locks a crashed process left in the history directory. */
function sweepLeftovers(fs: BeneathFs, dir: string, cutoff: number): void {
  for (const name of fs.readdir(dir)) {
    if (!name.startsWith(".tmp-") && !name.startsWith(`${HISTORY_LOCK_FILE}.stale-`)) continue;
    const path = join(dir, name);
    try {
      if (fs.lstat(path).mtimeMs < cutoff) fs.rm(path);
    } catch (error) {
      if (!isErrno(error, "ENOENT")) throw error;
    }
  }
}
