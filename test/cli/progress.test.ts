import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { progressLine, withProgress } from "../../src/cli/progress.js";
import type { CallProgress } from "../../src/toolkit/index.js";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

/** A terminal that keeps what is drawn on it. */
function terminal() {
  const written: string[] = [];
  return { isTTY: true, write: (s: string) => written.push(s), text: () => written.join("") };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("progress on a terminal", () => {
  it("draws a bar for counted work, and what it waits on after it", () => {
    const bar = progressLine({ phase: "restoring", done: 3, total: 6 }, undefined, 0);
    expect(bar).toBe(`restoring [${"#".repeat(15)}${".".repeat(15)}] 3/6 files`);
    const both = progressLine({ phase: "writing", done: 1, total: 2 }, "validating a.py", 4200);
    expect(both).toMatch(/^writing \[#+\.+\] 1\/2 files · validating a\.py 4s$/);
    expect(progressLine(undefined, "validating a.py", 2500)).toBe("validating a.py… 2s");
  });

  it("says nothing for work done within a second", async () => {
    const p = new Project();
    const tty = terminal();
    const r = await withProgress(
      p.splice(),
      async (on) => {
        on?.({ phase: "writing", done: 0, total: 2 });
        return 7;
      },
      { stream: tty },
    );
    expect(r).toBe(7);
    expect(tty.text()).toBe("");
  });

  it("shows a silent wait after the quiet second, with its time, then clears the line", async () => {
    const p = new Project();
    const tty = terminal();
    await withProgress(
      p.splice(),
      async (on) => {
        on?.({ phase: "validating a.py", done: 0 });
        await sleep(450);
      },
      { stream: tty, quietMs: 100 },
    );
    expect(tty.text()).toContain("\rvalidating a.py… 0s\u001b[K");
    expect(tty.text().endsWith("\r\u001b[K")).toBe(true);
  });

  it("draws nothing when stderr is not a terminal", async () => {
    const p = new Project();
    const piped = { isTTY: false, write: () => expect.fail("wrote to a pipe") };
    let heard: ((p: CallProgress) => void) | undefined;
    await withProgress(
      p.splice(),
      async (on) => {
        heard = on;
      },
      { stream: piped, quietMs: 0 },
    );
    expect(heard).toBeUndefined();
  });

  it("a write reports that it validates, so a slow language-server start is not silent", async () => {
    const p = new Project();
    const heard: CallProgress[] = [];
    await p
      .splice()
      .call(
        "write",
        { targets: [{ path: "a.ts", text: "x\n" }] },
        { onProgress: (e) => heard.push(e) },
      );
    expect(heard.map((e) => e.phase)).toContain("validating a.ts");
  });

  it("a patch of several files counts the files it writes", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    p.write("b.txt", "b\n");
    const patch = [
      "--- a/a.txt",
      "+++ b/a.txt",
      "@@ -1 +1 @@",
      "-a",
      "+A",
      "--- a/b.txt",
      "+++ b/b.txt",
      "@@ -1 +1 @@",
      "-b",
      "+B",
      "",
    ].join("\n");
    const heard: CallProgress[] = [];
    await p.splice().call("patch", { patch }, { onProgress: (e) => heard.push(e) });
    expect(heard.filter((e) => e.phase === "writing")).toEqual([
      { phase: "writing", done: 0, total: 2 },
      { phase: "writing", done: 1, total: 2 },
      { phase: "writing", done: 2, total: 2 },
    ]);
    expect(p.text("b.txt")).toBe("B\n");
  });

  it.skipIf(process.platform !== "linux")(
    "splice undo of many files draws its bar on a terminal, and nothing when piped",
    () => {
      const p = new Project();
      const paths = Array.from({ length: 60 }, (_, i) => `f${i}.txt`);
      for (const path of paths) p.write(path, "old\n");
      const targets = paths.map((path) => ({ path, text: "new\n" }));
      const wrote = spawnSync(BIN, [
        "call",
        "write",
        JSON.stringify({ targets }),
        "--root",
        p.root,
      ]);
      expect(wrote.status).toBe(0);
      // `script` gives the command a pseudo-terminal, as a person's shell does.
      const line = `${BIN} undo --root ${p.root}`;
      const tty = spawnSync("script", ["-qec", line, "/dev/null"], { encoding: "utf8" });
      expect(tty.status).toBe(0);
      expect(tty.stdout).toMatch(/restoring \[#+\.*\] \d+\/60 files/);
      expect(p.text("f0.txt")).toBe("old\n");
      const rewrote = spawnSync(BIN, [
        "call",
        "write",
        JSON.stringify({ targets }),
        "--root",
        p.root,
      ]);
      expect(rewrote.status).toBe(0);
      const piped = spawnSync(BIN, ["undo", "--root", p.root], { encoding: "utf8" });
      expect(piped.status).toBe(0);
      // No bar; only the one line that says what is about to be reverted.
      expect(piped.stderr).toMatch(
        /^splice undo: reverting \S+ \(60 files, \+60 -60\): f0\.txt \+1 -1, .* and 55 more\n$/,
      );
      expect(p.text("f0.txt")).toBe("old\n");
    },
    30_000,
  );
});
