import { appendFileSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { History } from "../../src/history/history.js";
import { appendLines, parseChunk, parseEvent, serializeEvent } from "../../src/history/journal.js";
import { JournalReader } from "../../src/history/journal-reader.js";
import { sha256 as sha256Hex } from "../../src/util/hash.js";
import { BeneathFs } from "../../src/workspace/beneath-fs.js";
import { ageBlobs, bytes, journalLines, openHistory, tempDir } from "./helpers.js";

const sha = (text: string) => sha256Hex(bytes(text));

describe("catching up across instances", () => {
  it("an instance sees events appended after it loaded", () => {
    const one = openHistory({ session: "A" });
    const two = History.open({ dir: one.dir, session: "A" });
    one.recordRead("f.txt", bytes("v1"), "1111");
    expect(two.versions("f.txt").map((v) => v.sha)).toEqual([sha("v1")]);
    one.recordWrite({
      kind: "write",
      path: "f.txt",
      before: { bytes: bytes("v1"), tag: "1111" },
      after: { bytes: bytes("v2"), tag: "2222" },
    });
    expect(two.latestKnown("f.txt")).toBe(sha("v2"));
    expect(two.hasSeen("f.txt", sha("v2"))).toBe(true);
    two.recordRead("g.txt", bytes("g"), "GGGG");
    expect(one.lastRead("g.txt")?.sha).toBe(sha("g"));
    expect(one.stats().events).toBe(3);
    expect(two.stats().events).toBe(3);
  });

  it("indexes its own append without reading it back, unless another writer came first", () => {
    const dir = tempDir();
    const path = join(dir, "journal.jsonl");
    const fs = new BeneathFs(dir);
    const line = (id: string) =>
      serializeEvent({ id, kind: "read", path: "f.txt", session: "A", at: "2026-01-01T00:00:00Z" });
    const ids = (events: { id?: string }[]) => events.map((e) => e.id);
    const reader = new JournalReader(fs, path);
    writeFileSync(path, "");
    reader.poll();
    // Nothing read yet that tells this journal from a replacement: read it back.
    expect(reader.acknowledge(appendLines(fs, path, [line("first")], false))).toBe(false);
    expect(ids(reader.poll().events)).toEqual(["first"]);
    expect(reader.acknowledge(appendLines(fs, path, [line("mine")], false))).toBe(true);
    expect(reader.poll()).toEqual({ reset: false, events: [] });
    appendFileSync(path, `${line("theirs")}\n`);
    expect(reader.acknowledge(appendLines(fs, path, [line("mine-2")], false))).toBe(false);
    expect(ids(reader.poll().events)).toEqual(["theirs", "mine-2"]);
  });

  it("reloads fully when another instance compacted the journal", () => {
    const one = openHistory({ session: "A", maxEntries: 1000 });
    for (let i = 0; i < 10; i++) one.recordRead("f.txt", bytes(`v${i}`), "AAAA");
    const compactor = History.open({ dir: one.dir, session: "A", maxEntries: 3 });
    expect(one.stats().events).toBe(10);
    ageBlobs(one.dir);
    compactor.collect();
    // The journal shrank and was replaced: `one` must not read from its old offset.
    expect(one.stats().events).toBe(3);
    expect(one.versions("f.txt").map((v) => v.sha)).toEqual([sha("v9"), sha("v8"), sha("v7")]);
    expect(one.hasSeen("f.txt", sha("v0"))).toBe(false);
    one.recordRead("f.txt", bytes("v10"), "AAAA");
    expect(compactor.stats().events).toBe(4);
    expect(one.stats().events).toBe(4);
  });

  it("notices a replaced journal even when it did not shrink", () => {
    const one = openHistory({ session: "A" });
    one.recordRead("f.txt", bytes("v1"), "1111");
    const file = join(one.dir, "journal.jsonl");
    const other = readFileSync(file, "utf8")
      .replace('"f.txt"', '"g.txt"')
      .replace(/"id":"\w+"/, '"id":"x"');
    writeFileSync(`${file}.new`, `${other}${other}`);
    renameSync(`${file}.new`, file);
    expect(one.versions("f.txt")).toEqual([]);
    expect(one.stats().events).toBe(1);
    expect(one.versions("g.txt")).toHaveLength(1);
  });
});

describe("damaged lines", () => {
  it("tolerates a torn last line, and the next append does not merge with it", () => {
    const history = openHistory({ session: "A" });
    history.recordRead("f.txt", bytes("v1"), "1111");
    const file = join(history.dir, "journal.jsonl");
    appendFileSync(file, '{"id":"torn","kind":"write","path":"f.txt","sess');
    const fresh = History.open({ dir: history.dir, session: "A" });
    expect(fresh.versions("f.txt").map((v) => v.sha)).toEqual([sha("v1")]);
    expect(fresh.stats().events).toBe(1);
    history.recordRead("f.txt", bytes("v2"), "2222");
    expect(fresh.latestKnown("f.txt")).toBe(sha("v2"));
    expect(History.open({ dir: history.dir, session: "A" }).stats().events).toBe(2);
    expect(journalLines(history.dir)).toHaveLength(3);
    expect(journalLines(history.dir)[1]).toMatch(/sess$/);
  });

  it("skips lines that are not events", () => {
    const history = openHistory({ session: "A" });
    const file = join(history.dir, "journal.jsonl");
    appendFileSync(
      file,
      [
        "not json",
        "[1,2]",
        '{"kind":"bogus","path":"f","session":"A","at":"x"}',
        '{"kind":"read"}',
        "",
      ].join("\n"),
    );
    history.recordRead("f.txt", bytes("v1"), "1111");
    expect(history.stats().events).toBe(1);
    expect(history.versions("f.txt")).toHaveLength(1);
  });

  it("counts a line that appears twice (same id) once", () => {
    const history = openHistory({ session: "A" });
    history.recordRead("f.txt", bytes("v1"), "1111");
    const file = join(history.dir, "journal.jsonl");
    appendFileSync(file, readFileSync(file));
    expect(History.open({ dir: history.dir, session: "A" }).stats().events).toBe(1);
    expect(history.stats().events).toBe(1);
  });
});

describe("parsing", () => {
  it("keeps known fields and drops the rest", () => {
    const event = parseEvent(
      JSON.stringify({
        id: "1",
        kind: "write",
        path: "a",
        session: "s",
        at: "t",
        sha: "ab",
        tag: "AAAA",
        size: 2,
        before: { sha: "cd", tag: "BBBB", size: 1 },
        note: "n",
        extra: true,
      }),
    );
    expect(event).toEqual({
      id: "1",
      kind: "write",
      path: "a",
      session: "s",
      at: "t",
      sha: "ab",
      tag: "AAAA",
      size: 2,
      before: { sha: "cd", tag: "BBBB", size: 1 },
      note: "n",
    });
    expect(parseEvent('{"kind":"read","path":1,"session":"s","at":"t"}')).toBeUndefined();
  });

  it("only consumes complete lines", () => {
    const line = JSON.stringify({ kind: "read", path: "a", session: "s", at: "t" });
    const chunk = Buffer.from(`${line}\n${line.slice(0, 10)}`);
    const { events, consumed } = parseChunk(chunk);
    expect(events).toHaveLength(1);
    expect(consumed).toBe(line.length + 1);
    expect(parseChunk(Buffer.from("partial")).consumed).toBe(0);
  });

  it("keeps a replaced version's mode, and reads journals written before modes were kept", () => {
    const history = openHistory();
    history.recordWrite({
      kind: "delete",
      path: "run.sh",
      before: { bytes: bytes("#!/bin/sh\n"), tag: "AAAA", mode: 0o750 },
    });
    const line = journalLines(history.dir).at(-1)!;
    expect(parseEvent(line)?.before?.mode).toBe(0o750);
    const old = JSON.stringify({
      kind: "delete",
      path: "a",
      session: "s",
      at: "t",
      before: { sha: "ab", tag: "T", size: 1 },
    });
    expect(parseEvent(old)?.before).toEqual({ sha: "ab", tag: "T", size: 1 });
  });
});
