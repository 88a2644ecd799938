/**
 * Spare inodes (workspace/spares.ts): a batch's temp files are empty files
 * made ahead in `.splice/spares`, used only while they are still the inode
 * the pool made, and only on the pool's file system. Real temp dirs, a real
 * tmpfs mount where the machine allows one, real child processes.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BeneathFs } from "../../src/workspace/beneath-fs.js";
import { findLeftovers } from "../../src/workspace/leftovers.js";
import { SparePool } from "../../src/workspace/spares.js";
import { editInChild, sleep } from "../helpers/processes.js";
import { Project } from "../helpers/project.js";

const FILES = Array.from({ length: 10 }, (_, i) => `f${i}.txt`);
const sparesOf = (p: Project) => join(p.root, ".splice", "spares");

function spares(p: Project): string[] {
  return existsSync(sparesOf(p)) ? readdirSync(sparesOf(p)) : [];
}

/** Waits until the pool has made `count` spares (it makes them in the background). */
async function sparesReady(p: Project, count: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  while (spares(p).length < count) {
    if (Date.now() > deadline) throw new Error(`only ${spares(p).length} spares were made`);
    await sleep(10);
  }
  return spares(p);
}

/** One atomic edit of every file: a batch under one lock set, which asks the pool for spares. */
function editAll(p: Project, from: string, to: string) {
  return p.splice().edit({
    atomic: true,
    targets: FILES.map((path) => ({ path, edits: [{ old_text: from, new_text: to }] })),
  });
}

describe("spare inodes", () => {
  it("stage a batch's writes: each written file is an inode the pool made ahead", async () => {
    const p = new Project();
    for (const f of FILES) p.write(f, "one\n");
    await editAll(p, "one", "two"); // the pool learns a batch of 10 is coming
    // A spare for each file, and one for each file's new version in history.
    const ready = await sparesReady(p, 2 * FILES.length);
    const inodes = new Set(ready.map((n) => lstatSync(join(sparesOf(p), n)).ino));
    await editAll(p, "two", "three");
    for (const f of FILES) {
      expect(p.text(f)).toBe("three\n");
      expect(inodes.has(statSync(join(p.root, f)).ino)).toBe(true);
      expect(statSync(join(p.root, f)).mode & 0o777).toBe(0o644); // the file's mode, not the spare's
    }
    expect(readdirSync(p.root).filter((n) => n.includes(".splice-"))).toEqual([]);
  });

  it("stage history's new version of a single edit too: its blob is an inode the pool made", async () => {
    const p = new Project();
    p.write("f.txt", "one\n");
    const s = p.splice();
    await s.edit({ targets: [{ path: "f.txt", edits: [{ old_text: "one", new_text: "two" }] }] });
    const ready = await sparesReady(p, 4);
    await sleep(50); // a spare on disk is ready once its open's callback has run
    const inodes = new Set(ready.map((n) => lstatSync(join(sparesOf(p), n)).ino));
    await s.edit({ targets: [{ path: "f.txt", edits: [{ old_text: "two", new_text: "three" }] }] });
    const sha = createHash("sha256").update("three\n").digest("hex");
    const blob = join(p.root, ".splice", "blobs", sha.slice(0, 2), sha.slice(2));
    expect(readFileSync(blob, "utf8")).toBe("three\n");
    expect(inodes.has(lstatSync(blob).ino)).toBe(true);
    expect(inodes.has(statSync(join(p.root, "f.txt")).ino)).toBe(true);
    expect(lstatSync(blob).ino).not.toBe(statSync(join(p.root, "f.txt")).ino);
  });

  it("writes that found none ready (many sessions' single edits at once) make the next refill that many larger", async () => {
    const p = new Project();
    const pool = SparePool.in(BeneathFs.around(p.root), sparesOf(p))!;
    // A dense stream: every stage before the first refill finds the pool empty.
    for (let i = 0; i < 12; i++) {
      const fd = pool.stageTo(join(p.root, `staged-${i}`));
      if (fd !== undefined) closeSync(fd);
    }
    expect(await sparesReady(p, 4 + 12)).toHaveLength(16);
  });

  it("a spare swapped for a link to another file is not written: that file keeps its bytes", async () => {
    const p = new Project();
    for (const f of FILES) p.write(f, "one\n");
    await editAll(p, "one", "two");
    const ready = await sparesReady(p, FILES.length);
    const victim = join(p.root, "..", `${p.root.split("/").at(-1)}-victim.txt`);
    writeFileSync(victim, "precious\n");
    for (const name of ready) {
      rmSync(join(sparesOf(p), name));
      linkSync(victim, join(sparesOf(p), name));
    }
    await editAll(p, "two", "three");
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    for (const f of FILES) {
      expect(p.text(f)).toBe("three\n");
      expect(statSync(join(p.root, f)).ino).not.toBe(statSync(victim).ino);
    }
    expect(readdirSync(p.root).filter((n) => n.includes(".splice-"))).toEqual([]);
    rmSync(victim);
  });

  const tmpfs = (dir: string) => spawnSync("mount", ["-t", "tmpfs", "none", dir]).status === 0;
  it("a folder on another file system stages as before", async (ctx) => {
    const p = new Project();
    const mounted = join(p.root, "mnt");
    mkdirSync(mounted);
    if (process.getuid?.() !== 0 || !tmpfs(mounted)) {
      ctx.skip(); // needs root and a mount; CI runs as root
      return;
    }
    try {
      for (const f of FILES) p.write(`mnt/${f}`, "one\n");
      const s = p.splice();
      const targets = (from: string, to: string) =>
        FILES.map((f) => ({ path: `mnt/${f}`, edits: [{ old_text: from, new_text: to }] }));
      await s.edit({ atomic: true, targets: targets("one", "two") });
      await sparesReady(p, FILES.length);
      await s.edit({ atomic: true, targets: targets("two", "three") });
      for (const f of FILES) expect(p.text(`mnt/${f}`)).toBe("three\n");
      expect(spares(p).length).toBeGreaterThanOrEqual(FILES.length); // none taken
    } finally {
      spawnSync("umount", [mounted]);
    }
  });

  it("a process removes its spares as it exits; a killed one's are gc's and the next pool's", async () => {
    const p = new Project();
    p.write("f.txt", "a\n");
    const editor = editInChild(p.root, "f.txt", "a", "b");
    expect(editor.status).toBe(0);
    expect(p.text("f.txt")).toBe("b\n");
    const pid = String(editor.pid);
    expect(spares(p).filter((n) => n.includes(`-${pid}-`))).toEqual([]);

    // A killed process's spares, as it would leave them: a history temp name with its pid.
    const gone = spawnSync("true");
    mkdirSync(sparesOf(p), { recursive: true });
    const left = join(sparesOf(p), `.tmp-s-${gone.pid}-12345-0123456789ab`);
    writeFileSync(left, "");
    const old = new Date(Date.now() - 10_000);
    utimesSync(left, old, old);
    expect(findLeftovers(p.root)).toContainEqual({ kind: "history_temp", path: left });
    const next = editInChild(p.root, "f.txt", "b", "c");
    expect(next.status).toBe(0);
    expect(existsSync(left)).toBe(false);
  });
});
