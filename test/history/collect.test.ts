import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CHECKPOINTS_KEPT } from "../../src/history/checkpoints.js";
import { selectKept } from "../../src/history/collect.js";
import { History } from "../../src/history/history.js";
import type { StoredEvent } from "../../src/history/journal.js";
import { sha256 as sha256Hex } from "../../src/util/hash.js";
import { ageBlobs, blobFiles, bytes, journalLines, openHistory } from "./helpers.js";

const sha = (text: string) => sha256Hex(bytes(text));

/** Every sha the journal on disk names (after and before). */
function namedShas(dir: string): Set<string> {
  const out = new Set<string>();
  for (const line of journalLines(dir)) {
    const e = JSON.parse(line) as StoredEvent;
    if (e.sha) out.add(e.sha);
    if (e.before) out.add(e.before.sha);
  }
  return out;
}

function read(path: string, n: number, size = 2): StoredEvent {
  return { kind: "read", path, session: "s", at: "t", sha: `${path}${n}`, tag: "AAAA", size };
}

describe("selectKept", () => {
  it("keeps the newest run within the entry bound, plus the newest event of each path", () => {
    const events = [read("a", 1), read("b", 1), read("a", 2), read("a", 3), read("a", 4)];
    expect(selectKept(events, 2, 1e9)).toEqual([false, true, false, true, true]);
    expect(selectKept(events, 10, 1e9)).toEqual([true, true, true, true, true]);
  });

  it("keeps each path's newest backup and its whole backup session past the bounds", () => {
    const write = (path: string, n: number, backup: string): StoredEvent => ({
      ...read(path, n),
      kind: "write",
      before: { sha: `${path}${n - 1}`, tag: "AAAA", size: 2 },
      backup,
    });
    const events = [
      write("a", 1, "old"), // a's older backup: may go
      write("a", 2, "batch"),
      write("b", 2, "batch"), // b's newest backup is in the same session as a's
      read("b", 2),
      read("c", 1),
      read("d", 1),
    ];
    expect(selectKept(events, 2, 1e9)).toEqual([false, true, true, true, true, true]);
    // A session is kept whole even when only one of its files still needs it.
    const later = [...events, write("b", 3, "later")];
    expect(selectKept(later, 1, 1e9)).toEqual([false, true, true, false, true, true, true]);
  });

  it("counts each blob once against the byte bound", () => {
    const same = (n: number): StoredEvent => ({ ...read("a", 0, 100), at: `${n}` });
    const events = [read("a", 9, 100), same(1), same(2), same(3)];
    // Three events naming one 100-byte blob fit in 150 bytes; the older blob does not.
    expect(selectKept(events, 100, 150)).toEqual([false, true, true, true]);
  });

  it("stops at the first event that does not fit (no holes in the kept history)", () => {
    const events = [read("a", 1, 1), read("a", 2, 100), read("a", 3, 1)];
    expect(selectKept(events, 100, 50)).toEqual([false, false, true]);
  });
});

