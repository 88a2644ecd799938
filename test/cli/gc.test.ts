/**
 * `splice gc` against real leftovers: a writer killed (SIGKILL) between
 * staging and its rename leaves its temp file and its lock; a history temp
 * blob names a writer that has exited. gc lists them with --dry-run, removes
 * them otherwise, and keeps what a living process left.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const MAIN = join(import.meta.dirname, "../../src/cli/start.ts");
const WRITER = join(import.meta.dirname, "../faults/fixtures/writer.ts");

function gc(root: string, ...flags: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", MAIN, "gc", ...flags, "--root", root], {
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A pid whose process has exited, and the start time it had. */
function exited(): { pid: number; start: string } {
  const r = spawnSync(process.execPath, [
    "-e",
    `const s = require("fs").readFileSync("/proc/self/stat", "utf8"); process.stdout.write(process.pid + " " + s.slice(s.lastIndexOf(")") + 2).split(" ")[19]);`,
  ]);
  const [pid, start] = r.stdout.toString().split(" ");
  return { pid: Number(pid), start: start! };
}

async function killMidWrite(p: Project): Promise<string> {
  const marker = `${p.root}.hang`;
  const child = spawn(process.execPath, ["--import", "tsx", WRITER, p.root, "a.txt", "new\n"], {
    env: { ...process.env, SPLICE_TEST_HANG_BEFORE_RENAME: marker },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const gone = new Promise((resolve) => child.on("exit", resolve));
  const deadline = Date.now() + 15_000;
  while (!existsSync(marker)) {
    if (Date.now() > deadline) throw new Error("the writer never reached its rename");
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill("SIGKILL");
  await gone;
  const temp = readFileSync(marker, "utf8");
  rmSync(marker);
  return temp;
}

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe.runIf(process.platform === "linux")("splice gc", () => {
  it("lists, then removes, the leftovers of killed writers and keeps a living one's", async () => {
    const p = new Project();
    roots.push(p.root);
    p.write("a.txt", "old\n");
    const temp = await killMidWrite(p);
    const old = new Date(Date.now() - 10_000);
    utimesSync(temp, old, old); // a dead writer's temp is removed once a few seconds old
    const locks = join(p.root, ".splice", "locks");
    expect(readdirSync(locks)).toHaveLength(2); // its lock, and its holder file the lock links to
    // Spare inodes it made ahead for temp files (workspace/spares.ts), if any, are history temps.
    const spareDir = join(p.root, ".splice", "spares");
    const spares = existsSync(spareDir) ? readdirSync(spareDir).map((n) => join(spareDir, n)) : [];
    for (const spare of spares) utimesSync(spare, old, old);
    const fanout = join(p.root, ".splice", "blobs", "ab");
    mkdirSync(fanout, { recursive: true });
    const dead = exited();
    const blobTemp = join(fanout, `.tmp-w-${dead.pid}-${dead.start}-0123456789ab`);
    writeFileSync(blobTemp, "half a blob");
    utimesSync(blobTemp, old, old);
    const living = join(p.root, `.b.txt.splice-${process.pid.toString(36)}-0123456789ab.tmp`);
    writeFileSync(living, "still being written");
    utimesSync(living, old, old);

    const listed = gc(p.root, "--dry-run", "--json");
    expect(listed.code).toBe(0);
    const found = JSON.parse(listed.stdout).found as { kind: string; path: string }[];
    expect(found.map((f) => f.kind).sort()).toEqual([
      ...spares.map(() => "history_temp"),
      "history_temp",
      "lock",
      "lock",
      "temp",
    ]);
    expect([existsSync(temp), existsSync(blobTemp), readdirSync(locks).length]).toEqual([
      true,
      true,
      2,
    ]);

    const removed = gc(p.root);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("a.txt.splice-");
    expect(removed.stdout).toContain(`Removed ${4 + spares.length} leftover(s).`);
    expect(spares.filter(existsSync)).toEqual([]);
    expect([existsSync(temp), existsSync(blobTemp), readdirSync(locks)]).toEqual([
      false,
      false,
      [],
    ]);
    expect(existsSync(living)).toBe(true);
    expect(p.text("a.txt")).toBe("old\n");
    expect(gc(p.root).stdout).toContain("No leftovers.");
  }, 40_000);

  it("refuses a flag it does not know", () => {
    const p = new Project();
    roots.push(p.root);
    expect(gc(p.root, "--force").code).toBe(2);
  }, 20_000);
});
