/**
 * The root watch on real files with the real watcher: changes made outside
 * splice are kept in history as they happen and told on the event bus;
 * splice's own writes, ignored and secret files are not; run's checkpoint
 * takes the watch's table and still finds what a command did.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WALK_BELOW } from "../../src/checkpoint/outside.js";
import type { RunResult } from "../../src/index.js";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { Project } from "../helpers/project.js";
import { type Outside, watched } from "../helpers/watched.js";

/** Waits until `told` holds an event naming `path` (or fails after 5 s). */
async function toldOf(told: Outside[], path: string): Promise<Outside> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const hit = told.find((e) => e.changes.some((c) => c.path === path));
    if (hit) return hit;
    if (Date.now() > deadline)
      throw new Error(`no outside_changes named ${path}: ${JSON.stringify(told)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const quiet = () => new Promise((r) => setTimeout(r, 600));

describe.skipIf(process.env.SPLICE_TEST_REMOTE)("the root watch", () => {
  it("keeps an editor's change in history, and undo puts the file back", async () => {
    const p = new Project();
    p.write("src/a.ts", "export const a = 1;\n");
    const { s, told } = await watched(p);
    await s.read({ targets: [{ path: "src/a.ts" }] });
    writeFileSync(join(p.root, "src/a.ts"), "export const a = 2; // by hand\n");
    const event = await toldOf(told, "src/a.ts");
    expect(event).toMatchObject({
      changes: [{ path: "src/a.ts", kind: "changed" }],
      recorded: 1,
      notRecorded: 0,
      lostTrack: false,
    });
    const versions = s.context.history.versions("src/a.ts");
    expect(versions[0]).toMatchObject({ note: "changed outside splice", session: "outside" });
    const undone = (await s.undo({ backup_session: event.backupSession! })) as UndoResult;
    expect(undone.files).toHaveLength(1);
    expect(p.text("src/a.ts")).toBe("export const a = 1;\n");
  });

  it("records created and deleted files, and a changed file it never saw as a known version", async () => {
    const p = new Project();
    p.write("old.txt", "old\n");
    p.write("never-read.txt", "one\n");
    const { s, told } = await watched(p);
    await s.read({ targets: [{ path: "old.txt" }] });
    writeFileSync(join(p.root, "new.txt"), "new\n");
    rmSync(join(p.root, "old.txt"));
    writeFileSync(join(p.root, "never-read.txt"), "two\n");
    await toldOf(told, "new.txt");
    await toldOf(told, "old.txt");
    await toldOf(told, "never-read.txt");
    const kinds = Object.fromEntries(told.flatMap((e) => e.changes.map((c) => [c.path, c.kind])));
    expect(kinds).toEqual({
      "new.txt": "created",
      "old.txt": "deleted",
      "never-read.txt": "changed",
    });
    // Known now, so a later merge or undo finds it; not undoable: nothing kept what it replaced.
    expect(s.context.history.latestKnown("never-read.txt")).toBeDefined();
    const session = told.find((e) => e.changes.some((c) => c.path === "old.txt"))!.backupSession!;
    await s.undo({ backup_session: session });
    expect(p.text("old.txt")).toBe("old\n");
  });

  it("tells nothing of splice's own writes, ignored folders or secrets", async () => {
    const p = new Project();
    p.write(".gitignore", "build/\n*.log\n");
    p.write("a.txt", "a\n");
    const { s, told } = await watched(p);
    await s.write({ targets: [{ path: "a.txt", text: "by splice\n" }] });
    await s.write({ targets: [{ path: "b.txt", text: "new by splice\n" }] });
    p.write("build/out.js", "x\n");
    p.write("debug.log", "x\n");
    p.write("node_modules/pkg/index.js", "x\n");
    p.write(".env", "SECRET=1\n");
    await quiet();
    p.write("seen.txt", "outside\n"); // a change it does tell, so the quiet ones had their chance
    await toldOf(told, "seen.txt");
    expect(told.flatMap((e) => e.changes.map((c) => c.path))).toEqual(["seen.txt"]);
  });

  it("tells nothing while a write is under way, its journal line written and the file not yet replaced", async () => {
    const p = new Project();
    p.write("a.txt", "one\n");
    const { s, told } = await watched(p);
    await s.read({ targets: [{ path: "a.txt" }] });
    const [one, two] = [Buffer.from("one\n"), Buffer.from("two\n")];
    const { history } = s.context;
    const { id } = history.recordWrite({
      kind: "write",
      path: "a.txt",
      before: { bytes: one, tag: "0001" },
      after: { bytes: two, tag: "0002" },
      pending: true,
    });
    // Between the line and the rename another session reads, and the watch sees the file
    // (its metadata changes; its bytes are still the version the write replaces).
    await s.read({ targets: [{ path: "a.txt" }] });
    writeFileSync(join(p.root, "a.txt"), one);
    await quiet();
    writeFileSync(join(p.root, "a.txt"), two);
    history.landed(id!);
    await quiet();
    p.write("seen.txt", "outside\n");
    await toldOf(told, "seen.txt");
    expect(told.flatMap((e) => e.changes.map((c) => c.path))).toEqual(["seen.txt"]);
  });

  it.each([
    ["walks a small tree", 0],
    ["takes the watch's table on a large tree", WALK_BELOW],
  ])("run's checkpoint %s, and a command's changes are not told as outside", async (_, pad) => {
    const p = new Project();
    for (let i = 0; i < 30; i++) p.write(`src/f${i}.txt`, `line ${i}\n`);
    for (let i = 0; i < pad; i++) p.write(`pad/p${i % 20}/f${i}.txt`, "");
    const { s, told } = await watched(p);
    writeFileSync(join(p.root, "src/f0.txt"), "edited by hand\n"); // before the command: outside
    const ran = (await s.run({
      command: "echo more >> src/f1.txt && rm src/f2.txt && mkdir -p gen && echo g > gen/g.txt",
    })) as RunResult;
    expect(ran.changed_counts).toEqual({ created: 1, changed: 1, deleted: 1 });
    expect(ran.changed_files!.map((f) => f.path)).toEqual([
      "gen/g.txt",
      "src/f1.txt",
      "src/f2.txt",
    ]);
    await toldOf(told, "src/f0.txt");
    await quiet();
    const outside = told.flatMap((e) => e.changes.map((c) => c.path));
    expect(outside).toEqual(["src/f0.txt"]);
    await s.undo({ backup_session: ran.backup_session! });
    expect(p.text("src/f1.txt")).toBe("line 1\n");
    expect(p.text("src/f2.txt")).toBe("line 2\n");
  });
});
