/**
 * Reading the journal as other processes append to it: only complete lines,
 * and a journal replaced by a compaction is noticed and read again whole.
 */
import { closeSync, constants, fstatSync, type Stats } from "node:fs";
import type { BeneathFs } from "../workspace/beneath-fs.js";
import type { BatchLine } from "./batches.js";
import { isErrno } from "./fsutil.js";
import {
  type Appended,
  HEAD_BYTES,
  NEWLINE,
  parseChunk,
  readRange,
  type StoredEvent,
} from "./journal.js";

export interface PollResult {
  /** The file was replaced or truncated: drop what you have, `events` is the whole journal. */
  reset: boolean;
  events: StoredEvent[];
  /** Completion marks among the new lines (see landedLine). */
  landed?: string[];
  /** Batch intents and done marks among the new lines (batches.ts); in `raw` when it is set. */
  batches?: BatchLine[];
  /**
   * Instead of `events`, on a reset above the size asked for: the complete
   * lines unparsed, for an index that parses only what it is asked about.
   */
  raw?: Buffer;
}

/**
 * Follows the journal across processes: each poll returns the events appended
 * since the last one. A cheap stat decides whether anything changed; a new
 * inode, a shrunk file or different leading bytes mean a compaction replaced
 * it, and the reader starts over.
 */
export class JournalReader {
  readonly path: string;
  private readonly fs: BeneathFs;
  private ino = -1;
  private dev = -1;
  private size = -1;
  private ctimeMs = -1;
  private offset = 0;
  private head: Buffer = Buffer.alloc(0);

  constructor(fs: BeneathFs, path: string) {
    this.fs = fs;
    this.path = path;
  }

  /** Where reading stands: the file, its first bytes (hex) and the offset of the next line. */
  position(): { ino: number; head: string; offset: number } {
    return { ino: this.ino, head: this.head.toString("hex"), offset: this.offset };
  }

  /** `rawAbove`: hand a reset read larger than this many bytes back unparsed (`raw`). */
  poll(rawAbove = Number.POSITIVE_INFINITY): PollResult {
    let st: Stats;
    try {
      st = this.fs.lstat(this.path);
    } catch (error) {
      if (!isErrno(error, "ENOENT")) throw error;
      const reset = this.ino !== -1;
      this.forget();
      return { reset, events: [] };
    }
    if (
      st.ino === this.ino &&
      st.dev === this.dev &&
      st.size === this.size &&
      st.ctimeMs === this.ctimeMs
    ) {
      return { reset: false, events: [] };
    }
    return this.read(rawAbove);
  }

  /**
   * Takes an append of this process as read when nothing else came before it:
   * the file is the one last read, up to its end, and grew by exactly those
   * bytes. Saves reading back a line we just wrote; false means poll.
   */
  acknowledge({ start, end, length }: Appended): boolean {
    const alone =
      start.ino === this.ino &&
      start.dev === this.dev &&
      start.size === this.size &&
      this.offset === this.size &&
      this.head.length === HEAD_BYTES && // what tells a replaced journal apart is known
      end.ino === start.ino &&
      end.size === start.size + length;
    if (!alone) return false;
    this.size = end.size;
    this.offset = end.size;
    this.ctimeMs = end.ctimeMs;
    return true;
  }

  private read(rawAbove: number): PollResult {
    let fd: number;
    try {
      fd = this.fs.open(this.path, constants.O_RDONLY);
    } catch (error) {
      if (!isErrno(error, "ENOENT")) throw error;
      const reset = this.ino !== -1;
      this.forget();
      return { reset, events: [] };
    }
    try {
      const st = fstatSync(fd);
      const replaced =
        this.ino === -1 ||
        st.ino !== this.ino ||
        st.dev !== this.dev ||
        st.size < this.offset ||
        !readRange(fd, 0, this.head.length).equals(this.head);
      if (replaced) {
        this.offset = 0;
        this.head = Buffer.alloc(0);
      }
      const chunk = readRange(fd, this.offset, st.size - this.offset);
      const raw = replaced && chunk.length > rawAbove;
      const consumed = raw ? chunk.lastIndexOf(NEWLINE) + 1 : 0;
      const parsed = raw ? { events: [], consumed, landed: [], batches: [] } : parseChunk(chunk);
      this.offset += parsed.consumed;
      if (this.head.length < HEAD_BYTES && this.offset > this.head.length) {
        this.head = readRange(fd, 0, Math.min(HEAD_BYTES, this.offset));
      }
      this.ino = st.ino;
      this.dev = st.dev;
      this.size = st.size;
      this.ctimeMs = st.ctimeMs;
      if (raw) return { reset: true, events: [], landed: [], raw: chunk.subarray(0, consumed) };
      return {
        reset: replaced,
        events: parsed.events,
        landed: parsed.landed,
        batches: parsed.batches,
      };
    } finally {
      closeSync(fd);
    }
  }

  private forget(): void {
    this.ino = -1;
    this.dev = -1;
    this.size = -1;
    this.ctimeMs = -1;
    this.offset = 0;
    this.head = Buffer.alloc(0);
  }
}
