/**
 * The stat table a checkpoint keeps beside the history (table.ts), across
 * real processes (the built CLI) on real trees: a fresh process trusts only
 * entries whose every stat field matches, a file rewritten between processes
 * is read again (undo gives back the bytes it had just before the command), a
 * damaged table or another root's is ignored and rebuilt, and a file changed
 * while the walk ran is racy: neither kept nor trusted.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { copyFileSync, lstatSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { metaOf } from "../../src/checkpoint/meta.js";
import { recordCommand } from "../../src/checkpoint/record.js";
import { diffSnapshots, type Snapshot, takeSnapshot } from "../../src/checkpoint/snapshot.js";
import {
  priorTable,
  readClock,
  readTable,
  TABLE_FILE,
  trustedSha,
} from "../../src/checkpoint/table.js";
import type { Splice } from "../../src/splice.js";
import { sha256 } from "../../src/util/hash.js";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function cli(root: string, args: string[]) {
  // The on-disk table is what a command in its own process starts from (the engine keeps its watch's).
  const env = { ...process.env, SPLICE_ENGINE: "0" };
  const r = spawnSync(BIN, [...args, "--root", root], { cwd: root, encoding: "utf8", env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const open: Splice[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const s of open.splice(0)) await s.close();
});

function splice(p: Project): Splice {
  const s = p.splice();
  open.push(s);
  return s;
}

const statOf = (p: Project, rel: string) => metaOf(lstatSync(join(p.root, rel)), 0);

const tablePath = (p: Project) => join(p.root, ".splice", TABLE_FILE);

describe.skipIf(process.env.SPLICE_TEST_REMOTE)("the checkpoint's stat table", () => {
  it("is trusted by a fresh process only while every stat field matches; a rewrite between processes is read again", () => {
    const p = new Project();
    p.write("a.txt", "one\n");
    p.write("b.txt", "two\n");
    const stamp = 1_700_000_000; // a whole second, so it can be put back exactly
    utimesSync(join(p.root, "a.txt"), stamp, stamp);
    expect(cli(p.root, ["run", "--", "true"]).code).toBe(0);

    // This test process is a fresh one for the table: it reads what the CLI left.
    const s = splice(p);
    const table = priorTable(s.context)!;
    expect(table.size).toBe(2);
    expect(trustedSha(s.context, table, "a.txt", statOf(p, "a.txt"))).toBe(sha256("one\n"));
    expect(s.context.history.hasBlob(sha256("one\n"))).toBe(true);

    // The same size, the mtime put back: only the ctime tells, and it is enough.
    const was = statOf(p, "a.txt");
    writeFileSync(join(p.root, "a.txt"), "ONE\n");
    utimesSync(join(p.root, "a.txt"), stamp, stamp);
    const now = statOf(p, "a.txt");
    expect([now.size, now.mtimeMs, now.ino]).toEqual([was.size, was.mtimeMs, was.ino]);
    expect(trustedSha(s.context, table, "a.txt", now)).toBeUndefined();
    expect(trustedSha(s.context, table, "b.txt", statOf(p, "b.txt"))).toBe(sha256("two\n"));

    // A command then changes it: undo gives back what it held just before, not the table's version.
    const ran = cli(p.root, ["run", "--", "sh", "-c", "printf x > a.txt"]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain("a.txt");
    expect(cli(p.root, ["undo"]).code).toBe(0);
    expect(p.text("a.txt")).toBe("ONE\n");
    expect(p.text("b.txt")).toBe("two\n");
  });

  it("is ignored and rebuilt when damaged, truncated or another root's", () => {
    const p = new Project();
    p.write("src/a.ts", "export const a = 1;\n");
    p.write("src/b.ts", "export const b = 2;\n");
    expect(cli(p.root, ["run", "--", "true"]).code).toBe(0);
    const s = splice(p);
    const good = readFileSync(tablePath(p));
    expect(readTable(s.context)?.size).toBe(2);

    const flipped = Buffer.from(good);
    const at = flipped.length - 3; // a path's byte
    flipped[at] = flipped[at]! ^ 1;
    writeFileSync(tablePath(p), flipped);
    expect(readTable(s.context)).toBeUndefined();
    writeFileSync(tablePath(p), good.subarray(0, good.length >> 1));
    expect(readTable(s.context)).toBeUndefined();
    writeFileSync(tablePath(p), "not a table at all\n");
    expect(readTable(s.context)).toBeUndefined();

    // Another root with the very same files: its table is not this root's.
    const q = new Project();
    q.write("src/a.ts", "export const a = 1;\n");
    q.write("src/b.ts", "export const b = 2;\n");
    expect(cli(q.root, ["run", "--", "true"]).code).toBe(0);
    copyFileSync(tablePath(q), tablePath(p));
    expect(readTable(s.context)).toBeUndefined();

    // The next run reads the files again and leaves a sound table; a command's change still undoes.
    const ran = cli(p.root, ["run", "--", "sh", "-c", "echo changed > src/a.ts"]);
    expect(ran.code).toBe(0);
    expect(readTable(s.context)?.size).toBe(2);
    expect(cli(p.root, ["undo"]).code).toBe(0);
    expect(p.text("src/a.ts")).toBe("export const a = 1;\n");
  });

  it("flags a file changed while the walk ran as racy: neither kept nor trusted, and read again", async () => {
    const p = new Project();
    for (let i = 0; i < 2_000; i++) p.write(`d${i % 20}/f${i}.txt`, `file ${i}\n`);
    p.write("hot.txt", "0000\n");
    // A real process rewriting one file the whole time (same size each time).
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("fs"); for (let i = 0; ; i++) fs.writeFileSync(${JSON.stringify(join(p.root, "hot.txt"))}, String(i % 10000).padStart(4, "0") + "\\n");`,
      ],
      { stdio: "ignore" },
    );
    children.push(child);
    while (p.text("hot.txt") === "0000\n") await new Promise((r) => setTimeout(r, 5));
    const s = splice(p);
    let racy = false;
    for (let attempt = 0; attempt < 5 && !racy; attempt++) {
      const snapshot = await takeSnapshot(s.context, true);
      racy = snapshot.files.get("hot.txt")?.racy === true;
      // Files left alone are not racy, and they are the ones the table keeps and trusts.
      expect(snapshot.files.get("d3/f3.txt")?.racy).toBeUndefined();
    }
    expect(racy).toBe(true);
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));

    const table = readTable(s.context)!;
    expect(table.size).toBe(2_000); // every file but the racy one
    expect(table.shaOf("hot.txt", statOf(p, "hot.txt"))).toBeUndefined();
    const cold = statOf(p, "d3/f3.txt");
    expect(table.shaOf("d3/f3.txt", cold)).toBe(sha256("file 3\n"));
    // Read again by the next capture, now that it holds still.
    const next = await takeSnapshot(s.context, true);
    expect(next.files.get("hot.txt")?.sha).toBe(sha256(p.bytes("hot.txt")));
  });

  it("counts a racy file as changed in a command's diff, and records nothing when its bytes are the same", async () => {
    const p = new Project();
    p.write("old.txt", "before the clock\n");
    const s = splice(p);
    const clock = readClock(s.context)!;
    p.write("new.txt", "after the clock\n");
    const old = metaOf(lstatSync(join(p.root, "old.txt")), clock);
    const fresh = metaOf(lstatSync(join(p.root, "new.txt")), clock);
    expect(old.racy).toBeUndefined();
    expect(fresh.racy).toBe(true);

    // A same-tick rewrite keeps every stat field: the diff cannot trust them for a racy file.
    const bytes = p.bytes("new.txt");
    fresh.sha = s.context.history.keepBlob(bytes, sha256(bytes));
    const snap = (files: Snapshot["files"]): Snapshot => ({
      at: new Date().toISOString(),
      files,
      unwatched: [],
      uncaptured: new Set(),
    });
    const before = snap(new Map([["new.txt", fresh]]));
    const after = snap(new Map([["new.txt", { ...fresh, racy: undefined }]]));
    expect(diffSnapshots(before, after)).toEqual([]);
    expect(diffSnapshots(before, after, true)).toEqual([["new.txt", "changed"]]);
    // Its bytes are the same: nothing to undo, nothing told.
    expect(await recordCommand(s.context, before, after, () => "b-1", "run: test")).toBeUndefined();
    p.write("new.txt", "AFTER the clock\n"); // the rewrite a stat could not see
    const report = await recordCommand(s.context, before, after, () => "b-2", "run: test");
    expect(report?.changed_files).toEqual([
      { path: "new.txt", kind: "changed", added: 1, removed: 1 },
    ]);
  });
});
