/**
 * The journal: `journal.jsonl`, one JSON event per line, append-only.
 *
 * Writers append each line with a single write on an O_APPEND descriptor, so
 * lines from concurrent processes interleave whole. Readers consume only
 * complete lines and skip lines that do not parse (a torn last line after a
 * crash). Each line carries a random `id`, so a line that ends up twice in the
 * file (a writer racing a compaction writes it again) is counted once.
 */
import { closeSync, constants, fstatSync, readSync, type Stats } from "node:fs";
import { fsyncFd, type SyncBarrier } from "../util/durable.js";
import { randomId } from "../util/ids.js";
import type { BeneathFs } from "../workspace/beneath-fs.js";
import { type BatchLine, isBatchLine, parseBatchLine } from "./batches.js";
import { isErrno, writeAll } from "./fsutil.js";
import {
  EVENT_KINDS,
  type EventKind,
  type JournalEvent,
  LOCK_STALE_MS,
  type VersionRef,
} from "./types.js";

/** An event as stored: the public shape plus the line's id. */
export interface StoredEvent extends JournalEvent {
  id?: string;
}

export const NEWLINE = 0x0a;
/** How many leading bytes identify a journal file (they include the first line's random id). */
export const HEAD_BYTES = 64;
/** A writer that keeps losing the race with compactions gives up after this many tries. */
const MAX_APPEND_ATTEMPTS = 8;

export function newEventId(): string {
  return randomId(8);
}

/** The line for an event, without the newline. `id` comes first so it falls inside the head bytes. */
export function serializeEvent(event: StoredEvent): string {
  const { id, ...rest } = event;
  return JSON.stringify({ id, ...rest });
}

const HEADER_PREFIX = '{"compacted":';

/** The first line of a compacted journal: unique, so readers notice the file was replaced. */
export function compactionHeader(): string {
  return JSON.stringify({ compacted: randomId(8), at: new Date().toISOString() });
}

/** Parse one line; undefined for anything that is not a well-formed event. */
export function parseEvent(line: string): StoredEvent | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  if (!EVENT_KINDS.includes(o.kind as EventKind)) return undefined;
  if (typeof o.path !== "string" || typeof o.session !== "string" || typeof o.at !== "string") {
    return undefined;
  }
  const event: StoredEvent = {
    kind: o.kind as EventKind,
    path: o.path,
    session: o.session,
    at: o.at,
  };
  if (typeof o.id === "string") event.id = o.id;
  if (typeof o.sha === "string") {
    event.sha = o.sha;
    event.tag = typeof o.tag === "string" ? o.tag : "";
    event.size = typeof o.size === "number" ? o.size : 0;
  }
  const before = parseRef(o.before);
  if (before) event.before = before;
  if (Array.isArray(o.range) && o.range.length === 2 && o.range.every(Number.isInteger)) {
    event.range = [o.range[0] as number, o.range[1] as number];
  }
  if (typeof o.backup === "string") event.backup = o.backup;
  if (typeof o.note === "string") event.note = o.note;
  if (typeof o.client === "string") event.client = o.client;
  if (typeof o.tool === "string") event.tool = o.tool;
  if (o.pending === true) event.pending = true;
  return event;
}

function parseRef(value: unknown): VersionRef | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const o = value as Record<string, unknown>;
  if (typeof o.sha !== "string") return undefined;
  const ref: VersionRef = {
    sha: o.sha,
    tag: typeof o.tag === "string" ? o.tag : "",
    size: typeof o.size === "number" ? o.size : 0,
  };
  // Journals written before modes were kept have none: undo then leaves the mode as it is.
  if (Number.isInteger(o.mode)) ref.mode = o.mode as number;
  return ref;
}

/**
 * The complete lines of a chunk: parsed events, how many bytes they span,
 * and how many lines there were (compaction headers not counted).
 */
export function parseChunk(chunk: Uint8Array): {
  events: StoredEvent[];
  consumed: number;
  lines: number;
  /** The ids of pending changes this chunk's completion marks say landed. */
  landed: string[];
  /** Batch intents and done marks (batches.ts), in order. */
  batches: BatchLine[];
} {
  const last = chunk.lastIndexOf(NEWLINE);
  if (last < 0) return { events: [], consumed: 0, lines: 0, landed: [], batches: [] };
  const text = Buffer.from(chunk.buffer, chunk.byteOffset, last + 1).toString("utf8");
  const events: StoredEvent[] = [];
  const landed: string[] = [];
  const batches: BatchLine[] = [];
  let lines = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.startsWith(HEADER_PREFIX)) continue;
    lines++;
    if (isBatchLine(line)) {
      const batch = parseBatchLine(line);
      if (batch) batches.push(batch);
      continue;
    }
    if (line.startsWith(LANDED_PREFIX)) {
      const id = parseLanded(line);
      if (id !== undefined) landed.push(id);
      continue;
    }
    const event = parseEvent(line);
    if (event) events.push(event);
  }
  return { events, consumed: last + 1, lines, landed, batches };
}

const LANDED_PREFIX = '{"landed":';

/**
 * The completion mark of a pending change: appended once its rename (or
 * removal) happened. An event marked `pending` without one never landed —
 * the process died between journaling and replacing the file — unless a
 * later event shows the file holding what it wrote (see EventIndex).
 */
export function landedLine(id: string): string {
  return JSON.stringify({ landed: id });
}

function parseLanded(line: string): string | undefined {
  try {
    const o = JSON.parse(line) as { landed?: unknown };
    return typeof o.landed === "string" ? o.landed : undefined;
  } catch {
    return undefined;
  }
}

