import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { Project } from "../helpers/project.js";

const FIXTURE = join(import.meta.dirname, "fixtures/writer.ts");

/**
 * Runs a write in a real child process that stops between journaling its
 * change and renaming the file into place (the test-only sync point), then
 * kills it with SIGKILL there. Returns the temp file it left.
 */
async function killMidWrite(p: Project, path: string, text: string): Promise<string> {
  const marker = join(p.root, "..", `${p.root.split("/").at(-1)}.hang`);
  const child = spawn(process.execPath, ["--import", "tsx", FIXTURE, p.root, path, text], {
    env: { ...process.env, SPLICE_TEST_HANG_BEFORE_RENAME: marker },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", (_, signal) => resolve(signal)));
  const deadline = Date.now() + 15_000;
  while (!existsSync(marker)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill("SIGKILL");
      throw new Error("the writer never reached its rename");
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  // Its lock is left behind; the next writer breaks it at once (locks.test.ts).
  return readFileSync(marker, "utf8");
}

const temps = (dir: string) => readdirSync(dir).filter((n) => n.includes(".splice-"));

describe("a writer killed between its journal line and its rename", { timeout: 20_000 }, () => {
  it("is no change: undo goes back to the last change that landed", async () => {
    const p = new Project();
    p.write("f.txt", "v1\n");
    const s = p.splice();
    await s.write({ targets: [{ path: "f.txt", text: "v2\n" }] });
    await killMidWrite(p, "f.txt", "v3\n");
    expect(p.text("f.txt")).toBe("v2\n");

    const undone = (await s.undo({})) as UndoResult;
    expect(undone.files.map((f) => f.action)).toEqual(["restore"]);
    expect(p.text("f.txt")).toBe("v1\n");
    const list = (await s.undo({ list: true })) as { sessions: { files: unknown[] }[] };
    expect(list.sessions).toHaveLength(2); // the change and its undo; the killed write is none
  });

  it("leaves a temp file that list and search never show and the next write removes", async () => {
    const p = new Project();
    p.write("src/f.txt", "v1\n");
    p.write("src/g.txt", "g\n");
    const temp = await killMidWrite(p, "src/f.txt", "needle\n");
    expect(temps(join(p.root, "src"))).toEqual([temp.split("/").at(-1)]);

    const s = p.splice();
    const listed = (await s.list({ path: "src", include_hidden: true })) as { content: string };
    expect(listed.content).toBe("f.txt\ng.txt");
    const found = (await s.search({ pattern: "needle" })) as { content: string };
    expect(found.content).toMatch(/^\[no matches for "needle"/);

    // Fresh, it might still be a live writer's (another pid namespace): kept.
    await s.write({ targets: [{ path: "src/g.txt", text: "g2\n" }] });
    expect(temps(join(p.root, "src"))).toHaveLength(1);
  });

  it("is removed by the next write in its folder once it is a few seconds old", async () => {
    const p = new Project();
    p.write("f.txt", "v1\n");
    const temp = await killMidWrite(p, "f.txt", "v2\n");
    const old = (Date.now() - 10_000) / 1000;
    utimesSync(temp, old, old);
    // A leftover of an older splice (no pid in its name), an hour old, and a live writer's.
    const legacy = join(p.root, ".f.txt.splice-0123456789ab.tmp");
    writeFileSync(legacy, "x");
    utimesSync(legacy, old - 3600, old - 3600);
    const live = join(p.root, `.f.txt.splice-${process.pid.toString(36)}-0123456789ab.tmp`);
    writeFileSync(live, "x");
    utimesSync(live, old, old);
    await p.splice().write({ targets: [{ path: "other.txt", text: "o\n" }] });
    expect(temps(p.root)).toEqual([live.split("/").at(-1)]);
    expect(p.text("f.txt")).toBe("v1\n");
  });
});
