/**
 * `npm run bench -- reliability-confine`: confinement against a concurrent
 * attacker and the compare-and-swap at the rename, each beside a baseline
 * measured in the same run.
 *
 * 1. Cost per call: LocalWorkspace confined (the descriptor walk of
 *    beneath.ts) vs unconfined (plain paths) vs bare node:fs.
 * 2. The symlink-swap race, long: a folder swapped with a link out of the
 *    root (renameat2 RENAME_EXCHANGE from a C child) while workspace calls
 *    and tool calls run under it; escapes for the confined workspace and for
 *    the plain one.
 * 3. Outside writers racing edits: lost writes with the compare at the
 *    rename vs the old compare-then-record-then-rename, and the window each
 *    leaves open.
 *
 * SPLICE_BENCH_SECONDS (default 60) sets each race's length.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LocalWorkspace } from "../src/index.js";
import { STRONG } from "../src/workspace/beneath.js";
import { compareAndWrite, type WriteIfOptions } from "../src/workspace/workspace.js";
import { raceOutsideWriter } from "../test/faults/outside-race.js";
import { raceTools, raceWorkspace, swapScene } from "../test/faults/swap-race.js";
import { startSwapper, swapHelper } from "../test/faults/swapper.js";
import {
  defineBenchmark,
  environment,
  formatTable,
  measure,
  type Stats,
  withScratchDir,
} from "./lib.js";

const SECONDS = Number(process.env.SPLICE_BENCH_SECONDS ?? 60);
const us = (stats: Stats) => (stats.median * 1000).toFixed(1);

async function callCost(root: string): Promise<void> {
  const confined = new LocalWorkspace({ confineTo: root, durable: false });
  const plain = new LocalWorkspace({ durable: false });
  const rows: string[][] = [];
  for (const depth of [1, 5]) {
    const dir = join(root, ...Array.from({ length: depth - 1 }, (_, i) => `d${i}`));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "f.txt");
    writeFileSync(file, "x".repeat(4096));
    const options = { warmup: 200, runs: 3000 };
    const ops: [
      string,
      (i: number) => unknown,
      (w: LocalWorkspace, i: number) => Promise<unknown>,
    ][] = [
      ["read 4 KiB", () => readFileSync(file), (w) => w.readFile(file)],
      ["stat", () => statSync(file), (w) => w.stat(file)],
      ["list folder", () => readdirSync(dir, { withFileTypes: true }), (w) => w.readDir(dir)],
      [
        "write (temp + rename)",
        (i) => {
          const temp = join(dir, `.t${i}`);
          writeFileSync(temp, "y");
          renameSync(temp, file);
        },
        (w) => w.writeFile(file, Buffer.from("y")),
      ],
    ];
    for (const [name, raw, call] of ops) {
      const bare = await measure(options, raw);
      const p = await measure(options, (i) => call(plain, i));
      const c = await measure(options, (i) => call(confined, i));
      rows.push([
        `${name}, depth ${depth}`,
        us(bare),
        us(p),
        us(c),
        `${(c.median / p.median).toFixed(2)}×`,
        `+${((c.median - p.median) * 1000).toFixed(1)}`,
      ]);
    }
  }
  console.log(
    `1. cost per call (median µs, ${STRONG ? "descriptor walk through /proc/self/fd" : "path walk fallback, no /proc"})\n`,
  );
  console.log(
    formatTable(
      [
        { header: "call" },
        { header: "node:fs", right: true },
        { header: "plain", right: true },
        { header: "confined", right: true },
        { header: "vs plain", right: true },
        { header: "µs more", right: true },
      ],
      rows,
    ),
  );
}

async function swapRace(): Promise<void> {
  console.log(
    `\n2. symlink-swap race, ${SECONDS} s each (${swapHelper() ? "atomic renameat2 RENAME_EXCHANGE" : "non-atomic rename loop"})\n`,
  );
  const rows: string[][] = [];
  const run = async (
    label: string,
    race: (
      scene: ReturnType<typeof swapScene>,
    ) => Promise<Awaited<ReturnType<typeof raceWorkspace>>>,
  ) => {
    const scene = swapScene();
    const swapper = await startSwapper(scene.folder, scene.link);
    let tally: Awaited<ReturnType<typeof raceWorkspace>>;
    let swaps = 0;
    try {
      tally = await race(scene);
    } finally {
      swaps = await swapper.stop();
    }
    const outside = scene.outsideChanges();
    rows.push([
      label,
      tally.attempts.toLocaleString(),
      tally.done.toLocaleString(),
      tally.refused.toLocaleString(),
      tally.escapes.length.toLocaleString(),
      outside.length.toLocaleString(),
      swaps.toLocaleString(),
    ]);
  };
  const ms = SECONDS * 1000;
  await run("plain workspace (baseline)", (scene) =>
    raceWorkspace(scene, new LocalWorkspace({ durable: false }), {
      attempts: Number.MAX_SAFE_INTEGER,
      ms: Math.min(ms, 10_000),
    }),
  );
  await run("confined workspace", (scene) =>
    raceWorkspace(scene, new LocalWorkspace({ confineTo: scene.root, durable: false }), {
      attempts: Number.MAX_SAFE_INTEGER,
      ms,
    }),
  );
  await run("tool calls (read, search, list, write, edit, file)", (scene) =>
    raceTools(scene, { attempts: Number.MAX_SAFE_INTEGER, ms }),
  );
  console.log(
    formatTable(
      [
        { header: "caller" },
        { header: "calls", right: true },
        { header: "done", right: true },
        { header: "refused", right: true },
        { header: "outside bytes or names seen", right: true },
        { header: "outside files changed", right: true },
        { header: "swaps", right: true },
      ],
      rows,
    ),
  );
}

/** The compare before history and fsync, then the rename: the order writeIf had before. */
class CheckThenRename extends LocalWorkspace {
  override writeIf(
    path: string,
    bytes: Uint8Array,
    expected: string | null,
    options: WriteIfOptions = {},
  ) {
    return compareAndWrite(this, path, bytes, expected, options);
  }
}

