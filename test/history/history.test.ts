import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { History } from "../../src/history/history.js";
import { sha256 as sha256Hex } from "../../src/util/hash.js";
import { bytes, journalLines, openHistory, tempDir } from "./helpers.js";

const sha = (text: string) => sha256Hex(bytes(text));

describe("opening", () => {
  it("creates the directory with a .gitignore that ignores everything", () => {
    const dir = join(tempDir(), "deep", ".splice");
    const history = History.open({ dir, session: "cli" });
    expect(history.dir).toBe(dir);
    expect(history.session).toBe("cli");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("*\n");
    expect(history.versions("a.txt")).toEqual([]);
  });

  it("leaves an existing .gitignore alone", () => {
    const dir = tempDir();
    writeFileSync(join(dir, ".gitignore"), "custom\n");
    History.open({ dir, session: "cli" });
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toBe("custom\n");
  });

  it("rejects an empty session and bad bounds", () => {
    const dir = tempDir();
    expect(() => History.open({ dir, session: "" })).toThrow(TypeError);
    expect(() => History.open({ dir, session: "s", maxEntries: 0 })).toThrow(RangeError);
    expect(() => History.open({ dir, session: "s", maxBytes: -1 })).toThrow(RangeError);
  });
});

describe("reads and writes", () => {
  it("records a read: blob, journal line, lastRead with its range", () => {
    const history = openHistory();
    const ref = history.recordRead("src/a.ts", bytes("one\ntwo\n"), "1A2B", [1, 2]);
    expect(ref).toEqual({ sha: sha("one\ntwo\n"), tag: "1A2B", size: 8 });
    expect(Buffer.from(history.getBlob(ref.sha)!).toString()).toBe("one\ntwo\n");
    expect(history.lastRead("src/a.ts")).toMatchObject({
      sha: ref.sha,
      tag: "1A2B",
      range: [1, 2],
    });
    history.recordRead("src/a.ts", bytes("one\ntwo\n"), "1A2B");
    expect(history.lastRead("src/a.ts")?.range).toBeUndefined();
    expect(history.lastRead("src/b.ts")).toBeUndefined();
    const [line] = journalLines(history.dir).map((l) => JSON.parse(l));
    expect(line).toMatchObject({ kind: "read", path: "src/a.ts", session: "s1", range: [1, 2] });
    expect(Date.parse(line.at)).not.toBeNaN();
  });

  it("journals a repeated read of the same version once, and a read after any other event again", () => {
    const history = openHistory();
    const v1 = sha("v1\n");
    history.recordRead("a.txt", bytes("v1\n"), "1111", undefined, v1);
    history.recordRead("a.txt", bytes("v1\n"), "1111", undefined, v1);
    expect(journalLines(history.dir)).toHaveLength(1);
    history.recordRead("a.txt", bytes("v1\n"), "1111", [1, 1], v1); // another range
    history.forSession("s2").recordRead("a.txt", bytes("v1\n"), "1111", undefined, v1);
    history.recordRead("a.txt", bytes("v1\n"), "1111", undefined, v1); // after s2's read
    expect(journalLines(history.dir)).toHaveLength(4);
    expect(history.hasSeen("a.txt", v1)).toBe(true);
  });

  it("records a write with before and after, both stored", () => {
    const history = openHistory();
    const out = history.recordWrite({
      kind: "write",
      path: "a.txt",
      before: { bytes: bytes("old"), tag: "AAAA" },
      after: { bytes: bytes("new"), tag: "BBBB" },
      backup: "b1",
      note: "edit",
    });
    expect(out).toEqual({
      before: { sha: sha("old"), tag: "AAAA", size: 3 },
      after: { sha: sha("new"), tag: "BBBB", size: 3 },
      id: JSON.parse(journalLines(history.dir)[0]!).id,
    });
    expect(history.getBlob(sha("old"))).toBeDefined();
    expect(history.getBlob(sha("new"))).toBeDefined();
    const event = JSON.parse(journalLines(history.dir)[0]!);
    expect(event).toMatchObject({
      kind: "write",
      sha: sha("new"),
      tag: "BBBB",
      size: 3,
      before: { sha: sha("old"), tag: "AAAA", size: 3 },
      backup: "b1",
      note: "edit",
    });
  });

  it("records a new file (no before) and a delete (no after)", () => {
    const history = openHistory();
    expect(
      history.recordWrite({
        kind: "write",
        path: "n.txt",
        after: { bytes: bytes("x"), tag: "AAAA" },
      }),
    ).toEqual({ after: { sha: sha("x"), tag: "AAAA", size: 1 }, id: expect.any(String) });
    expect(
      history.recordWrite({
        kind: "delete",
        path: "n.txt",
        before: { bytes: bytes("x"), tag: "AAAA" },
      }),
    ).toEqual({ before: { sha: sha("x"), tag: "AAAA", size: 1 }, id: expect.any(String) });
    expect(history.latestKnown("n.txt")).toBeUndefined();
    expect(history.versions("n.txt").map((v) => v.sha)).toEqual([sha("x")]);
  });

  it("refuses a delete with an after and a write without one", () => {
    const history = openHistory();
    const after = { bytes: bytes("x"), tag: "AAAA" };
    expect(() => history.recordWrite({ kind: "delete", path: "a", after })).toThrow(TypeError);
    expect(() => history.recordWrite({ kind: "write", path: "a" })).toThrow(TypeError);
    expect(() => history.recordWrite({ kind: "rollback", path: "a" })).toThrow(TypeError);
    expect(() => history.recordRead("", bytes("x"), "AAAA")).toThrow(TypeError);
  });
});

