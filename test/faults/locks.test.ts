import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LOCK_TIMING, lockName, withFileLock } from "../../src/workspace/file-lock.js";
import { encodeHolder, newHolder, startTime } from "../../src/workspace/holder.js";
import { findLeftovers } from "../../src/workspace/leftovers.js";
import { EDITOR, editInChild, sleep } from "../helpers/processes.js";
import { Project, rejection } from "../helpers/project.js";

const DEFAULTS = { ...LOCK_TIMING };
afterEach(() => Object.assign(LOCK_TIMING, DEFAULTS));

const lockDir = (p: Project) => join(p.root, ".splice", "locks");
/** The lock folder's entries but the holder file this test process keeps while it lives. */
const leftIn = (p: Project) =>
  readdirSync(lockDir(p)).filter(
    (n) => !(n.startsWith(`${process.pid}.`) && n.endsWith(".holder")),
  );
const lockOf = (p: Project, rel: string) => lockName(lockDir(p), realpathSync(join(p.root, rel)));

/** Process state letter from /proc (R, S, T for stopped, Z …). */
function state(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
}

/** Starts an edit in a child process that stops itself (or hangs) just before its rename. */
async function editorAtRename(
  p: Project,
  how: "stop" | "hang",
  args: [string, string, string],
): Promise<{ child: ChildProcess; exited: Promise<number | string | null> }> {
  const marker = join(p.root, "..", `${p.root.split("/").at(-1)}.${how}`);
  const env = how === "stop" ? "SPLICE_TEST_STOP_BEFORE_RENAME" : "SPLICE_TEST_HANG_BEFORE_RENAME";
  const child = spawn(process.execPath, ["--import", "tsx", EDITOR, p.root, ...args], {
    env: { ...process.env, [env]: marker },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(signal ?? code)),
  );
  const deadline = Date.now() + 15_000;
  while (!existsSync(marker) || (how === "stop" && state(child.pid!) !== "T")) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error("the editor never reached its rename");
    }
    await sleep(10);
  }
  return { child, exited };
}

/** Plants a lock as another holder would leave it. */
function plantLock(p: Project, rel: string, text: string, ageMs = 0): string {
  const lock = lockOf(p, rel);
  mkdirSync(lockDir(p), { recursive: true });
  symlinkSync(text, lock);
  const at = new Date(Date.now() - ageMs);
  lutimesSync(lock, at, at);
  return lock;
}

describe("a lock whose holder is stopped", { timeout: 40_000 }, () => {
  it("is not broken, however long: both edits land, none is lost", async () => {
    const p = new Project();
    p.write("f.txt", "a\nb\n");
    const { child, exited } = await editorAtRename(p, "stop", ["f.txt", "a", "A"]);
    const s = p.splice();
    let done = false;
    const second = s
      .edit({ targets: [{ path: "f.txt", edits: [{ old_text: "b", new_text: "B" }] }] })
      .finally(() => {
        done = true;
      });
    await sleep(11_000); // past the 10 s after which the old lock called a silent holder dead
    expect(done).toBe(false);
    expect(p.text("f.txt")).toBe("a\nb\n");
    child.kill("SIGCONT");
    expect(await exited).toBe(0);
    await second;
    expect(p.text("f.txt")).toBe("A\nB\n");
    expect(leftIn(p)).toEqual([]); // the editor's lock and, as it exited, its holder file
  });
});

describe("a lock whose holder was killed", { timeout: 30_000 }, () => {
  it("is broken at once: the next write does not wait for it to age", async () => {
    const p = new Project();
    p.write("f.txt", "a\nb\n");
    const { child, exited } = await editorAtRename(p, "hang", ["f.txt", "a", "A"]);
    // The lock is a hard link to the editor's holder file, which names it.
    const lock = lstatSync(lockOf(p, "f.txt"));
    const holderFile = readdirSync(lockDir(p)).find((n) => n.startsWith(`${child.pid}.`));
    expect(holderFile).toMatch(/\.holder$/);
    expect(lstatSync(join(lockDir(p), holderFile!)).ino).toBe(lock.ino);
    expect(readFileSync(lockOf(p, "f.txt"), "utf8")).toBe(holderFile!.replace(/\.holder$/, ""));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    LOCK_TIMING.giveUpMs = 1_000; // an aging rule would time out here
    await p
      .splice()
      .edit({ targets: [{ path: "f.txt", edits: [{ old_text: "b", new_text: "B" }] }] });
    expect(p.text("f.txt")).toBe("a\nB\n");
    expect(leftIn(p)).toEqual([]); // the broken lock and the dead holder's file
  });

  it("is broken when its pid now names a later process", async () => {
    const p = new Project();
    p.write("f.txt", "x\n");
    const me = newHolder();
    // This test's own parent, with a start time it never had: a reused pid.
    const reused = { ...me, pid: process.ppid, start: String(Number(startTime(process.ppid)) + 1) };
    plantLock(p, "f.txt", encodeHolder(reused));
    LOCK_TIMING.giveUpMs = 500;
    await p.splice().write({ targets: [{ path: "f.txt", text: "y\n" }] });
    expect(p.text("f.txt")).toBe("y\n");
  });

  it("is broken when its pid is gone", async () => {
    const p = new Project();
    p.write("f.txt", "x\n");
    const done = spawnSync("true");
    const gone = { ...newHolder(), pid: done.pid!, start: "12345" };
    plantLock(p, "f.txt", encodeHolder(gone));
    LOCK_TIMING.giveUpMs = 500;
    await p.splice().write({ targets: [{ path: "f.txt", text: "y\n" }] });
    expect(p.text("f.txt")).toBe("y\n");
  });
});

