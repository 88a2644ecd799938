import { spawn } from "node:child_process";
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
});
