import { createHash } from "node:crypto";
import { existsSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { numbered, Project, rejection } from "../helpers/project.js";

describe("undo (backup sessions)", () => {
  it("undoes a whole batch: edited files restored, created files deleted", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    const s = p.splice();
    const { results } = await s.write({
      targets: [
        { path: "a.txt", text: "A\n" },
        { path: "new/b.txt", text: "b\n" },
      ],
    });
    expect(results[0]!.backup_session).toBe(results[1]!.backup_session);
    const undone = (await s.undo({})) as UndoResult;
    expect(undone.undone).toBe(results[0]!.backup_session);
    expect(undone.files.map((f) => [f.path, f.action])).toEqual([
      ["a.txt", "restore"],
      ["new/b.txt", "delete"],
    ]);
    expect(p.text("a.txt")).toBe("a\n");
    expect(existsSync(join(p.root, "new/b.txt"))).toBe(false);
  });

  it("goes further back when called again, and the undo itself can be undone", async () => {
    const p = new Project();
    p.write("f.txt", "v1\n");
    const s = p.splice();
    await s.write({ targets: [{ path: "f.txt", text: "v2\n" }] });
    await s.write({ targets: [{ path: "f.txt", text: "v3\n" }] });
    const first = (await s.undo({})) as UndoResult;
    expect(p.text("f.txt")).toBe("v2\n");
    const second = (await s.undo({})) as UndoResult;
    expect(p.text("f.txt")).toBe("v1\n");
    // Redoing the newer write first would overwrite the line the second undo put back.
    const early = await rejection(s.undo({ backup_session: first.backup_session! }));
    expect(early.code).toBe("conflict");
    expect(early.details.undo_first).toEqual([second.backup_session]);
    expect(p.text("f.txt")).toBe("v1\n");
    await s.undo({ backup_session: second.backup_session! });
    await s.undo({ backup_session: first.backup_session! });
    expect(p.text("f.txt")).toBe("v3\n");
  });

  it("skips a batch that was put back when it failed: undo {} undoes the change before it", async () => {
    const p = new Project();
    p.write("a.txt", "a1\n");
    p.write("b.txt", "b1\n");
    const s = p.splice();
    await s.write({ targets: [{ path: "a.txt", text: "a2\n" }] });
    // The second target is refused when written (a NUL), after the first was: both are put back.
    const failed = await rejection(
      s.edit({
        atomic: true,
        targets: [
          { path: "a.txt", edits: [{ old_text: "a2", new_text: "a3" }] },
          { path: "b.txt", edits: [{ old_text: "b1", new_text: "b\u0000" }] },
        ],
      }),
    );
    expect(failed.message).toMatch(/Atomic batch: no file was changed/);
    expect(p.text("a.txt")).toBe("a2\n");
    await s.undo({});
    expect(p.text("a.txt")).toBe("a1\n");
  });

  it("refuses a path whose later change overlaps; force restores it wholesale and warns", async () => {
    const p = new Project();
    p.write("a.txt", numbered(2));
    p.write("b.txt", numbered(2));
    const s = p.splice();
    const { results } = await s.write({
      targets: [
        { path: "a.txt", text: "A\n" },
        { path: "b.txt", text: "B\n" },
      ],
    });
    writeFileSync(join(p.root, "a.txt"), "changed by hand\n");
    const args = { backup_session: results[0]!.backup_session!, path: "a.txt" };
    const refused = await rejection(s.undo(args));
    expect(refused.code).toBe("conflict");
    expect(refused.message).toMatch(/a\.txt: line 1 changed since — outside splice at \d\d:\d\d\./);
    expect(refused.message).toContain('"path": "a.txt", "force": true}');
    expect(p.text("a.txt")).toBe("changed by hand\n");
    const undone = (await s.undo({ ...args, force: true })) as UndoResult;
    expect(p.text("a.txt")).toBe(numbered(2));
    expect(p.text("b.txt")).toBe("B\n");
    expect(undone.files[0]!.warnings[0]).toContain("changed after session");
    const back = (await s.undo({ backup_session: undone.backup_session! })) as UndoResult;
    expect(back.files[0]!.action).toBe("restore");
    expect(p.text("a.txt")).toBe("changed by hand\n");
  });

  it("lists sessions with files and diffs, marking what was undone", async () => {
    const p = new Project();
    p.write("f.txt", "one\n");
    const s = p.splice();
    await s.write({ targets: [{ path: "f.txt", text: "two\n" }] });
    await s.undo({});
    const listed = (await s.undo({ list: true })) as {
      sessions: { undone: boolean; is_undo: boolean; files: { action: string; diff: string }[] }[];
    };
    expect(listed.sessions.map((x) => [x.is_undo, x.undone])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(listed.sessions[1]!.files[0]).toMatchObject({ action: "modified" });
    expect(listed.sessions[1]!.files[0]!.diff).toContain("-one\n+two");
  });

  it("keeps agents apart: one session's undo does not touch another's changes", async () => {
    const p = new Project();
    const mine = p.splice({ history: { session: "me" } });
    const theirs = p.splice({ history: { session: "them" } });
    await theirs.write({ targets: [{ path: "t.txt", text: "theirs\n" }] });
    const error = await rejection(mine.undo({}));
    expect(error.code).toBe("not_found");
    expect(error.message).toContain('"all_sessions": true');
    expect(p.text("t.txt")).toBe("theirs\n");
  });

  it("previews an undo without writing", async () => {
    const p = new Project();
    p.write("f.txt", "one\n");
    const s = p.splice();
    await s.write({ targets: [{ path: "f.txt", text: "two\n" }] });
    const preview = (await s.undo({ mode: "preview" })) as UndoResult;
    expect(preview.applied).toBe(false);
    expect(preview.files[0]!.diff).toContain("-two\n+one");
    expect(p.text("f.txt")).toBe("two\n");
  });

  it("restores files whose content became binary or too large, backing that up first", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    p.write("b.txt", "b\n");
    const s = p.splice({ max_file_bytes: 1000 });
    await s.write({
      targets: [
        { path: "a.txt", text: "A\n" },
        { path: "b.txt", text: "B\n" },
      ],
    });
    p.write("a.txt", Buffer.from([0x89, 0x50, 0, 1]));
    p.write("b.txt", "y".repeat(5000));
    // Not text now: no merge can keep that change, so only force restores them.
    expect((await rejection(s.undo({}))).code).toBe("conflict");
    const undone = (await s.undo({ force: true })) as UndoResult;
    expect(undone.files.map((f) => f.action)).toEqual(["restore", "restore"]);
    expect(p.text("a.txt")).toBe("a\n");
    expect(p.text("b.txt")).toBe("b\n");
    await s.undo({ backup_session: undone.backup_session! });
    expect(p.bytes("a.txt")).toEqual(Buffer.from([0x89, 0x50, 0, 1]));
  });

  it("undo {} after a redo undoes the redo; undo/redo chains alternate", async () => {
    const p = new Project();
    const s = p.splice();
    await s.write({ targets: [{ path: "f.txt", text: "v1\n" }] });
    await s.write({ targets: [{ path: "f.txt", text: "v2\n" }] });
    const undo1 = (await s.undo({})) as UndoResult;
    expect(p.text("f.txt")).toBe("v1\n");
    const redo1 = (await s.undo({ backup_session: undo1.backup_session! })) as UndoResult;
    expect(p.text("f.txt")).toBe("v2\n");
    const undo2 = (await s.undo({})) as UndoResult;
    expect(undo2.undone).toBe(redo1.backup_session);
    expect(p.text("f.txt")).toBe("v1\n");
    const redo2 = (await s.undo({ backup_session: undo2.backup_session! })) as UndoResult;
    expect(p.text("f.txt")).toBe("v2\n");
    expect(((await s.undo({})) as UndoResult).undone).toBe(redo2.backup_session);
    expect(p.text("f.txt")).toBe("v1\n");
    // the v2 write is undone through the chain, so the next undo goes to v1's write
    await s.undo({});
    expect(existsSync(join(p.root, "f.txt"))).toBe(false);
    const listed = (await s.undo({ list: true, limit: 20 })) as {
      sessions: { is_undo: boolean; undone: boolean }[];
    };
    expect(listed.sessions.map((x) => [x.is_undo, x.undone])).toEqual([
      [true, false], // undo of v1's write
      [true, false], // undo of redo2
      [false, true], // redo2
      [true, false], // undo of redo1: redo2 undid it, but redo2 is undone
      [false, true], // redo1
      [true, false], // undo1: in effect again, as redo1 is undone
      [false, true], // the v2 write
      [false, true], // the v1 write
    ]);
    const error = await rejection(s.undo({}));
    expect(error.code).toBe("not_found");
  });

  it("lists page by page: next is the before of the following page, until none is older", async () => {
    const p = new Project();
    const s = p.splice();
    for (let i = 0; i < 5; i++) await s.write({ targets: [{ path: `f${i}.txt`, text: `${i}\n` }] });
    const pages: string[][] = [];
    let before: string | undefined;
    do {
      const page = (await s.undo({ list: true, limit: 2, ...(before ? { before } : {}) })) as {
        sessions: { files: { path: string }[]; backup_session: string }[];
        next?: string;
      };
      pages.push(page.sessions.map((x) => x.files[0]!.path));
      if (page.next) expect(page.next).toBe(page.sessions.at(-1)!.backup_session);
      before = page.next;
    } while (before);
    expect(pages).toEqual([["f4.txt", "f3.txt"], ["f2.txt", "f1.txt"], ["f0.txt"]]);
    const gone = await rejection(s.undo({ list: true, before: "20990101-000000-000000" }));
    expect(gone.code).toBe("not_found");
    expect(gone.message).toContain("to list from the newest again");
  });

  it("undoing one file leaves the session's other files to undo, and list shows it", async () => {
    const p = new Project();
    p.write("a.txt", "a0\n");
    p.write("b.txt", "b0\n");
    const s = p.splice();
    await s.write({ targets: [{ path: "c.txt", text: "c\n" }] });
    const { results } = await s.write({
      targets: [
        { path: "a.txt", text: "a1\n" },
        { path: "b.txt", text: "b1\n" },
      ],
    });
    const id = results[0]!.backup_session!;
    await s.undo({ backup_session: id, path: "a.txt" });
    const listed = (await s.undo({ list: true })) as {
      sessions: { backup_session: string; undone: boolean; files: { undone: boolean }[] }[];
    };
    const partial = listed.sessions.find((x) => x.backup_session === id)!;
    expect([partial.undone, partial.files.map((f) => f.undone)]).toEqual([false, [true, false]]);
    const rest = (await s.undo({})) as UndoResult;
    expect([rest.undone, rest.files.map((f) => f.path)]).toEqual([id, ["b.txt"]]);
    expect([p.text("a.txt"), p.text("b.txt"), p.text("c.txt")]).toEqual(["a0\n", "b0\n", "c\n"]);
    const again = await rejection(s.undo({ backup_session: id }));
    expect(again.message).toContain(`Session ${id} is already undone`);
  });

  it("checks every file first: one it cannot restore means nothing is undone", async () => {
    const p = new Project();
    p.write("a.txt", "a0\n");
    p.write("b.txt", "b0\n");
    p.write("c.txt", "c0\n");
    const s = p.splice();
    const { results } = await s.write({
      targets: [
        { path: "a.txt", text: "a1\n" },
        { path: "b.txt", text: "b1\n" },
        { path: "c.txt", text: "c1\n" },
      ],
    });
    const id = results[0]!.backup_session!;
    const sha = createHash("sha256").update("a0\n").digest("hex");
    rmSync(join(p.root, ".splice/blobs", sha.slice(0, 2), sha.slice(2)));
    rmSync(join(p.root, "c.txt"));
    symlinkSync(join(p.root, "..", "elsewhere.txt"), join(p.root, "c.txt"));
    const error = await rejection(s.undo({}));
    expect(error.code).toBe("guard");
    expect(error.message).toMatch(
      /^Nothing was undone: .* The original of a\.txt .* no longer stored/,
    );
    expect(error.message).toContain("c.txt cannot be restored: it is now a symbolic link");
    expect(error.message).toContain(
      `undo it on its own: {"backup_session": "${id}", "path": "b.txt"}`,
    );
    expect(p.text("b.txt")).toBe("b1\n");
    const listed = (await s.undo({ list: true })) as { sessions: { undone: boolean }[] };
    expect(listed.sessions.map((x) => x.undone)).toEqual([false]);
  });

  it("reports exactly what was restored when a write fails midway", async () => {
    const p = new Project();
    p.write("a.txt", "a0\n");
    p.write("b.txt", "b0\n");
    const s = p.splice();
    const { results } = await s.write({
      targets: [
        { path: "a.txt", text: "a1\n" },
        { path: "b.txt", text: "b1\n" },
      ],
    });
    const id = results[0]!.backup_session!;
    // After the first file is restored, another program rewrites the next one, again and again.
    s.events.on((e) => {
      if (e.type === "files_changed")
        writeFileSync(join(p.root, "a.txt"), `by hand ${Math.random()}\n`);
    });
    const error = await rejection(s.undo({}));
    expect(error.code).toBe("stale");
    expect(error.message).toContain(
      `The undo of session ${id} stopped at a.txt: b.txt was already restored (backup session`,
    );
    expect(error.message).toContain(
      `and a.txt was not. Once the cause is fixed, call undo with {"backup_session": "${id}"}`,
    );
    expect(error.details).toMatchObject({ restored: ["b.txt"], not_restored: ["a.txt"] });
    expect(p.text("b.txt")).toBe("b0\n");
  });

  it("in a confined session, gives undo's own advice and lists only files it may read", async () => {
    const p = new Project();
    p.write("top.txt", "top\n");
    p.write("sub/a.txt", "a\n");
    await p.splice().write({ targets: [{ path: "top.txt", text: "changed\n" }] });
    const confined = p.splice({ base: "sub", confine: true });
    const error = await rejection(confined.undo({}));
    expect(error.code).toBe("guard");
    expect(error.message).toBe(
      "Nothing was undone: top.txt cannot be restored: it lies outside the working folder this session is confined to; ask the user to undo it from a session that is not confined there.",
    );
    const listed = (await confined.undo({ list: true })) as {
      sessions: { files: unknown[]; hidden_files?: number }[];
    };
    expect(listed.sessions).toMatchObject([{ files: [], hidden_files: 1 }]);
    expect(p.text("top.txt")).toBe("changed\n");
  });
});
