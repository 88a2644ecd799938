/**
 * Locks and crashes (docs/locks.md): a writer killed at every step of a
 * write, writers stopped while they hold their lock, the wait after a killed
 * holder, and what the lock costs — each against a baseline in the same run:
 * the old O_EXCL empty-file lock, broken by age, built here as it was.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { createSplice } from "../src/splice.js";
import { BeneathFs } from "../src/workspace/beneath-fs.js";
import { LOCK_TIMING, lockName, withFileLock } from "../src/workspace/file-lock.js";
import { type HistoryTarget, raceHistory } from "../test/faults/history-swap.js";
import { killAndCheck, seeded, V3 } from "../test/helpers/kill-check.js";
import { killPoints, straceAvailable } from "../test/helpers/kill-steps.js";
import { Project } from "../test/helpers/project.js";
import {
  defineBenchmark,
  environment,
  fixed,
  formatTable,
  measure,
  withScratchDir,
} from "./lib.js";

const EDITOR = join(import.meta.dirname, "../test/faults/fixtures/editor.ts");
const STOP_RUNS = Number(process.env.RELIABILITY_STOP_RUNS ?? 6);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The lock as it was before issue 16: an empty O_EXCL file, broken once 10 s old. */
async function withOldLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      closeSync(openSync(lock, "wx"));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const st = statSync(lock, { throwIfNoEntry: false });
    if (st && Date.now() - st.mtimeMs > 10_000) unlinkSync(lock);
    else await sleep(2);
  }
  try {
    return await fn();
  } finally {
    unlinkSync(lock);
  }
}

async function lockCost(): Promise<void> {
  await withScratchDir("splice-bench-locks-", async (dir) => {
    console.log(environment(dir));
    mkdirSync(join(dir, "locks"), { recursive: true });
    const options = { warmup: 200, runs: 3000 };
    const none = async () => {};
    const now = await measure(options, () => withFileLock(join(dir, "locks"), "/x/f.txt", none));
    const old = join(dir, "locks", "old.lock");
    const before = await measure(options, () => withOldLock(old, none));
    console.log(
      formatTable(
        [
          { header: "uncontended lock + unlock" },
          { header: "median µs", right: true },
          { header: "vs baseline", right: true },
        ],
        [
          ["old O_EXCL empty file (baseline)", fixed(before.median * 1000), "1.00x"],
          [
            "symlink naming its holder",
            fixed(now.median * 1000),
            `${fixed(now.median / before.median, 2)}x`,
          ],
        ],
      ),
    );
  });
}

function startEditor(
  p: Project,
  env: string,
  args: string[],
): { child: ChildProcess; marker: string } {
  const marker = join(p.root, "..", `${p.root.split("/").at(-1)}.marker`);
  const child = spawn(process.execPath, ["--import", "tsx", EDITOR, p.root, ...args], {
    env: { ...process.env, [env]: marker },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { child, marker };
}

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(10);
  }
}

const stopped = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat[stat.lastIndexOf(")") + 2] === "T";
};

/** A holder stopped past the old 10 s: is the other writer's update kept? */
async function stoppedHolders(): Promise<void> {
  let lost = 0;
  let waitedMs = 0;
  for (let run = 0; run < STOP_RUNS; run++) {
    const p = new Project();
    p.write("f.txt", "a\nb\n");
    const { child, marker } = startEditor(p, "SPLICE_TEST_STOP_BEFORE_RENAME", ["f.txt", "a", "A"]);
    const exited = new Promise((r) => child.on("exit", r));
    await until(() => existsSync(marker) && stopped(child.pid!));
    const start = Date.now();
    const second = createSplice({ root: p.root, history: { session: "test" } }).edit({
      targets: [{ path: "f.txt", edits: [{ old_text: "b", new_text: "B" }] }],
    });
    await sleep(11_000);
    child.kill("SIGCONT");
    await exited;
    await second;
    waitedMs += Date.now() - start;
    if (p.text("f.txt") !== "A\nB\n") lost++;
  }
  console.log(
    `\nstopped holder (SIGSTOP 11 s before its rename, another writer edits, SIGCONT): ${lost} of ${STOP_RUNS} runs lost an update; the other writer waited ${fixed(waitedMs / STOP_RUNS / 1000)} s on average (the old lock broke it at 10 s and lost one)`,
  );
}

/** How long the next write waits for a lock whose holder is dead. */
async function deadHolderWait(): Promise<void> {
  const timeWrite = async (p: Project) => {
    const start = performance.now();
    await createSplice({ root: p.root, history: { session: "test" } }).write({
      targets: [{ path: "f.txt", text: "next\n" }],
    });
    return performance.now() - start;
  };
  const killed = new Project();
  killed.write("f.txt", "v1\n");
  const { child, marker } = startEditor(killed, "SPLICE_TEST_HANG_BEFORE_RENAME", [
    "f.txt",
    "v1",
    "v2",
  ]);
  const exited = new Promise((r) => child.on("exit", r));
  await until(() => existsSync(marker));
  child.kill("SIGKILL");
  await exited;
  const now = await timeWrite(killed);
  // The baseline: a lock of the old kind (an empty file) left by a killed writer.
  const old = new Project();
  old.write("f.txt", "v1\n");
  const lock = lockName(join(old.root, ".splice", "locks"), join(old.root, "f.txt"));
  mkdirSync(join(old.root, ".splice", "locks"), { recursive: true });
  writeFileSync(lock, "");
  const before = await timeWrite(old);
  console.log(
    `\n${formatTable(
      [
        { header: "next write after its lock holder was killed" },
        { header: "ms", right: true },
        { header: "vs baseline", right: true },
      ],
      [
        ["an old empty lock, broken by age (baseline)", fixed(before, 0), "1.00x"],
        ["a lock naming a dead pid", fixed(now, 0), `${fixed(now / before, 4)}x`],
      ],
    )}`,
  );
}

