/**
 * What a checkpoint adds to `run`: the metadata pass before and after a
 * command on trees of 1,000, 10,000 and 100,000 files, beside `git status` on
 * the same (committed) tree in the same run; the same two passes when the
 * root watch runs (its table stands in for the walk); the first capture
 * (every file read into history) and a warm one (unchanged files not read
 * again); and a whole `run` of `true` beside `sh -c true`. Each tree is built
 * once per bench run, the larger ones grown from the smaller.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { takeSnapshot } from "../src/checkpoint/snapshot.js";
import { createSplice } from "../src/splice.js";
import { defineBenchmark, environment, formatTable, ms, withScratchDir } from "./lib.js";

const SIZES = [1_000, 10_000, 100_000];
const PER_FOLDER = 100;

/** Files `from`..`files` of the tree, then the whole tree committed (a grown tree commits only what is new). */
function plantTree(dir: string, files: number, from = 0): void {
  for (let i = from; i < files; i++) {
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
  const git = (...args: string[]) =>
    // No background gc: it would write into .git while the scratch folder is removed.
    execFileSync("git", ["-C", dir, "-c", "gc.auto=0", ...args], { stdio: "ignore" });
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
  description: "run's checkpoint: before+after pass vs git status, 1,000 / 10,000 / 100,000 files",
  async run() {
    const rows: string[][] = [];
    let planted = 0;
    await withScratchDir("splice-bench-ckpt-", async (scratch) => {
      console.log(environment(scratch));
      for (const n of SIZES) {
        // One tree, grown: the 100,000-file one costs its new files only.
        const dir = join(scratch, "tree");
        mkdirSync(dir, { recursive: true });
        plantTree(dir, n, planted);
        planted = n;
        const splice = createSplice({ root: dir, history: { session: "bench" } });
        const deps = splice.context;
        const runs = n >= 100_000 ? 3 : n >= 10_000 ? 5 : 10;
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
        // With the root watch: the before pass records what changed outside, the after pass
        // applies what the watch named; both re-stat only those paths.
        const watched = createSplice({ root: dir, history: { session: "bench" }, watch: true });
        const why = await watched.watching();
        if (why) throw new Error(`no root watch: ${why}`);
        const watch = watched.context.rootWatch!;
        const incremental = await median(runs, async () => {
          await takeSnapshot(deps, false, await watch.before());
          await takeSnapshot(deps, false, await watch.after());
        });
        const watchedRun = await median(runs, () => watched.run({ command: "true" }));
        await watched.close();
        const ratio = (v: number) => `${(v / gitStatus).toFixed(2)}×`;
        rows.push([
          n.toLocaleString("en-US"),
          ms(gitStatus),
          ms(passes),
          ratio(passes),
          ms(incremental),
          ratio(incremental),
          ms(warm),
          ratio(warm),
          ms(cold),
          ms(shell),
          ms(run),
          ms(run - shell),
          ms(watchedRun - shell),
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
          { header: "2 passes, watched ms", right: true },
          { header: "vs git", right: true },
          { header: "warm capture+after ms", right: true },
          { header: "vs git", right: true },
          { header: "first capture ms", right: true },
          { header: "sh -c true ms", right: true },
          { header: "run true ms", right: true },
          { header: "run overhead ms", right: true },
          { header: "watched run overhead ms", right: true },
        ],
        rows,
      ),
    );
    console.log(
      "\nmedians; 'warm' = files unchanged since the last snapshot are not read again; 'first capture' reads every file ≤ 1 MiB into history once",
    );
  },
});