/** Times the window a compare-and-swap leaves: from the end of its last compare to the rename. */
class Timed extends LocalWorkspace {
  readonly windows: number[] = [];
  readonly oldWindows: number[] = [];
  override async writeIf(
    path: string,
    bytes: Uint8Array,
    expected: string | null,
    options: WriteIfOptions = {},
  ) {
    let recorded = 0;
    const checked = performance.now();
    const done = await super.writeIf(path, bytes, expected, {
      ...options,
      beforeReplace: async () => {
        await options.beforeReplace?.();
        recorded = performance.now();
      },
    });
    const end = performance.now();
    // Before: the compare ran before staging, fsync and history. Now: after them,
    // so the window is at most what runs after history settled (walk, compare, rename).
    this.oldWindows.push(end - checked);
    if (recorded) this.windows.push(end - recorded);
    return done;
  }
}

async function outsideWriters(): Promise<void> {
  const rounds = Math.max(300, SECONDS * 40);
  console.log(
    `\n3. outside writers racing edits: ${rounds} edits, one in-place outside write each\n`,
  );
  const rows: string[][] = [];
  const run = async (label: string, workspace?: (root: string) => LocalWorkspace) => {
    const t = await raceOutsideWriter({
      rounds,
      maxDelayUs: 3000,
      ...(workspace ? { workspace } : {}),
    });
    rows.push([
      label,
      String(t.survived),
      String(t.recovered),
      String(t.recoveredLate),
      String(t.refused),
      String(t.lost.length),
    ]);
  };
  await run(
    "compare, history, rename (baseline)",
    (root) => new CheckThenRename({ confineTo: root }),
  );
  await run("compare at the rename + after it");
  console.log(
    formatTable(
      [
        { header: "compare-and-swap" },
        { header: "on disk", right: true },
        { header: "kept in history", right: true },
        { header: "kept late", right: true },
        { header: "edit refused", right: true },
        { header: "lost", right: true },
      ],
      rows,
    ),
  );
  let timed: Timed | undefined;
  await raceOutsideWriter({
    rounds: 300,
    maxDelayUs: 0,
    workspace: (root) => {
      timed = new Timed({ confineTo: root });
      return timed;
    },
  });
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]! * 1000;
  const before = median(timed!.oldWindows);
  const after = median(timed!.windows);
  console.log(
    `\nwindow from the last compare to the rename (median of 300 durable edits): ${before.toFixed(0)} µs before (compare, stage, fsync, history, rename), at most ${after.toFixed(0)} µs now (walk, compare, rename, compare after); ${(before / after).toFixed(1)}× narrower. An in-place write into that window is caught by the compare after the rename; only a writer that opened the file before the rename and writes after that compare still loses its bytes.`,
  );
}

defineBenchmark({
  name: "reliability-confine",
  description:
    "confinement under a symlink-swap attacker and the compare-and-swap at the rename, with baselines",
  async run() {
    await withScratchDir("splice-bench-confine-", async (root) => {
      console.log(environment(root));
      await callCost(root);
    });
    if (process.platform !== "linux") {
      console.log("\n(the races need Linux: renameat2 and /proc/self/fd)");
      return;
    }
    await swapRace();
    await outsideWriters();
  },
});
