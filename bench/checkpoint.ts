/**
 * What a checkpoint adds to `run`: the metadata pass before and after a
 * command on trees of 1,000 and 10,000 files, beside `git status` on the same
 * (committed) tree in the same run; the first capture (every file read into
 * history) and a warm one (unchanged files not read again); and a whole
 * `run` of `true` beside `sh -c true`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { takeSnapshot } from "../src/checkpoint/snapshot.js";
import { createSplice } from "../src/splice.js";
import { defineBenchmark, environment, formatTable, ms, withScratchDir } from "./lib.js";

const SIZES = [1_000, 10_000];
const PER_FOLDER = 100;

function plantTree(dir: string, files: number): void {
  for (let i = 0; i < files; i++) {
    const folder = join(
      dir,
      `pkg${Math.floor(i / PER_FOLDER / 10)}`,
      `mod${Math.floor(i / PER_FOLDER)}`,
    );
    if (i % PER_FOLDER === 0) mkdirSync(folder, { recursive: true });
    const body = `export const value${i} = ${i};\n`.repeat(40); // ~1.2 KB, a source file
    writeFileSync(join(folder, `file${i}.ts`), body);
  }
  writeFileSync(join(dir, ".gitignore"), "node_modules/\n");
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-qm", "tree");
}

async function median(runs: number, fn: () => unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const start = performance.now();
    await fn();
    if (i > 0) samples.push(performance.now() - start); // the first is a warm-up
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1]!;
}

defineBenchmark({
  name: "checkpoint",
  description: "run's checkpoint: before+after pass vs git status, 1,000 and 10,000 files",
  async run() {
    const rows: string[][] = [];
    await withScratchDir("splice-bench-ckpt-", async (scratch) => {
      console.log(environment(scratch));
      for (const n of SIZES) {
        const dir = join(scratch, `t${n}`);
        mkdirSync(dir);
        plantTree(dir, n);
        const splice = createSplice({ root: dir, history: { session: "bench" } });
        const deps = splice.context;
        const runs = n >= 10_000 ? 5 : 10;
        const gitStatus = await median(runs, () =>
          spawnSync("git", ["-C", dir, "status", "--porcelain"], { stdio: "ignore" }),
        );
        const start = performance.now();
        await takeSnapshot(deps, true);
        const cold = performance.now() - start;
        const passes = await median(runs, async () => {
          await takeSnapshot(deps, false);
          await takeSnapshot(deps, false);
        });
        const warm = await median(runs, async () => {
          await takeSnapshot(deps, true);
          await takeSnapshot(deps, false);
        });
        const shell = await median(runs, () => spawnSync("sh", ["-c", "true"]));
        const run = await median(runs, () => splice.run({ command: "true" }));
        const ratio = (v: number) => `${(v / gitStatus).toFixed(2)}×`;
        rows.push([
          n.toLocaleString("en-US"),
          ms(gitStatus),
          ms(passes),
          ratio(passes),
          ms(warm),
          ratio(warm),
          ms(cold),
          ms(shell),
          ms(run),
          ms(run - shell),
        ]);
        await splice.close();
      }
    });
    console.log(
      formatTable(
        [
          { header: "files", right: true },
          { header: "git status ms", right: true },
          { header: "2 metadata passes ms", right: true },
          { header: "vs git", right: true },
          { header: "warm capture+after ms", right: true },
          { header: "vs git", right: true },
          { header: "first capture ms", right: true },
          { header: "sh -c true ms", right: true },
          { header: "run true ms", right: true },
          { header: "run overhead ms", right: true },
        ],
        rows,
      ),
    );
    console.log(
      "\nmedians; 'warm' = files unchanged since the last snapshot are not read again; 'first capture' reads every file ≤ 1 MiB into history once",
    );
  },
});
