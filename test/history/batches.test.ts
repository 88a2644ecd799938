/**
 * A batch's intent and done mark in the journal (history/batches.ts): read
 * back by every process, kept by a compaction while the batch is open (with
 * the blobs it names), dropped once it is done, and found in a large
 * journal's unparsed prefix too.
 */
import { appendFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseBatchLine, scanBatchLines } from "../../src/history/batches.js";
import { History } from "../../src/history/history.js";
import { SyncBarrier } from "../../src/util/durable.js";
import { sha256 } from "../../src/util/hash.js";
import { encodeHolder, newHolder } from "../../src/workspace/holder.js";
import { bytes, journalLines, openHistory } from "./helpers.js";

function batchOf(h: History, id: string) {
  const records = ["a", "b"].map((path) => ({
    kind: "write" as const,
    path,
    before: { bytes: bytes(`${path}1\n`), tag: "AAAA" },
    after: { bytes: bytes(`${path}2\n`), tag: "BBBB" },
    backup: "backup-1",
    pending: true,
  }));
  const barrier = new SyncBarrier();
  const ids = h.recordWrites(records, barrier, id).map((r) => r.id);
  barrier.flushSync();
  return ids;
}

const intents = (dir: string) =>
  journalLines(dir).filter((l) => parseBatchLine(l) && "intent" in parseBatchLine(l)!);

describe("batch lines", () => {
  it("journal the intent before the events, read back open by another process until done", () => {
    const h = openHistory();
    const ids = batchOf(h, "batch-1");
    const lines = journalLines(h.dir);
    expect(parseBatchLine(lines[0]!)).toEqual({
      intent: {
        batch: "batch-1",
        at: expect.any(String),
        holder: expect.stringMatching(new RegExp(`^${process.pid}\\.`)),
        backup: "backup-1",
        files: [
          { path: "a", before: sha256(bytes("a1\n")), after: sha256(bytes("a2\n")), event: ids[0] },
          { path: "b", before: sha256(bytes("b1\n")), after: sha256(bytes("b2\n")), event: ids[1] },
        ],
      },
    });
    // Another process sees it open; its holder (this process) runs, so it is not interrupted.
    const other = History.open({ dir: h.dir, session: "s2" });
    expect(other.interruptedBatches()).toEqual([]);
    h.landedAll(ids, "batch-1");
    expect(journalLines(h.dir).at(-1)).toBe('{"batch_done":"batch-1"}');
  });

  it("are carried by a compaction while open, with the blobs they name, and dropped once done", () => {
    const h = openHistory({ maxEntries: 1 });
    for (const n of [1, 2, 3]) h.recordRead("c", bytes(`c${n}\n`), "AAAA"); // older reads to drop
    batchOf(h, "open-1");
    h.collect();
    expect(journalLines(h.dir)[0]).toMatch(/^\{"compacted":/);
    expect(intents(h.dir)).toHaveLength(1);
    expect(h.hasBlob(sha256(bytes("a2\n")))).toBe(true);
    h.landedAll([], "open-1");
    h.collect();
    expect(intents(h.dir)).toEqual([]);
    expect(journalLines(h.dir).some((l) => l.startsWith('{"batch_done"'))).toBe(false);
  });

  it("name a batch interrupted when its process is gone, in a large journal's unparsed prefix too", () => {
    const h = openHistory();
    h.recordRead("a", bytes("a1\n"), "AAAA");
    const gone = { ...newHolder(), pid: 4_194_000, start: "5" };
    const line = JSON.stringify({ batch: "b9", at: "t", holder: encodeHolder(gone), files: [] });
    appendFileSync(join(h.dir, "journal.jsonl"), `${line}\n`);
    h.recordRead("b", bytes("b1\n"), "AAAA");
    // The first large-journal open indexes it whole and leaves totals; the second keeps a prefix.
    for (let i = 0; i < 2; i++) {
      const other = History.open({ dir: h.dir, session: `s${i}`, lazyAbove: 1 });
      expect(other.interruptedBatches().map((b) => b.batch)).toEqual(["b9"]);
    }
    expect(existsSync(join(h.dir, "index-totals.json"))).toBe(true);
  });

  it("are found without parsing the lines around them", () => {
    const text = [
      '{"id":"x","kind":"read","path":"a","session":"s","at":"t"}',
      '{"batch":"b1","at":"t","holder":"1.2.0123456789ab.ff","files":[]}',
      '{"id":"y","kind":"read","path":"{\\"batch\\"","session":"s","at":"t"}',
      '{"batch_done":"b1"}',
      "",
    ].join("\n");
    expect(scanBatchLines(Buffer.from(text))).toEqual([
      { intent: { batch: "b1", at: "t", holder: "1.2.0123456789ab.ff", files: [] } },
      { done: "b1" },
    ]);
  });
});