describe("collect", () => {
  it("bounds the journal and deletes blobs no kept event names", () => {
    // Record through a roomy instance; collect through a tight one.
    const writer = openHistory({ maxEntries: 1000 });
    const history = History.open({ dir: writer.dir, session: "s1", maxEntries: 6 });
    const other = writer.forSession("other");
    for (let i = 0; i < 5; i++) {
      writer.recordWrite({
        kind: "write",
        path: "a.txt",
        before: { bytes: bytes(`a${i}`), tag: "AAAA" },
        after: { bytes: bytes(`a${i + 1}`), tag: "AAAA" },
      });
    }
    other.recordRead("b.txt", bytes("b-only"), "BBBB");
    for (let i = 0; i < 5; i++) writer.recordRead("c.txt", bytes(`c${i}`), "CCCC");
    expect(history.stats().events).toBe(11);
    ageBlobs(history.dir);
    const before = history.stats();

    const result = history.collect();

    const after = history.stats();
    // The newest six (c0..c4, b) plus a.txt's newest write, kept beyond the bound.
    expect(after.events).toBe(7);
    expect(result.removedBlobs).toBe(4);
    expect(result.removedBlobs).toBe(before.blobs - after.blobs);
    expect(result.freedBytes).toBe(before.bytes - after.bytes);
    expect(result.removedBlobs).toBeGreaterThan(0);
    // Every blob the kept journal names is still there and intact.
    const named = namedShas(history.dir);
    for (const s of named) expect(history.getBlob(s)).toBeDefined();
    expect(new Set(blobFiles(history.dir).keys())).toEqual(named);
    // The newest version of every path survives, including b.txt's only read.
    expect(history.latestKnown("a.txt")).toBe(sha("a5"));
    expect(history.versionBefore("a.txt", sha("a5"))?.sha).toBe(sha("a4"));
    expect(history.latestKnown("b.txt")).toBe(sha("b-only"));
    expect(other.hasSeen("b.txt", sha("b-only"))).toBe(true);
    expect(history.versions("a.txt").map((v) => v.sha)).toEqual([sha("a5"), sha("a4")]);
    expect(history.getBlob(sha("a3"))).toBeUndefined();
    expect(history.versions("c.txt")).toHaveLength(5);
    expect(existsSync(join(history.dir, "lock"))).toBe(false);
    // A second run has nothing left to do.
    expect(history.collect()).toEqual({ removedBlobs: 0, freedBytes: 0 });
  });

  it("bounds the blob bytes", () => {
    const history = openHistory({ maxBytes: 3000 });
    for (let i = 0; i < 10; i++) history.recordRead("big.bin", bytes(`${i}`.repeat(1000)), "AAAA");
    ageBlobs(history.dir);
    history.collect();
    expect(history.stats().bytes).toBeLessThanOrEqual(3000);
    expect(history.versions("big.bin")).toHaveLength(3);
    expect(history.latestKnown("big.bin")).toBe(sha("9".repeat(1000)));
  });

  it("keeps the newest version of a path even when it alone exceeds the bound", () => {
    const history = openHistory({ maxBytes: 10 });
    history.recordRead("huge.txt", bytes("x".repeat(100)), "AAAA");
    history.recordRead("huge.txt", bytes("y".repeat(100)), "AAAA");
    ageBlobs(history.dir);
    history.collect();
    expect(history.versions("huge.txt").map((v) => v.sha)).toEqual([sha("y".repeat(100))]);
    expect(history.getBlob(sha("y".repeat(100)))).toBeDefined();
    expect(history.getBlob(sha("x".repeat(100)))).toBeUndefined();
  });

  it("spares blobs younger than the compaction start, referenced or not", () => {
    const history = openHistory({ maxEntries: 1 });
    history.recordRead("f.txt", bytes("old"), "AAAA");
    ageBlobs(history.dir);
    const orphanOld = history.putBlob(bytes("orphan old"));
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(blobFiles(history.dir).get(orphanOld)!, past, past);
    const orphanNew = history.putBlob(bytes("written meanwhile"));
    history.recordRead("f.txt", bytes("new"), "AAAA");
    history.collect();
    expect(history.getBlob(orphanOld)).toBeUndefined();
    expect(history.getBlob(orphanNew)).toBeDefined();
    // "old" is no longer named, but the second read's blob is and "old" was aged: gone.
    expect(history.getBlob(sha("old"))).toBeUndefined();
    expect(history.getBlob(sha("new"))).toBeDefined();
  });

  it("keeps the blobs a named checkpoint names, and drops the oldest past the bound of checkpoints", () => {
    const history = openHistory({ maxEntries: 1 });
    const kept = history.keepBlob(bytes("noted by a checkpoint"));
    const loose = history.keepBlob(bytes("noted by nobody"));
    const file = { size: 1, mtime_ms: 1, ctime_ms: 1, ino: "1", mode: 0o644 };
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    const checkpoint = (name: string, i: number, sha?: string) => ({
      name,
      at: at(i),
      session: "s1",
      files: { "a.txt": sha ? { ...file, sha } : file },
      uncaptured: [],
      unwatched: [],
    });
    history.saveCheckpoint(checkpoint("pinned", 100, kept));
    ageBlobs(history.dir);
    history.collect();
    expect(history.getBlob(kept)).toBeDefined();
    expect(history.getBlob(loose)).toBeUndefined();
    // A new handle reads it back from the folder.
    const again = History.open({ dir: history.dir, session: "s2" });
    expect(again.checkpoint("pinned")?.files["a.txt"]?.sha).toBe(kept);
    for (let i = 0; i < CHECKPOINTS_KEPT; i++) history.saveCheckpoint(checkpoint(`c${i}`, 200 + i));
    expect(history.checkpoints()).toHaveLength(CHECKPOINTS_KEPT);
    expect(history.checkpoint("pinned")).toBeUndefined(); // the oldest
    ageBlobs(history.dir);
    history.collect();
    expect(history.getBlob(kept)).toBeUndefined();
  });

  it("runs by itself once the store grows past its bound by a margin", () => {
    const history = openHistory({ maxEntries: 20 });
    for (let i = 0; i < 22; i++) history.recordRead(`f${i % 3}.txt`, bytes(`v${i}`), "AAAA");
    expect(history.stats().events).toBe(22);
    history.recordRead("f0.txt", bytes("next"), "AAAA");
    expect(history.stats().events).toBe(20);
    expect(journalLines(history.dir)[0]).toMatch(/^\{"compacted":/);
    for (let i = 0; i < 50; i++) history.recordRead(`f${i % 3}.txt`, bytes(`w${i}`), "AAAA");
    expect(history.stats().events).toBeLessThanOrEqual(22);
    // Blobs are fresh, so none was deleted: a concurrent writer may still need them.
    expect(history.stats().blobs).toBe(23 + 50);
  });

  it("does nothing while another process holds a fresh lock, and breaks a stale one", () => {
    const history = openHistory({ maxEntries: 2 });
    for (let i = 0; i < 3; i++) history.recordRead("f.txt", bytes(`v${i}`), "AAAA");
    ageBlobs(history.dir);
    const lock = join(history.dir, "lock");
    writeFileSync(lock, JSON.stringify({ pid: 1, token: "someone" }));
    const journal = readFileSync(join(history.dir, "journal.jsonl"), "utf8");
    expect(history.collect()).toEqual({ removedBlobs: 0, freedBytes: 0 });
    expect(readFileSync(join(history.dir, "journal.jsonl"), "utf8")).toBe(journal);
    expect(readFileSync(lock, "utf8")).toContain("someone");

    const stale = new Date(Date.now() - 60_000);
    utimesSync(lock, stale, stale);
    expect(history.collect().removedBlobs).toBe(1);
    expect(history.stats().events).toBe(2);
    expect(existsSync(lock)).toBe(false);
  });

  it("another instance keeps working on the compacted journal", () => {
    const two = openHistory({ maxEntries: 100 });
    for (let i = 0; i < 8; i++) two.recordRead("f.txt", bytes(`v${i}`), "AAAA");
    const one = History.open({ dir: two.dir, session: "s1", maxEntries: 4 });
    expect(two.stats().events).toBe(8);
    one.collect();
    two.recordRead("f.txt", bytes("from two"), "AAAA");
    expect(one.versions("f.txt")[0]!.sha).toBe(sha("from two"));
    expect(one.stats().events).toBe(5);
    expect(two.stats().events).toBe(5);
  });
});
