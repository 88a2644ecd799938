/**
 * What a checkpoint adds to `run`, on trees of 1,000, 10,000 and 100,000
 * files, each row beside `git status` on the same (committed) tree, sampled
 * in turn with it (one sample of each, then again) so a noisy, shared machine
 * slows both alike; medians, the first sample of each a warm-up.
 *
 * Shapes: the before+after metadata pass in a long-lived process without the
 * root watch (the second walk reuses the first's folder listings), the same
 * as a fresh process sees it (no listing known), with the root watch (its
 * table stands in for the walk), a warm capture (the stat table says which
 * files are in history already), and the one-shot CLI: `splice run -- true`
 * as a fresh process, against `sh -c true` and `git status`, with the stat
 * table on disk (its first run, which reads every file into history, apart).
 * The watched passes are timed back to back and, as an agent runs commands,
 * 0.6 s apart (the watcher then delivers the before pass's mark at once).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { takeSnapshot } from "../src/checkpoint/snapshot.js";
import { TABLE_FILE } from "../src/checkpoint/table.js";
import { createSplice } from "../src/splice.js";
import { defineBenchmark, environment, formatTable, ms, withScratchDir } from "./lib.js";

const SIZES = [1_000, 10_000, 100_000];
const PER_FOLDER = 100;
const CLI = fileURLToPath(new URL("../bin/splice", import.meta.url));

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

const middle = (samples: number[]) => samples.sort((a, b) => a - b)[samples.length >> 1]!;

async function time(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Medians of `fn` and of each baseline, sampled in turn `runs` times after one warm-up round. */
async function paired(runs: number, fn: () => unknown, ...baselines: (() => unknown)[]) {
  const own: number[] = [];
  const base = baselines.map(() => [] as number[]);
  for (let i = 0; i <= runs; i++) {
    for (const [b, baseline] of baselines.entries()) {
      const t = await time(baseline);
      if (i > 0) base[b]!.push(t);
    }
    const t = await time(fn);
    if (i > 0) own.push(t);
  }
  return { own: middle(own), base: base.map(middle) };
}

defineBenchmark({
  name: "checkpoint",
  description: "run's checkpoint: before+after pass vs git status, 1,000 / 10,000 / 100,000 files",
  async run() {
    const cli = existsSync(join(CLI, "../../dist/cli-bundle/start.js"));
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
        const runs = n >= 100_000 ? 7 : n >= 10_000 ? 15 : 25;
        const gitStatus = () =>
          spawnSync("git", ["-C", dir, "status", "--porcelain"], { stdio: "ignore" });
        const shell = () => spawnSync("sh", ["-c", "true"], { stdio: "ignore" });
        const row = (shape: string, value: number, git: number, extra = "") =>
          rows.push([
            n.toLocaleString("en-US"),
            shape,
            ms(value),
            ms(git),
            `${(value / git).toFixed(2)}×`,
            extra,
          ]);

        const splice = createSplice({ root: dir, history: { session: "bench" } });
        const deps = splice.context;
        const first = await time(() => takeSnapshot(deps, true));
        const passes = await paired(
          runs,
          async () => {
            await takeSnapshot(deps, false);
            await takeSnapshot(deps, false);
          },
          gitStatus,
        );
        row("2 passes, long-lived process", passes.own, passes.base[0]!);
        // A new splice has a new guard: no folder listing known, as in a fresh process.
        const others = Array.from({ length: runs + 1 }, () =>
          createSplice({ root: dir, history: { session: "bench" } }),
        );
        let next = 0;
        const fresh = await paired(
          runs,
          async () => {
            const other = others[next++]!;
            await takeSnapshot(other.context, false);
            await takeSnapshot(other.context, false);
          },
          gitStatus,
        );
        for (const other of others) await other.close();
        row("2 passes, fresh process (walk + reuse)", fresh.own, fresh.base[0]!);
        const warm = await paired(
          runs,
          async () => {
            await takeSnapshot(deps, true);
            await takeSnapshot(deps, false);
          },
          gitStatus,
        );
        row("warm capture + after pass", warm.own, warm.base[0]!);
        const inProcess = await paired(runs, () => splice.run({ command: "true" }), shell);
        await splice.close();

        // With the root watch: the before pass records what changed outside, the after pass
        // applies what the watch named; both re-stat only those paths.
        const watched = createSplice({ root: dir, history: { session: "bench" }, watch: true });
        const why = await watched.watching();
        if (why) throw new Error(`no root watch: ${why}`);
        const watch = watched.context.rootWatch!;
        const incremental = await paired(
          runs,
          async () => {
            await takeSnapshot(watched.context, false, await watch.before());
            await takeSnapshot(watched.context, false, await watch.after());
          },
          gitStatus,
        );
        row("2 passes, root watch", incremental.own, incremental.base[0]!);
        // The same a while after the last event (an agent's commands come seconds apart): the
        // watcher delivers the first event after 500 ms of quiet at once, so the before pass's mark
        // costs nothing and the after pass's is the one debounce (~50 ms) left.
        const quiet: number[] = [];
        const apart = await paired(
          Math.min(runs, 8),
          async () => {
            await new Promise((resolve) => setTimeout(resolve, 600));
            const start = performance.now();
            await takeSnapshot(watched.context, false, await watch.before());
            await takeSnapshot(watched.context, false, await watch.after());
            quiet.push(performance.now() - start);
          },
          gitStatus,
        );
        quiet.shift(); // the warm-up round's
        row("2 passes, root watch, 0.6 s apart", middle(quiet), apart.base[0]!);
        const watchedRun = await paired(runs, () => watched.run({ command: "true" }), shell);
        await watched.close();
        rows.push([
          n.toLocaleString("en-US"),
          "run overhead, in process (vs sh -c true)",
          ms(inProcess.own - inProcess.base[0]!),
          "",
          "",
          `watched: ${ms(watchedRun.own - watchedRun.base[0]!)} ms`,
        ]);

        if (cli) {
          // The one-shot CLI: a fresh process each time, the stat table on disk; the same
          // command on an empty root is the process's own start-up.
          const command = (cwd: string) => () =>
            spawnSync(process.execPath, [CLI, "run", "--", "true"], { cwd, stdio: "ignore" });
          const empty = join(scratch, `empty-${n}`);
          mkdirSync(empty);
          rmSync(join(dir, ".splice", TABLE_FILE), { force: true });
          const cold = await time(command(dir));
          const oneShot = await paired(runs, command(dir), gitStatus, shell, command(empty));
          const [git, sh, start] = oneShot.base as [number, number, number];
          row(
            "splice run -- true, fresh process",
            oneShot.own,
            git,
            `sh -c true ${ms(sh)} ms; on an empty root ${ms(start)} ms; the tree adds ${ms(oneShot.own - start)} ms = ${((oneShot.own - start) / git).toFixed(2)}× git; first run ${ms(cold)} ms`,
          );
        }
        rows.push([
          n.toLocaleString("en-US"),
          "first capture (every file read)",
          ms(first),
          "",
          "",
          "",
        ]);
      }
    });
    console.log(
      formatTable(
        [
          { header: "files", right: true },
          { header: "shape" },
          { header: "ms", right: true },
          { header: "git status ms", right: true },
          { header: "vs git", right: true },
          { header: "" },
        ],
        rows,
      ),
    );
    console.log(
      `\nmedians; each row's git status sampled in turn with it, in the same run${cli ? "" : "; no CLI rows: run `npm run build` first"}. 'warm capture' = files the stat table proves unchanged are not read again; 'first capture' reads every file ≤ 1 MiB into history once`,
    );
  },
});