describe("what a session has seen", () => {
  it("counts only this session's reads and writes", () => {
    const a = openHistory({ session: "A" });
    const b = a.forSession("B");
    expect(b.session).toBe("B");
    expect(b.dir).toBe(a.dir);
    const v1 = a.recordRead("f.txt", bytes("v1"), "1111");
    expect(a.hasSeen("f.txt", v1.sha)).toBe(true);
    expect(b.hasSeen("f.txt", v1.sha)).toBe(false);
    expect(b.seenShasForTag("f.txt", "1111")).toEqual([]);
    expect(b.lastRead("f.txt")).toBeUndefined();
    // The index is shared: B sees A's events in versions, just not as its own reads.
    expect(b.versions("f.txt").map((v) => v.sha)).toEqual([v1.sha]);

    b.recordWrite({
      kind: "write",
      path: "f.txt",
      before: { bytes: bytes("v1"), tag: "1111" },
      after: { bytes: bytes("v2"), tag: "2222" },
    });
    expect(b.hasSeen("f.txt", sha("v2"))).toBe(true);
    // The replaced version is backed up, but B never read it.
    expect(b.hasSeen("f.txt", v1.sha)).toBe(false);
    expect(a.hasSeen("f.txt", sha("v2"))).toBe(false);
    expect(a.hasSeen("g.txt", v1.sha)).toBe(false);
  });

  it("a session's reads count in another History opened on the same dir", () => {
    const first = openHistory({ session: "cli" });
    first.recordRead("f.txt", bytes("v1"), "1111");
    const again = History.open({ dir: first.dir, session: "cli" });
    const other = History.open({ dir: first.dir, session: "mcp-1" });
    expect(again.hasSeen("f.txt", sha("v1"))).toBe(true);
    expect(other.hasSeen("f.txt", sha("v1"))).toBe(false);
  });

  it("seenShasForTag lists colliding versions newest first", () => {
    const history = openHistory();
    history.recordRead("f.txt", bytes("first"), "ABCD");
    history.recordRead("f.txt", bytes("other"), "9999");
    history.recordWrite({
      kind: "write",
      path: "f.txt",
      before: { bytes: bytes("other"), tag: "9999" },
      after: { bytes: bytes("second"), tag: "ABCD" },
    });
    history.recordRead("g.txt", bytes("third"), "ABCD");
    expect(history.seenShasForTag("f.txt", "ABCD")).toEqual([sha("second"), sha("first")]);
    // Reading the older version again makes it the newest.
    history.recordRead("f.txt", bytes("first"), "ABCD");
    expect(history.seenShasForTag("f.txt", "ABCD")).toEqual([sha("first"), sha("second")]);
    expect(history.seenShasForTag("f.txt", "0000")).toEqual([]);
  });
});