describe("a lock held by a live process", () => {
  it("times out as a coded error that names the holder and what to do", async () => {
    const p = new Project();
    p.write("f.txt", "x\n");
    const parent = { ...newHolder(), pid: process.ppid, start: startTime(process.ppid)! };
    const lock = plantLock(p, "f.txt", encodeHolder(parent), 3_600_000);
    LOCK_TIMING.giveUpMs = 300;
    const error = await rejection(p.splice().write({ targets: [{ path: "f.txt", text: "y\n" }] }));
    expect(error.code).toBe("locked");
    expect(error.message).toContain(`splice process ${process.ppid} has held its write lock`);
    expect(error.message).toContain(`remove ${lock}`);
    expect(p.text("f.txt")).toBe("x\n");
    expect(lstatSync(lock).isSymbolicLink()).toBe(true); // a live holder's lock is left alone
  });
});

describe("a lock from another host", () => {
  const elsewhere = () => ({ ...newHolder(), host: "0123456789ab", pid: 1, start: "1" });

  it("is kept while its heartbeat is fresh", async () => {
    const p = new Project();
    p.write("f.txt", "x\n");
    plantLock(p, "f.txt", encodeHolder(elsewhere()));
    LOCK_TIMING.giveUpMs = 300;
    const error = await rejection(p.splice().write({ targets: [{ path: "f.txt", text: "y\n" }] }));
    expect(error.code).toBe("locked");
  });

  it("is broken once its heartbeat stopped", async () => {
    const p = new Project();
    p.write("f.txt", "x\n");
    plantLock(p, "f.txt", encodeHolder(elsewhere()), DEFAULTS.elsewhereStaleMs + 1_000);
    LOCK_TIMING.giveUpMs = 300;
    await p.splice().write({ targets: [{ path: "f.txt", text: "y\n" }] });
    expect(p.text("f.txt")).toBe("y\n");
  });
});

describe("an empty lock file of an older splice", () => {
  it("is broken once it is older than the old rule's 10 s", async () => {
    const p = new Project();
    p.write("f.txt", "x\n");
    const lock = lockOf(p, "f.txt");
    mkdirSync(lockDir(p), { recursive: true });
    writeFileSync(lock, "");
    LOCK_TIMING.giveUpMs = 300;
    expect(
      (await rejection(p.splice().write({ targets: [{ path: "f.txt", text: "y\n" }] }))).code,
    ).toBe("locked");
    const old = new Date(Date.now() - 11_000);
    utimesSync(lock, old, old);
    await p.splice().write({ targets: [{ path: "f.txt", text: "y\n" }] });
    expect(p.text("f.txt")).toBe("y\n");
    rmSync(lock, { force: true });
  });
});

describe("locks are hard links to their holder's file", () => {
  it("so a process's locks share one inode, made once, which names the holder", async () => {
    const p = new Project();
    const dir = lockDir(p);
    const inodes = await withFileLock(dir, "/a", () =>
      withFileLock(dir, "/b", async () => [
        lstatSync(lockName(dir, "/a")).ino,
        lstatSync(lockName(dir, "/b")).ino,
      ]),
    );
    const holder = readdirSync(dir).filter((n) => n.endsWith(".holder"));
    expect(holder).toHaveLength(1);
    const file = join(dir, holder[0]!);
    expect(inodes).toEqual([lstatSync(file).ino, lstatSync(file).ino]);
    expect(readFileSync(file, "utf8")).toBe(holder[0]!.replace(/\.holder$/, ""));
    expect(readFileSync(file, "utf8")).toMatch(new RegExp(`^${process.pid}\\.`));
    expect(readdirSync(dir)).toEqual(holder); // both locks let go
  });

  it("takes the lock again after its folder was removed under it", async () => {
    const p = new Project();
    p.write("f.txt", "x\n");
    await p.splice().write({ targets: [{ path: "f.txt", text: "y\n" }] });
    rmSync(lockDir(p), { recursive: true });
    await p.splice().write({ targets: [{ path: "f.txt", text: "z\n" }] });
    expect(p.text("f.txt")).toBe("z\n");
    expect(leftIn(p)).toEqual([]);
  });

  it("a gone holder's file is listed by gc and swept by the next process to take a lock there", async () => {
    const p = new Project();
    p.write("f.txt", "a\nb\n");
    mkdirSync(lockDir(p), { recursive: true });
    const done = spawnSync("true");
    const gone = join(
      lockDir(p),
      `${encodeHolder({ ...newHolder(), pid: done.pid!, start: "12345" })}.holder`,
    );
    writeFileSync(gone, "");
    expect(findLeftovers(p.root)).toContainEqual({ kind: "lock", path: gone });
    const editor = editInChild(p.root, "f.txt", "a", "A");
    expect(editor.status).toBe(0);
    expect(p.text("f.txt")).toBe("A\nb\n");
    expect(existsSync(gone)).toBe(false);
    expect(leftIn(p)).toEqual([]); // and the editor removed its own as it exited
  });
});