/** A writer killed at every step of one write. */
async function everyStep(): Promise<void> {
  if (!straceAvailable()) {
    console.log(
      "\nkill at every step: skipped, strace is not installed (apt-get install -y strace)",
    );
    return;
  }
  const points = await killPoints((await seeded()).root, "f.txt", V3);
  const totals = { mid: 0, torn: 0, phantom: 0, temps: 0, historyTemps: 0, locks: 0, blocked: 0 };
  const phantoms: string[] = [];
  const giveUp = LOCK_TIMING.giveUpMs;
  for (const point of points) {
    const o = await killAndCheck(point);
    if (o.killed.began && !o.killed.finished) totals.mid++;
    if (o.torn) totals.torn++;
    if (o.phantom) {
      totals.phantom++;
      phantoms.push(`${point.call}#${point.nth}: ${point.line.slice(0, 100)}`);
    }
    totals.temps += o.leftovers.filter((n) => !n.startsWith(".splice/")).length;
    totals.historyTemps += o.leftovers.filter((n) => n.startsWith(".splice/")).length;
    totals.locks += o.locks.length;
    if (o.blocked) totals.blocked++;
  }
  LOCK_TIMING.giveUpMs = giveUp;
  console.log(
    `\n${formatTable(
      [{ header: "kill -9 at every step of a write" }, { header: "count", right: true }],
      [
        ["steps (system calls of the write)", String(points.length)],
        ["killed mid-write", String(totals.mid)],
        ["torn files", String(totals.torn)],
        ["phantom changes (undo missed the last real change)", String(totals.phantom)],
        ["temp files left beside the file", String(totals.temps)],
        ["history temp files left (.splice/blobs)", String(totals.historyTemps)],
        ["locks left after the next write", String(totals.locks)],
        ["next writes that could not take the lock", String(totals.blocked)],
      ],
    )}`,
  );
  for (const p of phantoms) console.log(`  phantom at ${p}`);
}

/**
 * What confining history costs an edit: a read and a write through the
 * toolkit, history's calls confined beneath the root, against the same with
 * history's calls made on plain paths (BeneathFs.around swapped out while the
 * baseline toolkit opens), in the same run. Not fsync'ed: the disk wait would
 * drown the difference.
 */
async function historyConfineCost(): Promise<void> {
  const runs = Number(process.env.RELIABILITY_EDITS ?? 1500);
  const open = (plain: boolean) => {
    const p = new Project();
    p.write("src/a.txt", "one\n");
    const around = BeneathFs.around;
    if (plain) BeneathFs.around = () => new BeneathFs();
    try {
      return { p, splice: createSplice({ root: p.root, durable: false, lsp: false }) };
    } finally {
      BeneathFs.around = around;
    }
  };
  const plain = open(true);
  const confined = open(false);
  const edit = (s: ReturnType<typeof open>) => async (i: number) => {
    await s.splice.call("read", { targets: [{ path: "src/a.txt" }] });
    await s.splice.call("write", { targets: [{ path: "src/a.txt", text: `v${i}\n` }] });
  };
  const options = { warmup: 100, runs };
  const before = await measure(options, edit(plain));
  const after = await measure(options, edit(confined));
  const before2 = await measure(options, edit(plain)); // again, for the drift of a loaded machine
  const base = Math.min(before.median, before2.median);
  console.log(
    `\n${formatTable(
      [
        { header: `read + write through the toolkit (${runs} runs)` },
        { header: "median µs", right: true },
        { header: "vs baseline", right: true },
      ],
      [
        ["history on plain paths (baseline, best of two)", fixed(base * 1000), "1.00x"],
        [
          "history confined beneath the root",
          fixed(after.median * 1000),
          `${fixed(after.median / base, 2)}x (+${fixed((after.median - base) * 1000)} µs)`,
        ],
      ],
    )}`,
  );
}

/** History's own folders swapped for a link out while splice works: outside files changed. */
async function historySwaps(): Promise<void> {
  const ms = Number(process.env.SPLICE_BENCH_SECONDS ?? 10) * 1000;
  const rows: string[][] = [];
  for (const target of [".splice", ".splice/blobs", ".splice/locks"] as HistoryTarget[]) {
    const t = await raceHistory(target, { ms });
    rows.push([
      target,
      String(t.calls),
      String(t.refused),
      String(t.swaps),
      t.atomic ? "yes" : "no",
      String(t.outside.length),
    ]);
  }
  console.log(
    `\n${formatTable(
      [
        { header: `history folder swapped with a link out (${ms / 1000} s each)` },
        { header: "tool calls", right: true },
        { header: "refused", right: true },
        { header: "swaps", right: true },
        { header: "atomic", right: true },
        { header: "outside files changed", right: true },
      ],
      rows,
    )}`,
  );
}

defineBenchmark({
  name: "reliability",
  description:
    "locks and crashes: kill -9 at every step, stopped holders, dead-holder wait, lock cost",
  async run() {
    await lockCost();
    await historyConfineCost();
    await historySwaps();
    await deadHolderWait();
    await everyStep();
    await stoppedHolders();
  },
});