describe("versions", () => {
  function scenario() {
    const history = openHistory({ session: "A" });
    history.recordRead("f.txt", bytes("v1"), "1111");
    history.recordWrite({
      kind: "write",
      path: "f.txt",
      before: { bytes: bytes("v1"), tag: "1111" },
      after: { bytes: bytes("v2"), tag: "2222" },
      note: "edit",
    });
    history.forSession("B").recordWrite({
      kind: "write",
      path: "f.txt",
      before: { bytes: bytes("v2x"), tag: "2X2X" },
      after: { bytes: bytes("v3"), tag: "1111" },
      note: "write",
    });
    return history;
  }

  it("lists every distinct version newest first, befores included", () => {
    const history = scenario();
    const versions = history.versions("f.txt");
    expect(versions.map((v) => [v.sha, v.tag, v.kind, v.session, v.note])).toEqual([
      [sha("v3"), "1111", "write", "B", "write"],
      [sha("v2x"), "2X2X", "write", "B", "write"],
      [sha("v2"), "2222", "write", "A", "edit"],
      [sha("v1"), "1111", "write", "A", "edit"],
    ]);
    expect(versions[0]!.size).toBe(2);
    expect(history.versions("other.txt")).toEqual([]);
  });

  it("describes a version by its newest occurrence", () => {
    const history = scenario();
    history.recordRead("f.txt", bytes("v1"), "1111");
    const [newest] = history.versions("f.txt");
    expect(newest).toMatchObject({ sha: sha("v1"), kind: "read", session: "A" });
    expect(newest!.note).toBeUndefined();
    expect(history.versions("f.txt")).toHaveLength(4);
  });

  it("findByTag filters versions by tag, collisions included", () => {
    const history = scenario();
    expect(history.findByTag("f.txt", "1111").map((v) => v.sha)).toEqual([sha("v3"), sha("v1")]);
    expect(history.findByTag("f.txt", "FFFF")).toEqual([]);
  });

  it("latestKnown follows the newest event of the path", () => {
    const history = scenario();
    expect(history.latestKnown("f.txt")).toBe(sha("v3"));
    history.recordRead("f.txt", bytes("external"), "EEEE");
    expect(history.latestKnown("f.txt")).toBe(sha("external"));
    history.recordWrite({
      kind: "delete",
      path: "f.txt",
      before: { bytes: bytes("external"), tag: "EEEE" },
    });
    expect(history.latestKnown("f.txt")).toBeUndefined();
    expect(history.latestKnown("never.txt")).toBeUndefined();
  });

  it("versionBefore prefers the write that produced the version", () => {
    const history = scenario();
    expect(history.versionBefore("f.txt", sha("v3"))).toEqual({
      sha: sha("v2x"),
      tag: "2X2X",
      size: 3,
    });
    expect(history.versionBefore("f.txt", sha("v2"))).toEqual({
      sha: sha("v1"),
      tag: "1111",
      size: 2,
    });
    history.recordWrite({
      kind: "rollback",
      path: "f.txt",
      before: { bytes: bytes("v3"), tag: "1111" },
      after: { bytes: bytes("v2"), tag: "2222" },
      note: "rollback to 2222",
    });
    expect(history.versionBefore("f.txt", sha("v2"))).toEqual({
      sha: sha("v3"),
      tag: "1111",
      size: 2,
    });
  });

  it("versionBefore falls back to the newest other version", () => {
    const history = scenario();
    // Never written by us: v1 was only read (and backed up), so the newest other version.
    history.recordRead("f.txt", bytes("v1"), "1111");
    expect(history.versionBefore("f.txt", sha("v1"))?.sha).toBe(sha("v3"));
    // A version the store never saw (changed on disk): the newest recorded one.
    expect(history.versionBefore("f.txt", sha("unknown"))?.sha).toBe(sha("v1"));
    expect(history.versionBefore("none.txt", sha("v1"))).toBeUndefined();
  });

  it("versionBefore is undefined when the write created the file", () => {
    const history = openHistory();
    history.recordWrite({
      kind: "write",
      path: "n.txt",
      after: { bytes: bytes("x"), tag: "AAAA" },
    });
    expect(history.versionBefore("n.txt", sha("x"))).toBeUndefined();
  });

  it("a fresh instance sees everything another recorded", () => {
    const history = scenario();
    history.recordRead("g.txt", bytes("g"), "GGGG", [3, 4]);
    const fresh = History.open({ dir: history.dir, session: "A" });
    expect(fresh.versions("f.txt")).toEqual(history.versions("f.txt"));
    expect(fresh.lastRead("g.txt")).toEqual(history.lastRead("g.txt"));
    expect(fresh.seenShasForTag("f.txt", "1111")).toEqual(history.seenShasForTag("f.txt", "1111"));
    expect(fresh.stats()).toEqual(history.stats());
    expect(fresh.stats().events).toBe(4);
    expect(existsSync(join(history.dir, "lock"))).toBe(false);
  });
});

