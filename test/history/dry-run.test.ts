import { createHash } from "node:crypto";
import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DryRunHistory } from "../../src/history/dry-run.js";
import { History } from "../../src/history/history.js";
import type { HistoryStore, WriteRecord } from "../../src/history/types.js";
import { SyncBarrier } from "../../src/util/durable.js";
import { sha256 as sha256Hex } from "../../src/util/hash.js";
import { bytes, tempDir } from "./helpers.js";

/** Every file under `dir`: its content's hash, size and mtime (a touched blob counts too). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        out[`${path}/`] = "dir";
        walk(path);
        continue;
      }
      const full = join(dir, path);
      const st = statSync(full);
      const hash = createHash("sha256").update(readFileSync(full)).digest("hex");
      out[path] = `${hash} ${st.size} ${st.mtimeMs}`;
    }
  };
  walk("");
  return out;
}

const v = (text: string, tag: string) => ({ bytes: bytes(text), tag, sha: sha256Hex(bytes(text)) });
const sha = (text: string) => sha256Hex(bytes(text));

/** A real history on disk with reads, writes, a delete and two sessions. */
function seeded(): { dir: string; real: History } {
  const dir = join(tempDir(), ".splice");
  const real = History.open({ dir, session: "s1" });
  real.recordRead("a.txt", bytes("a1\n"), "AAAA", undefined, sha("a1\n"));
  real.recordWrite({
    kind: "write",
    path: "a.txt",
    before: v("a1\n", "AAAA"),
    after: v("a2\n", "AAA2"),
    backup: "B1",
    note: "edit",
  });
  real.recordRead("b.txt", bytes("b1\n"), "BBB1", [1, 1]);
  real.recordWrite({
    kind: "write",
    path: "c.txt",
    after: v("c1\n", "CCC1"),
    backup: "B1",
    note: "write",
  });
  real.recordWrite({
    kind: "delete",
    path: "b.txt",
    before: v("b1\n", "BBB1"),
    backup: "B2",
    note: "delete",
  });
  const other = real.forSession("s2");
  other.recordRead("a.txt", bytes("a2\n"), "AAA2");
  other.recordWrite({ kind: "write", path: "d.txt", after: v("d1\n", "DDD1"), backup: "B3" });
  return { dir, real };
}

/** What the dry run records: every mutating member, every kind, with and without a barrier. */
function record(h: HistoryStore): void {
  h.recordRead("a.txt", bytes("a2\n"), "AAA2", [1, 1], sha("a2\n"));
  const barrier = new SyncBarrier();
  h.recordWrite(
    {
      kind: "write",
      path: "a.txt",
      before: v("a2\n", "AAA2"),
      after: v("a3\n", "AAA3"),
      backup: "dry",
      note: "edit",
    },
    barrier,
  );
  barrier.flushSync();
  // Joins a backup session the real store already has.
  h.recordWrite({
    kind: "write",
    path: "a.txt",
    before: v("a3\n", "AAA3"),
    after: v("a4\n", "AAA4"),
    backup: "B1",
  });
  h.recordRead("a.txt", bytes("a4\n"), "AAA4", undefined, sha("a4\n"));
  h.recordRead("a.txt", bytes("a4\n"), "AAA4", undefined, sha("a4\n"));
  h.recordWrite({
    kind: "delete",
    path: "c.txt",
    before: v("c1\n", "CCC1"),
    backup: "dry",
    note: "delete",
  });
  h.recordWrite({
    kind: "rollback",
    path: "a.txt",
    before: v("a4\n", "AAA4"),
    after: v("a1\n", "AAAA"),
    backup: "dry",
    note: "rollback to AAAA",
  });
  // The same tag as a1, another version.
  h.recordWrite({
    kind: "write",
    path: "a.txt",
    before: v("a1\n", "AAAA"),
    after: v("a5\n", "AAAA"),
    backup: "dry",
  });
  h.recordWrite({
    kind: "write",
    path: "b.txt",
    after: v("b2\n", "BBB2"),
    backup: "dry",
    note: "recreate",
  });
  h.recordRead("e.txt", bytes("e1\n"), "EEE1");
}

const PATHS = ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "missing.txt"];
const TEXTS = [
  "a1\n",
  "a2\n",
  "a3\n",
  "a4\n",
  "a5\n",
  "b1\n",
  "b2\n",
  "c1\n",
  "d1\n",
  "e1\n",
  "none\n",
];
const TAGS = ["AAAA", "AAA2", "AAA3", "AAA4", "BBB1", "BBB2", "CCC1", "DDD1", "EEE1", "FFFF"];

/**
 * The versions `versionBefore` is asked about: ones some write made, as a
 * file's current version is (for a version no write made, see DryRunHistory).
 */
const BEFORE: Record<string, string[]> = {
  "a.txt": ["a1\n", "a2\n", "a3\n", "a4\n", "a5\n"],
  "b.txt": ["b2\n"],
  "c.txt": ["c1\n"],
  "d.txt": ["d1\n"],
  "missing.txt": ["none\n"],
};

/** Times differ between two recordings of the same calls; everything else must not. */
function timeless(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null), (key, v) => (key === "at" ? undefined : v));
}

