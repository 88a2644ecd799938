/**
 * The engine killed in the middle of a many-file write: each file is whole
 * (old or new, never torn), the command says the engine stopped, and the
 * next command — in a new engine — finishes the write the killed one began
 * (change/finish-batch.ts), so it is all done, not half.
 */
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, ENGINE_BUILT, ownEngine } from "../helpers/engine.js";
import { alive, sleep } from "../helpers/processes.js";
import { Project } from "../helpers/project.js";

const { env, splice } = ownEngine();

const OLD = "console.log(1);\n";
const NEW = "logger.info(1);\n";

describe.skipIf(!ENGINE_BUILT)("the engine killed mid-write", () => {
  afterAll(() => splice(["engine", "stop"]));

  it("leaves every file whole, and the next command finishes the write", async () => {
    const p = new Project();
    const names = Array.from({ length: 400 }, (_, i) => `src/f${String(i).padStart(3, "0")}.js`);
    for (const name of names) p.write(name, OLD);
    expect(splice(["read", names[0]!, "--root", p.root]).code).toBe(0);
    const { pid } = JSON.parse(splice(["engine", "status", "--json"]).stdout) as { pid: number };
    const args = ["ast", "console.log($A)", "--rewrite", "logger.info($A)", "src", "--apply"];
    const child = spawn(BIN, [...args, "--root", p.root], { env });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    const rewritten = () => names.filter((n) => p.text(n) === NEW).length;
    const end = Date.now() + 30_000;
    while (rewritten() === 0 && Date.now() < end) await sleep(2);
    process.kill(pid, "SIGKILL");
    expect(await closed).toBe(70);
    expect(stderr).toContain("the engine stopped while it ran this command");
    expect(alive(pid)).toBe(false);
    // Whole files only: each is the old text or the new, nothing between.
    expect(names.filter((n) => p.text(n) !== OLD && p.text(n) !== NEW)).toEqual([]);
    const partly = rewritten();
    const next = splice(["read", names[0]!, "--root", p.root]);
    expect(next.code, next.stderr).toBe(0);
    if (partly < names.length) {
      // Killed between renames: the next command finished the batch, and said so.
      expect(next.stderr).toMatch(/interrupted .* was finished/);
      expect(rewritten()).toBe(names.length);
    }
  }, 90_000);
});