describe("who made a change", () => {
  it("records the tool of a view and the client named on its handle, even after the view was made", () => {
    const history = openHistory();
    const edit = history.forTool("edit");
    history.nameClient("demo-agent");
    edit.recordWrite({
      kind: "write",
      path: "a.txt",
      after: { bytes: bytes("a\n"), tag: "AAAA" },
      backup: "b2",
    });
    // A record as splice wrote them before tools were named: no tool, still listed.
    history.recordWrite({
      kind: "write",
      path: "b.txt",
      after: { bytes: bytes("b\n"), tag: "BBBB" },
      backup: "b3",
    });
    const [old, made] = history.backups();
    expect(made).toMatchObject({ id: "b2", client: "demo-agent", tool: "edit" });
    expect(old).toMatchObject({ id: "b3", client: "demo-agent" });
    expect(old).not.toHaveProperty("tool");
    const line = journalLines(history.dir).find((l) => l.includes('"b2"'))!;
    expect(JSON.parse(line)).toMatchObject({ tool: "edit", client: "demo-agent" });
    // Another process reads it back from the journal.
    const again = History.open({ dir: history.dir, session: "other" });
    expect(again.backups().map((b) => [b.id, b.tool])).toEqual([
      ["b3", undefined],
      ["b2", "edit"],
    ]);
  });
});

describe("backupMark", () => {
  it("counts landed backup sessions and names the newest, as backups() lists them", () => {
    const history = openHistory();
    expect(history.backupMark()).toEqual({ count: 0 });
    const write = (path: string, backup: string, pending = false) =>
      history.recordWrite({
        kind: "write",
        path,
        after: { bytes: bytes(`${path}\n`), tag: "AAAA" },
        backup,
        pending,
      });
    write("a.txt", "b1");
    write("b.txt", "b2");
    // Not landed yet: not a session, as undo sees it.
    const { id } = write("c.txt", "b3", true);
    expect(history.backupMark()).toEqual({ count: 2, newest: "b2" });
    history.landed(id);
    expect(history.backupMark()).toEqual({ count: 3, newest: "b3" });
    expect(history.backups().map((b) => b.id)).toEqual(["b3", "b2", "b1"]);
  });
});
