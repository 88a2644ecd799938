/**
 * A batch's intent and its end, as journal lines. A batch of several files
 * (change/commit-batch.ts) appends its intent — the batch id, the process
 * that runs it, its backup session, and each file's path, version before and
 * after, and journal event — in the same append as its events, before the
 * first rename; and a done mark after the last. An intent without a done
 * whose process is gone was interrupted between renames: the next process
 * that opens the history finishes it (change/finish-batch.ts).
 *
 * Both are lines no older reader parses as an event (they are skipped), and
 * a compaction carries the intents still open into the new journal.
 */
import { decodeHolder, liveness } from "../workspace/holder.js";

/** One file of a batch, as its intent names it. */
export interface BatchFile {
  path: string;
  /** The sha the file held before the batch; null: there was no file. */
  before: string | null;
  /** The sha the batch writes; null: the batch deletes the file. */
  after: string | null;
  /** The journal event of this file's change (pending until it lands). */
  event: string;
}

export interface BatchIntent {
  batch: string;
  /** When the batch was journaled (ISO). */
  at: string;
  /** The process running it (workspace/holder.ts encodeHolder). */
  holder: string;
  /** The backup session its changes belong to. */
  backup?: string;
  files: BatchFile[];
}

/** What starts a batch's intent; the files come from its journal events. */
export interface BatchStart {
  batch: string;
  holder: string;
  backup?: string;
}

/** The intent of a batch whose events are `events` (as stored: with ids, sha and before). */
export function intentOf(
  start: BatchStart,
  events: readonly { id: string; path: string; sha?: string; before?: { sha: string } }[],
): BatchIntent {
  const files = events.map((e) => ({
    path: e.path,
    before: e.before?.sha ?? null,
    after: e.sha ?? null,
    event: e.id,
  }));
  return { ...start, at: new Date().toISOString(), files };
}

/** A batch line read back: an intent, or the id of a batch that ended. */
export type BatchLine = { intent: BatchIntent } | { done: string };

const INTENT_PREFIX = '{"batch":';
const DONE_PREFIX = '{"batch_done":';

export function intentLine(intent: BatchIntent): string {
  const { batch, at, holder, backup, files } = intent;
  return JSON.stringify({ batch, at, holder, backup, files });
}

export function batchDoneLine(batch: string): string {
  return JSON.stringify({ batch_done: batch });
}

/** A batch line as it is written. */
export const batchLineText = (line: BatchLine) =>
  "done" in line ? batchDoneLine(line.done) : intentLine(line.intent);

/** Whether a journal line is a batch line (so it is not an event). */
export const isBatchLine = (line: string) => line.startsWith('{"batch');

/** A batch line, or undefined for anything else (a torn or foreign line too). */
export function parseBatchLine(line: string): BatchLine | undefined {
  if (!isBatchLine(line)) return undefined;
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (line.startsWith(DONE_PREFIX)) {
    return typeof o.batch_done === "string" ? { done: o.batch_done } : undefined;
  }
  if (!line.startsWith(INTENT_PREFIX) || typeof o.batch !== "string") return undefined;
  if (typeof o.at !== "string" || typeof o.holder !== "string" || !Array.isArray(o.files)) {
    return undefined;
  }
  const files = (o.files as Record<string, unknown>[]).filter(
    (f) =>
      typeof f?.path === "string" &&
      (typeof f.before === "string" || f.before === null) &&
      (typeof f.after === "string" || f.after === null) &&
      typeof f.event === "string",
  ) as unknown as BatchFile[];
  if (files.length !== o.files.length) return undefined;
  const intent: BatchIntent = { batch: o.batch, at: o.at, holder: o.holder, files };
  if (typeof o.backup === "string") intent.backup = o.backup;
  return { intent };
}

const NEWLINE = 0x0a;

/**
 * The batch lines of journal bytes, found without parsing the rest (a large
 * journal's prefix is kept unparsed, journal-prefix.ts).
 */
export function scanBatchLines(bytes: Buffer): BatchLine[] {
  const out: BatchLine[] = [];
  const needle = Buffer.from('{"batch');
  for (let at = bytes.indexOf(needle); at >= 0; ) {
    let end = bytes.indexOf(NEWLINE, at);
    if (end < 0) end = bytes.length;
    if (at === 0 || bytes[at - 1] === NEWLINE) {
      const line = parseBatchLine(bytes.toString("utf8", at, end));
      if (line) out.push(line);
    }
    at = bytes.indexOf(needle, end);
  }
  return out;
}

/** The batches whose intent was read and whose done mark was not, in journal order. */
export class OpenBatches {
  readonly #open = new Map<string, BatchIntent>();
  /** Done marks read before their intent (a compaction carried the intent after them). */
  readonly #done = new Set<string>();

  add(lines: readonly BatchLine[]): void {
    for (const line of lines) {
      if ("done" in line) {
        if (!this.#open.delete(line.done)) this.#done.add(line.done);
      } else if (!this.#done.has(line.intent.batch)) {
        this.#open.set(line.intent.batch, line.intent);
      }
    }
  }

  clear(): void {
    this.#open.clear();
    this.#done.clear();
  }

  /** Every open batch, oldest first. */
  list(): BatchIntent[] {
    return [...this.#open.values()];
  }

  /** The open batches whose process is gone: interrupted, not still running. */
  interrupted(): BatchIntent[] {
    return this.list().filter((intent) => {
      const holder = decodeHolder(intent.holder);
      // This process's own batches are running or were ended by it; another host's cannot be told.
      return holder !== undefined && liveness(holder, true) === "gone";
    });
  }
}