/** Every answer a reader gives about the paths, versions and tags above. */
function answers(h: HistoryStore): unknown {
  const out: Record<string, unknown> = { session: h.session, backups: h.backups() };
  for (const text of TEXTS) {
    const blob = h.getBlob(sha(text));
    out[`blob ${text}`] = blob && Buffer.from(blob).toString();
  }
  for (const path of PATHS) {
    out[path] = {
      versions: h.versions(path),
      lastSeen: h.lastSeen(path),
      lastRead: h.lastRead(path),
      latestKnown: h.latestKnown(path),
      seen: TEXTS.map((t) => h.hasSeen(path, sha(t))),
      before: (BEFORE[path] ?? []).map((t) => h.versionBefore(path, sha(t))),
      tags: TAGS.map((tag) => [h.seenShasForTag(path, tag), h.findByTag(path, tag)]),
    };
  }
  return timeless(out);
}

describe("DryRunHistory", () => {
  it("records nothing in the real store: the history folder stays byte for byte as it was", () => {
    const { dir, real } = seeded();
    const before = snapshot(dir);
    const realAnswers = answers(real);
    const dry = new DryRunHistory(real);
    record(dry);
    // A failing record call is refused as the real one is, and still writes nothing.
    expect(() =>
      dry.recordWrite({ kind: "delete", path: "a.txt", after: v("x\n", "XXXX") }),
    ).toThrow("a delete has no after version");
    expect(() => dry.recordWrite({ kind: "write", path: "a.txt" } as WriteRecord)).toThrow(
      "a write needs an after version",
    );
    expect(() => dry.recordRead("", bytes("x\n"), "XXXX")).toThrow(
      "a history path must be non-empty",
    );
    answers(dry);
    expect(snapshot(dir)).toEqual(before);
    expect(answers(real)).toEqual(realAnswers);
    expect(answers(History.open({ dir, session: "s1" }))).toEqual(realAnswers);
  });

  it("answers every read as the real store would had it journalled the dry run's calls", () => {
    const { dir, real } = seeded();
    const twinDir = join(tempDir(), ".splice");
    cpSync(dir, twinDir, { recursive: true });
    const twin = History.open({ dir: twinDir, session: "s1" });
    const dry = new DryRunHistory(real);
    record(dry);
    record(twin);
    expect(answers(dry)).toEqual(answers(twin));
    expect(dry.dir).toBe(real.dir);
  });

  it("sees its own writes: versions, backups, what the session has seen, and the blobs", () => {
    const { real } = seeded();
    const dry = new DryRunHistory(real);
    record(dry);
    expect(dry.versions("a.txt").map((x) => x.tag)).toEqual([
      "AAAA",
      "AAAA",
      "AAA4",
      "AAA3",
      "AAA2",
    ]);
    expect(dry.seenShasForTag("a.txt", "AAAA")).toEqual([sha("a5\n"), sha("a1\n")]);
    expect(dry.lastSeen("a.txt")).toEqual({ sha: sha("a5\n"), tag: "AAAA" });
    expect(dry.lastRead("e.txt")).toMatchObject({ sha: sha("e1\n"), tag: "EEE1" });
    expect(dry.latestKnown("c.txt")).toBeUndefined();
    expect(dry.latestKnown("b.txt")).toBe(sha("b2\n"));
    expect(dry.latestKnown("d.txt")).toBe(sha("d1\n"));
    expect(dry.versionBefore("a.txt", sha("a3\n"))).toMatchObject({ sha: sha("a2\n") });
    expect(dry.versionBefore("a.txt", sha("a2\n"))).toMatchObject({ sha: sha("a1\n") });
    expect(dry.versionBefore("b.txt", sha("b2\n"))).toBeUndefined();
    expect(Buffer.from(dry.getBlob(sha("a3\n"))!).toString()).toBe("a3\n");
    expect(Buffer.from(dry.getBlob(sha("d1\n"))!).toString()).toBe("d1\n");
    const backups = dry.backups();
    expect(backups.map((b) => b.id)).toEqual(["dry", "B3", "B2", "B1"]);
    expect(backups.at(-1)!.changes.map((c) => [c.path, c.after?.tag])).toEqual([
      ["a.txt", "AAA2"],
      ["c.txt", "CCC1"],
      ["a.txt", "AAA4"],
    ]);
    // The real store knows none of it.
    expect(real.versions("a.txt").map((x) => x.tag)).toEqual(["AAA2", "AAAA"]);
    expect(real.getBlob(sha("a3\n"))).toBeUndefined();
    expect(real.backups().map((b) => b.id)).toEqual(["B3", "B2", "B1"]);
  });

  it("keeps its own copy of the bytes it records", () => {
    const { real } = seeded();
    const dry = new DryRunHistory(real);
    const buffer = bytes("f1\n");
    const ref = dry.recordRead("f.txt", buffer, "FFF1");
    buffer.fill(0);
    expect(Buffer.from(dry.getBlob(ref.sha)!).toString()).toBe("f1\n");
  });

  it("can stack on another dry run, which stays as it was", () => {
    const { real } = seeded();
    const outer = new DryRunHistory(real);
    outer.recordWrite({
      kind: "write",
      path: "a.txt",
      before: v("a2\n", "AAA2"),
      after: v("a3\n", "AAA3"),
    });
    const inner = new DryRunHistory(outer);
    inner.recordWrite({
      kind: "write",
      path: "a.txt",
      before: v("a3\n", "AAA3"),
      after: v("a4\n", "AAA4"),
    });
    expect(inner.versions("a.txt").map((x) => x.tag)).toEqual(["AAA4", "AAA3", "AAA2", "AAAA"]);
    expect(outer.versions("a.txt").map((x) => x.tag)).toEqual(["AAA3", "AAA2", "AAAA"]);
  });
});
