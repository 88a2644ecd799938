import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

/** Pids whose command line is exactly `words` (read from /proc, so nothing is matched loosely). */
function pidsRunning(words: string[]): number[] {
  const wanted = `${words.join("\0")}\0`;
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, "utf8") === wanted;
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function until(test: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (test()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return test();
}

describe.skipIf(process.platform !== "linux")("Ctrl-C", () => {
  it("stops a run's whole process group, background jobs too, and exits 130", async () => {
    const p = new Project();
    // Durations no other process uses, so the check below finds only ours.
    const a = `101.${process.pid}`;
    const b = `202.${process.pid}`;
    const child = spawn(BIN, ["run", `sleep ${a} & sleep ${b}; wait`, "--root", p.root], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      const started = await until(
        () => pidsRunning(["sleep", a]).length + pidsRunning(["sleep", b]).length === 2,
        15_000,
      );
      expect(started).toBe(true);
      child.kill("SIGINT");
      expect(await exited).toBe(130);
      expect(stderr).toContain("splice: stopping its processes");
      expect(stderr).not.toContain("internal error");
      const gone = await until(
        () => pidsRunning(["sleep", a]).length + pidsRunning(["sleep", b]).length === 0,
        5_000,
      );
      expect(gone).toBe(true);
    } finally {
      for (const pid of [...pidsRunning(["sleep", a]), ...pidsRunning(["sleep", b])]) {
        process.kill(pid, "SIGKILL");
      }
      child.kill("SIGKILL");
    }
  }, 30_000);

  /** A rewrite of many files, started in a real process; resolves once its first file is written. */
  async function applyInterrupted(presses: number, env: NodeJS.ProcessEnv = process.env) {
    const p = new Project();
    const FILES = 800;
    const names = Array.from({ length: FILES }, (_, i) => `src/f${String(i).padStart(3, "0")}.js`);
    for (const name of names) p.write(name, "console.log(1);\n");
    const child = spawn(
      BIN,
      [
        "ast",
        "console.log($A)",
        "--rewrite",
        "logger.info($A)",
        "src",
        "--apply",
        "--root",
        p.root,
      ],
      { stdio: ["ignore", "pipe", "pipe"], env },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    // "close", not "exit": the last words on stderr may arrive after the exit.
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const rewritten = () => names.filter((n) => p.text(n).startsWith("logger")).length;
    try {
      expect(await until(() => rewritten() > 0, 20_000)).toBe(true);
      for (let i = 0; i < presses; i++) {
        // Signals sent together arrive as one: wait until the first was heard.
        const heard = stderr.length;
        child.kill("SIGINT");
        await until(() => stderr.length > heard, 5_000);
      }
      const code = await exited;
      return { p, names, code, stdout, stderr, rewritten: rewritten() };
    } finally {
      child.kill("SIGKILL");
    }
  }

  it("lets an interrupted multi-file apply finish, all of it, and says how to undo it", async () => {
    const r = await applyInterrupted(1);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("finishing the write so no file is left half-changed");
    expect(r.rewritten).toBe(r.names.length);
    const id = /Undo them all with: splice undo (\S+)/.exec(r.stdout)?.[1];
    expect(id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
  }, 60_000);

  it.each([
    ["in its own process", { ...process.env, SPLICE_ENGINE: "0" }],
    ["in the engine", process.env],
  ])(
    "a second Ctrl-C stops at once and prints the exact undo, which restores every file (%s)",
    async (where, env) => {
      const r = await applyInterrupted(2, env);
      expect(r.code).toBe(130);
      // Its own process stops in the middle; the engine, which no Ctrl-C kills, finishes the write.
      if (where === "in its own process") expect(r.rewritten).toBeLessThan(r.names.length);
      const m = /Restore them with: splice undo (\S+)\n/.exec(r.stderr);
      expect(m, r.stderr).not.toBeNull();
      const undo = spawnSync(BIN, ["undo", m![1]!, "--root", r.p.root], { encoding: "utf8" });
      expect(undo.status, undo.stderr).toBe(0);
      expect(r.names.filter((n) => r.p.text(n) !== "console.log(1);\n")).toEqual([]);
    },
    60_000,
  );
});
