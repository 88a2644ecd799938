/**
 * Undo as a revert (issue #35): each case the issue observed, on real temp
 * folders. Undoing a session takes back only its own lines in the file as it
 * is now; a later change that overlaps them is a `conflict` that writes
 * nothing, and `force` restores wholesale.
 */
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_VOICE } from "../../src/cli/advice.js";
import type { ToolError } from "../../src/errors.js";
import type { SessionList, UndoResult } from "../../src/tools/undo/index.js";
import { Project, rejection } from "../helpers/project.js";

type Splice = ReturnType<Project["splice"]>;

async function replace(s: Splice, path: string, old_text: string, new_text: string) {
  const { results } = await s.edit({ targets: [{ path, edits: [{ old_text, new_text }] }] });
  return results[0]!.backup_session!;
}

const undo = (s: Splice, args: Record<string, unknown> = {}) => s.undo(args) as Promise<UndoResult>;

describe("undo reverts only its own change", () => {
  it("v = 0 -> 1 -> 2 -> 3: undoing the oldest is refused; plain undo walks back 3, 2, 1", async () => {
    const p = new Project();
    p.write("v.txt", "v = 0\n");
    const s = p.splice();
    const ids = [];
    for (const [a, b] of [
      ["0", "1"],
      ["1", "2"],
      ["2", "3"],
    ]) {
      ids.push(await replace(s, "v.txt", `v = ${a}`, `v = ${b}`));
    }
    const refused = await rejection(undo(s, { backup_session: ids[0] }));
    expect(refused.code).toBe("conflict");
    expect(refused.message).toContain(
      `v.txt: line 1 changed since — by session ${ids[2]} (edit) and by session ${ids[1]} (edit).`,
    );
    expect(refused.details.undo_first).toEqual([ids[2], ids[1]]);
    expect(p.text("v.txt")).toBe("v = 3\n");
    const listed = (await s.undo({ list: true })) as SessionList;
    expect(listed.sessions.map((x) => x.reverts)).toEqual(["clean", "conflict", "conflict"]);
    for (const want of ["v = 2\n", "v = 1\n", "v = 0\n"]) {
      await undo(s);
      expect(p.text("v.txt")).toBe(want);
    }
    expect((await rejection(undo(s))).code).toBe("not_found");
    const after = (await s.undo({ list: true })) as SessionList;
    expect(after.sessions.filter((x) => !x.is_undo).map((x) => x.reverts)).toEqual([
      "undone",
      "undone",
      "undone",
    ]);
  });

  it("names only the later changes that overlap the session's lines, not every one that touched the file", async () => {
    const p = new Project();
    p.write("f.txt", "v = 0\nb = 1\nc = 2\nd = 3\ne = 4\n");
    const s = p.splice();
    const a = await replace(s, "f.txt", "v = 0", "v = 1");
    const b = await replace(s, "f.txt", "v = 1", "v = 2");
    const c = await replace(s, "f.txt", "e = 4", "e = 5");
    writeFileSync(join(p.root, "f.txt"), "v = 2\nb = 1\nc = 20\nd = 3\ne = 5\n");
    const refused = await rejection(undo(s, { backup_session: a }));
    expect(refused.code).toBe("conflict");
    expect(refused.message).toContain(`f.txt: line 1 changed since — by session ${b} (edit).`);
    expect(refused.message).not.toContain(c);
    expect(refused.message).not.toContain("outside splice");
    expect(refused.details.undo_first).toEqual([b]);
    // An outside change on the session's line is named as one.
    writeFileSync(join(p.root, "f.txt"), "v = 9\nb = 1\nc = 20\nd = 3\ne = 5\n");
    const outside = await rejection(undo(s, { backup_session: a }));
    expect(outside.message).toMatch(
      new RegExp(
        `line 1 changed since — by session ${b} \\(edit\\) and outside splice at \\d\\d:\\d\\d\\.`,
      ),
    );
    // Undoing the one that overlapped first lets the older undo through, keeping the rest.
    writeFileSync(join(p.root, "f.txt"), "v = 2\nb = 1\nc = 20\nd = 3\ne = 5\n");
    await undo(s, { backup_session: b });
    await undo(s, { backup_session: a });
    expect(p.text("f.txt")).toBe("v = 0\nb = 1\nc = 20\nd = 3\ne = 5\n");
  });

  it("names at most three later sessions in its sentence and counts the rest; details keep them all", async () => {
    const p = new Project();
    p.write("v.txt", "v = 0\n");
    const s = p.splice();
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await replace(s, "v.txt", `v = ${i}`, `v = ${i + 1}`));
    const refused = await rejection(undo(s, { backup_session: ids[0] }));
    expect(refused.code).toBe("conflict");
    expect(refused.message).toContain(
      `line 1 changed since — by session ${ids[5]} (edit) and by session ${ids[4]} (edit) and by session ${ids[3]} (edit) and by 2 more later sessions.`,
    );
    expect(refused.message).toContain(
      `Undo the 5 later sessions first, newest first (call undo with {"backup_session": "${ids[5]}"}, then call undo with {"backup_session": "${ids[4]}"}, then call undo with {"backup_session": "${ids[3]}"}, and so on; call undo with {"list": true, "all_sessions": true} lists them)`,
    );
    expect(refused.message).not.toContain(ids[1]!);
    expect(refused.details.undo_first).toEqual([ids[5], ids[4], ids[3], ids[2], ids[1]]);
    expect(p.text("v.txt")).toBe("v = 6\n");
  });

  it("three sessions on three lines: undoing the oldest reverts only its line", async () => {
    const p = new Project();
    p.write("f.txt", "a\nb\nc\n");
    const s = p.splice();
    const first = await replace(s, "f.txt", "a", "A");
    await replace(s, "f.txt", "b", "B");
    await replace(s, "f.txt", "c", "C");
    const done = await undo(s, { backup_session: first });
    expect(p.text("f.txt")).toBe("a\nB\nC\n");
    expect(done.files[0]!.warnings[0]).toContain("later changes were kept");
    // Redo with nothing in between: the same bytes as before the undo.
    await undo(s, { backup_session: done.backup_session! });
    expect(p.text("f.txt")).toBe("A\nB\nC\n");
  });

  it("a formatter's later change to another line is kept", async () => {
    const p = new Project();
    p.write("f.ts", "let a = 1\nx\ny\nz\nconst  b=2\n");
    const s = p.splice();
    await replace(s, "f.ts", "let a = 1", "let a = 10");
    writeFileSync(join(p.root, "f.ts"), "let a = 10\nx\ny\nz\nconst b = 2;\n");
    await undo(s);
    expect(p.text("f.ts")).toBe("let a = 1\nx\ny\nz\nconst b = 2;\n");
  });

  it("keeps CRLF, a BOM and a missing final newline through a merge", async () => {
    const p = new Project();
    p.write("w.txt", "\uFEFFone\r\ntwo\r\nthree\r\nfour");
    const s = p.splice();
    await replace(s, "w.txt", "one", "ONE");
    writeFileSync(join(p.root, "w.txt"), "\uFEFFONE\r\ntwo\r\nthree\r\nFOUR");
    await undo(s);
    expect(p.text("w.txt")).toBe("\uFEFFone\r\ntwo\r\nthree\r\nFOUR");
  });

  it("adjacent lines merge; two insertions at one point conflict", async () => {
    const p = new Project();
    p.write("adj.txt", "1\n2\n3\n4\n");
    p.write("ins.txt", "1\n2\n");
    const s = p.splice();
    await replace(s, "adj.txt", "2", "two");
    writeFileSync(join(p.root, "adj.txt"), "1\ntwo\nthree\n4\n");
    await undo(s);
    expect(p.text("adj.txt")).toBe("1\n2\nthree\n4\n");

    // A line inserted next to the session's own inserted line is adjacent too: kept.
    await replace(s, "ins.txt", "1\n", "1\nmine\n");
    writeFileSync(join(p.root, "ins.txt"), "1\ntheirs\nmine\n2\n");
    await undo(s);
    expect(p.text("ins.txt")).toBe("1\ntheirs\n2\n");

    // The session deleted a line; a later line was inserted at that very point: which
    // goes first is a guess, so it is refused.
    p.write("del.txt", "1\nx\n2\n");
    await replace(s, "del.txt", "x\n", "");
    writeFileSync(join(p.root, "del.txt"), "1\nnew\n2\n");
    const refused = await rejection(undo(s));
    expect(refused.code).toBe("conflict");
    expect(refused.message).toContain("del.txt: line 2 changed since");
    expect(p.text("del.txt")).toBe("1\nnew\n2\n");
  });

  it("a created file changed since, a deleted path back again, a moved file changed: refused whole", async () => {
    const p = new Project();
    p.write("keep.txt", "keep\n");
    p.write("old.txt", "old\n");
    p.write("gone.txt", "gone\n");
    const s = p.splice();
    const { results } = await s.write({
      targets: [
        { path: "keep.txt", text: "KEEP\n" },
        { path: "new.txt", text: "new\n" },
      ],
    });
    writeFileSync(join(p.root, "new.txt"), "new, edited\n");
    const created = await rejection(undo(s));
    expect(created.code).toBe("conflict");
    expect(created.message).toContain("new.txt: the session created it, and it changed since");
    // All files of a session revert together or none does.
    expect(p.text("keep.txt")).toBe("KEEP\n");
    await undo(s, { backup_session: results[0]!.backup_session!, force: true });
    expect([p.text("keep.txt"), existsSync(join(p.root, "new.txt"))]).toEqual(["keep\n", false]);

    await s.call("file", { action: "delete", path: "gone.txt" });
    p.write("gone.txt", "someone else's\n");
    const back = await rejection(undo(s));
    expect(back.message).toContain("gone.txt: the session deleted it, and it exists again");
    expect(p.text("gone.txt")).toBe("someone else's\n");

    await s.call("file", { action: "rename", path: "old.txt", to: "moved.txt" });
    writeFileSync(join(p.root, "moved.txt"), "old, edited after the move\n");
    const moved = await rejection(undo(s));
    expect(moved.message).toContain("moved.txt: the session created it, and it changed since");
    expect(existsSync(join(p.root, "old.txt"))).toBe(false);
  });

  it("a git branch switch: the undo is refused instead of writing branch A's text over B's", async () => {
    const p = new Project();
    const git = (...args: string[]) =>
      execFileSync("git", [
        "-C",
        p.root,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@e.invalid",
        ...args,
      ]);
    p.write("app.txt", "name = a\nshared\n");
    git("init", "-q", "-b", "A");
    git("add", "app.txt");
    git("commit", "-qm", "A");
    git("checkout", "-qb", "B");
    p.write("app.txt", "name = b\nshared\nonly on b\n");
    git("commit", "-qam", "B");
    git("checkout", "-q", "A");
    const s = p.splice();
    await replace(s, "app.txt", "name = a", "name = A!");
    git("stash", "-q");
    git("checkout", "-q", "B");
    const refused = await rejection(undo(s));
    expect(refused.code).toBe("conflict");
    expect(refused.message).toMatch(
      /app\.txt: line 1 changed since — outside splice at \d\d:\d\d\./,
    );
    expect(p.text("app.txt")).toBe("name = b\nshared\nonly on b\n");
  });

  it("two agents on one root: one's undo keeps the other's line", async () => {
    const p = new Project();
    p.write("f.txt", "mine\nmiddle\ntheirs\n");
    const me = p.splice({ history: { session: "mcp-1" } });
    const them = p.splice({ history: { session: "mcp-2" } });
    await replace(me, "f.txt", "mine", "MINE");
    await replace(them, "f.txt", "theirs", "THEIRS");
    const done = await undo(me);
    expect(p.text("f.txt")).toBe("mine\nmiddle\nTHEIRS\n");
    await undo(me, { backup_session: done.backup_session! });
    expect(p.text("f.txt")).toBe("MINE\nmiddle\nTHEIRS\n");
  });

  it("a command's checkpoint reverts the same way: an edit made after it is kept", async () => {
    const p = new Project();
    p.write("a.txt", "one\ntwo\n");
    const s = p.splice();
    const ran = (await s.run({ command: "echo three >> a.txt" })) as { backup_session?: string };
    await replace(s, "a.txt", "one", "ONE");
    await undo(s, { backup_session: ran.backup_session! });
    expect(p.text("a.txt")).toBe("ONE\ntwo\n");
  });

  it("plain undo never skips a conflicting newest session for an older one", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    p.write("b.txt", "b\n");
    const s = p.splice();
    await replace(s, "a.txt", "a", "A");
    await replace(s, "b.txt", "b", "B");
    writeFileSync(join(p.root, "b.txt"), "b by hand\n");
    const refused = await rejection(undo(s));
    expect(refused.code).toBe("conflict");
    expect([p.text("a.txt"), p.text("b.txt")]).toEqual(["A\n", "b by hand\n"]);
  });

  it("says the way forward in both voices: the model's force, the person's --force", async () => {
    const p = new Project();
    p.write("f.txt", "x\n");
    const s = p.splice();
    const id = await replace(s, "f.txt", "x", "y");
    writeFileSync(join(p.root, "f.txt"), "z\n");
    const refused = (await rejection(undo(s))) as unknown as ToolError;
    expect(refused.message).toContain(`Call undo with {"backup_session": "${id}", "force": true}`);
    expect(refused.next!.say(CLI_VOICE)).toContain(`Run splice undo ${id} --force`);
    expect(p.text("f.txt")).toBe("z\n");
  });
});
