import { mkdirSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runRipgrep } from "../../src/proc/ripgrep.js";
import { withoutVanished } from "../../src/tools/search/vanished.js";
import { Project } from "../helpers/project.js";

describe("search racing a delete", () => {
  it("knows rg's own words for a file that vanished, and keeps its other faults", async () => {
    const p = new Project();
    mkdirSync(join(p.root, "d"));
    const outcome = await runRipgrep(
      ["--json", "needle", "gone.txt", "d/gone.txt"],
      p.root,
      () => true,
    );
    expect(outcome.code).toBe(2);
    expect(withoutVanished(outcome.stderr)).toEqual({ stderr: "", vanished: 2 });
    const mixed = `${outcome.stderr}rg: x: Permission denied (os error 13)\n`;
    expect(withoutVanished(mixed).stderr).toBe("rg: x: Permission denied (os error 13)");
  });

  it("answers hits or not_found while files and folders are deleted under it, never a fault", async () => {
    const seen = new Set<string>();
    for (let round = 0; round < 3; round++) {
      const p = new Project();
      for (let d = 0; d < 6; d++) {
        for (let f = 0; f < 30; f++) p.write(`d${d}/f${f}.txt`, "needle\n".repeat(f % 2 ? 50 : 1));
      }
      const s = p.splice();
      let done = false;
      const deleting = (async () => {
        for (let d = 5; d >= 0; d--) {
          for (let f = 0; f < 30; f++) {
            unlinkSync(join(p.root, `d${d}/f${f}.txt`));
            await new Promise((r) => setImmediate(r));
          }
          rmdirSync(join(p.root, `d${d}`));
        }
        done = true;
      })();
      while (!done) {
        await Promise.all(
          [undefined, "d5", "d3/f3.txt", "d0/f1.txt"].map(async (path) => {
            try {
              const r = await s.search({ pattern: "needle", ...(path ? { path } : {}) });
              for (const w of r.warnings) seen.add(`warning: ${w}`);
            } catch (error) {
              const { code } = error as { code: string };
              if (code !== "not_found") seen.add(`${code}: ${(error as Error).message}`);
            }
          }),
        );
      }
      await deleting;
    }
    expect([...seen]).toEqual([]);
  }, 60_000);
});
