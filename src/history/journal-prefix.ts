/**
 * Indexing a large journal a path at a time. A `splice` command asks about
 * one or two paths, yet parsing and indexing every event of a 100,000-event
 * journal costs about a second. So a process that opens a large journal
 * keeps the part an earlier process already counted (the prefix) as raw
 * bytes, and parses from it only the lines of the paths it is asked about.
 *
 * What that earlier process counted (events and blob bytes, for the bounds
 * that decide when to collect) is kept beside the journal in
 * `index-totals.json`, with the journal's inode, first bytes and the offset
 * it counted up to. It is a cache: when it does not match the journal, the
 * journal is indexed whole, as before, and the file is written again.
 */
import { stateLayout } from "../util/state-folder.js";
import { BeneathFs } from "../workspace/beneath-fs.js";
import { writeFileAtomic } from "./fsutil.js";
import { parseChunk, parseEvent, type StoredEvent } from "./journal.js";

const NEWLINE = 0x0a;

/** What a process that indexed the journal up to `offset` counted there. */
export interface JournalTotals {
  ino: number;
  /** The journal's first bytes, hex: with the inode, they tell a replaced journal apart. */
  head: string;
  offset: number;
  count: number;
  bytes: number;
}

export function readTotals(dir: string, fs = BeneathFs.around(dir)): JournalTotals | undefined {
  try {
    const t = JSON.parse(fs.readFile(stateLayout(dir).totals).toString("utf8")) as JournalTotals;
    const numbers = [t.ino, t.offset, t.count, t.bytes];
    if (!numbers.every((n) => Number.isSafeInteger(n) && n >= 0) || typeof t.head !== "string") {
      return undefined;
    }
    return t;
  } catch {
    return undefined; // missing or torn: a cache, so index the journal whole
  }
}

export function writeTotals(fs: BeneathFs, dir: string, totals: JournalTotals): void {
  try {
    writeFileAtomic(fs, stateLayout(dir).totals, Buffer.from(JSON.stringify(totals)));
  } catch {
    // Only a cache: the next process indexes the journal whole.
  }
}

/** Whether `totals` describe the start of `raw`, the journal as read from offset 0. */
export function totalsFit(
  totals: JournalTotals,
  journal: { ino: number; head: string },
  raw: Uint8Array,
): boolean {
  return (
    totals.ino === journal.ino &&
    totals.head === journal.head &&
    totals.offset <= raw.length &&
    (totals.offset === 0 || raw[totals.offset - 1] === NEWLINE)
  );
}

/** Complete journal lines, parsed whole or one path at a time. */
export class JournalPrefix {
  readonly #bytes: Buffer;
  readonly #byPath = new Map<string, StoredEvent[]>();

  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }

  /**
   * The events of one path, in journal order. Only lines that contain the
   * path as a JSON string are parsed (JSON.stringify spells a string one way,
   * the way the journal's writer did), then kept if the event's path is it.
   */
  eventsOf(path: string): StoredEvent[] {
    const cached = this.#byPath.get(path);
    if (cached) return cached;
    const bytes = this.#bytes;
    const needle = Buffer.from(JSON.stringify(path), "utf8");
    const out: StoredEvent[] = [];
    for (let at = bytes.indexOf(needle); at >= 0; ) {
      const start = bytes.lastIndexOf(NEWLINE, at) + 1;
      const end = bytes.indexOf(NEWLINE, at);
      const line = bytes.toString("utf8", start, end);
      const event = parseEvent(line); // (undefined for a compaction header too)
      if (event?.path === path) out.push(event);
      at = bytes.indexOf(needle, end + 1);
    }
    this.#byPath.set(path, out);
    return out;
  }

  all(): StoredEvent[] {
    return parseChunk(this.#bytes).events;
  }

  /** Every event and completion mark. */
  parsed(): { events: StoredEvent[]; landed: string[] } {
    return parseChunk(this.#bytes);
  }
}