/** Read `length` bytes at `position` (fewer when the file is shorter). */
export function readRange(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(Math.max(0, length));
  let filled = 0;
  while (filled < length) {
    const n = readSync(fd, buffer, filled, length - filled, position + filled);
    if (n === 0) break;
    filled += n;
  }
  return buffer.subarray(0, filled);
}

/**
 * Append lines to the journal with one write. When the file does not end
 * with a newline (a writer crashed mid-line) the data starts with one, so the
 * torn fragment never swallows this event. If a compaction replaced the file
 * while we wrote, the lines are written again into the new file (readers
 * dedupe by id). A durable append with a `barrier` leaves the fsync to it.
 */
export function appendLines(
  fs: BeneathFs,
  path: string,
  lines: string[],
  durable: boolean,
  waitForLock?: string,
  barrier?: SyncBarrier,
): Appended {
  const appender = new JournalAppender(fs, path);
  try {
    return appender.append(lines, durable, waitForLock, barrier);
  } finally {
    appender.close();
  }
}

/** How long an appender keeps the journal open after its last append. */
const KEEP_OPEN_MS = 2_000;

/**
 * appendLines for a process that appends often (a history's every change):
 * the descriptor stays open between appends, for KEEP_OPEN_MS, so an append
 * is a stat, a write and a stat, not an open and a close as well; and the
 * last byte is read only when the file changed since this appender's own
 * line. The check after each write (the path still names the file written
 * to) is the same as for a fresh descriptor: a journal replaced by a
 * compaction, or removed, since the last append is found there and the
 * lines written again into a file opened afresh.
 */
export class JournalAppender {
  readonly #fs: BeneathFs;
  readonly #path: string;
  #fd: number | undefined;
  /** The file as this appender's last append left it: it then ends with a newline. */
  #after: Stats | undefined;
  #idle: NodeJS.Timeout | undefined;

  constructor(fs: BeneathFs, path: string) {
    this.#fs = fs;
    this.#path = path;
  }

  append(lines: string[], durable: boolean, waitForLock?: string, barrier?: SyncBarrier): Appended {
    if (waitForLock) waitWhileLocked(this.#fs, waitForLock);
    const body = `${lines.join("\n")}\n`;
    for (let attempt = 1; ; attempt++) {
      const kept = this.#fd !== undefined;
      const fd = this.#fd ?? this.#fs.open(this.#path, APPEND);
      this.#fd = fd;
      let start: Stats;
      let end: Stats;
      let length: number;
      try {
        start = fstatSync(fd);
        const torn = start.size > 0 && !this.#endsOwnLine(start) && !endsWithNewline(fd, start);
        const data = Buffer.from(torn ? `\n${body}` : body, "utf8");
        writeAll(fd, data);
        length = data.length;
        if (durable && !barrier) fsyncFd(fd, this.#path);
        end = fstatSync(fd);
      } catch (error) {
        this.close();
        throw error;
      }
      this.#after = end;
      const moved = replacedSince(this.#fs, this.#path, start, kept);
      if (!moved || attempt >= MAX_APPEND_ATTEMPTS) {
        if (durable) barrier?.add(this.#path);
        this.#keepOpen();
        return { start, end, length };
      }
      this.close();
    }
  }

  /** Closes the descriptor (the next append opens the journal again). */
  close(): void {
    clearTimeout(this.#idle);
    this.#idle = undefined;
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    this.#after = undefined;
  }

  /** Whether nothing touched the file since this appender's last write (which ended a line). */
  #endsOwnLine(now: Stats): boolean {
    const after = this.#after;
    return (
      after !== undefined &&
      now.ino === after.ino &&
      now.size === after.size &&
      now.ctimeMs === after.ctimeMs &&
      now.mtimeMs === after.mtimeMs
    );
  }

  #keepOpen(): void {
    if (this.#idle) this.#idle.refresh();
    else {
      this.#idle = setTimeout(() => {
        try {
          this.close();
        } catch {
          // A timer has no caller: a descriptor that will not close is dropped all the same.
          this.#fd = undefined;
        }
      }, KEEP_OPEN_MS);
      this.#idle.unref();
    }
  }
}

function endsWithNewline(fd: number, st: Stats): boolean {
  return readRange(fd, st.size - 1, 1)[0] === NEWLINE;
}

/** `a+`: read the last byte, append, create when missing. */
const APPEND = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT;

/** Where an append landed: the file before and after it, and the bytes it wrote. */
export interface Appended {
  start: Stats;
  end: Stats;
  length: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Appends wait while a compaction holds the lock: a line appended between the
 * compactor's rename and its copy of the old file's tail would otherwise land
 * before older lines, and "newest" is journal order. A lock older than
 * LOCK_STALE_MS is a crashed compactor's; stop waiting for it.
 */
function waitWhileLocked(fs: BeneathFs, lockPath: string): void {
  for (;;) {
    let lock: Stats | undefined;
    try {
      lock = fs.lstatIfAny(lockPath); // no lock is the common case: no error made for it
    } catch {
      return;
    }
    if (lock === undefined || Date.now() - lock.mtimeMs > LOCK_STALE_MS) return;
    Atomics.wait(sleeper, 0, 0, 2);
  }
}

/**
 * Whether `path` no longer names the file `before` was taken of. A journal
 * removed right after a fresh open is left so (someone cleared history); a
 * kept descriptor may predate the removal, and its lines go to a new file.
 */
function replacedSince(fs: BeneathFs, path: string, before: Stats, kept = false): boolean {
  try {
    const now = fs.lstat(path);
    return now.ino !== before.ino || now.dev !== before.dev;
  } catch (error) {
    if (isErrno(error, "ENOENT")) return kept;
    throw error;
  }
}
