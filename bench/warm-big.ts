/**
 * Row 5 of the warm benchmark: `splice run true` on 100,000 committed files
 * in 1,000 folders, warm (the engine's root watch running, so its checkpoint
 * re-stats only what the watch named) against `git status --porcelain`, and
 * the same with --no-engine.
 *
 * The tree goes to WARM_100K_DIR when set, else to /dev/shm when that is a
 * tmpfs, else to the scratch folder: making and removing it, its history
 * (the first run reads every file into history) and its index is some
 * 300,000 files, which on a slow shared disk takes minutes by itself.
 */
import { accessSync, constants, mkdtempSync, readFileSync, statfsSync } from "node:fs";
import { join } from "node:path";
import { environment, ms } from "./lib.js";
import { bigTree } from "./warm-fixtures.js";
import {
  type BenchEngine,
  inotifyWatches,
  mark,
  print,
  type Ran,
  sampleInTurn,
  type Target,
  timed,
  watchesAtLeast,
  withinRatio,
} from "./warm-lib.js";

export const BIG_FILES = 100_000;
const BIG_RUNS = 5;
const BIG_NO_ENGINE_RUNS = 3;
const TMPFS = 0x01021994;

/** Where the tree is made (see above). */
function treeParent(scratch: string): string {
  const asked = process.env.WARM_100K_DIR;
  if (asked) return asked;
  try {
    if (statfsSync("/dev/shm").type !== TMPFS) return scratch;
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return scratch;
  }
}

export async function bigRow(
  engine: BenchEngine,
  scratch: string,
  leftovers: string[],
): Promise<Target[]> {
  const parent = treeParent(scratch);
  const dir = mkdtempSync(join(parent, "splice-bench-warm-100k-"));
  leftovers.push(dir); // removed once the engine, which watches it, has stopped
  console.log(environment(parent));
  const made = performance.now();
  bigTree(dir, BIG_FILES);
  const limit = readFileSync("/proc/sys/fs/inotify/max_user_watches", "utf8").trim();
  console.log(
    `${BIG_FILES.toLocaleString("en")} files in ${BIG_FILES / 100} folders, made and committed in ${ms(performance.now() - made)} ms; inotify max_user_watches ${limit}`,
  );
  // The first run ever in a root reads every file into history; outside the engine, so the
  // engine's first run below is the one that starts its watch, no more.
  const capture = engine.splice(["run", "true", "--no-engine"], dir);
  const pid = engine.status()!.pid;
  const watchesBefore = inotifyWatches(pid);
  const first = engine.splice(["run", "true"], dir);
  // The watch starts beside the command, not before it ends: wait for it, and say how long.
  const folders = BIG_FILES / 100;
  const { watches, waitedMs } = await watchesAtLeast(pid, watchesBefore + folders, 60_000);
  console.log(
    watches - watchesBefore >= folders
      ? `The engine's root watch holds ${watches - watchesBefore} inotify watches on the tree, up ${ms(waitedMs)} ms after the engine's first run ended.`
      : `The root watch did not start within 60 s: the engine holds ${watches - watchesBefore} new inotify watches (limit ${limit}); the warm runs walk the tree.`,
  );
  const run = (extra: string[]) => () => engine.splice(["run", "true", ...extra], dir).ms;
  const git = () => timed("git", ["status", "--porcelain"], dir, engine.env).ms;
  const s = await sampleInTurn(1, BIG_RUNS, { git, warm: run([]) });
  const solo = await sampleInTurn(0, BIG_NO_ENGINE_RUNS, { noEngine: run(["--no-engine"]) });
  const t = withinRatio("run true at 100,000 files, warm", s.warm.median, s.git.median, 1.5);
  const once = (ran: Ran) => ({ runs: 1, median: ran.ms, p95: ran.ms, min: ran.ms });
  print([
    { what: "git status --porcelain (baseline)", stats: s.git },
    {
      what: "splice run true --no-engine, first in the root",
      stats: once(capture),
      base: s.git.median,
    },
    {
      what: "splice run true, first in the engine (starts the watch)",
      stats: once(first),
      base: s.git.median,
    },
    {
      what: "splice run true, warm",
      stats: s.warm,
      base: s.git.median,
      target: `<= 1.5x: ${mark(t.pass)}`,
    },
    { what: "  --no-engine", stats: solo.noEngine, base: s.git.median },
  ]);
  console.log(
    `\nThe first run in the root (outside the engine) reads every file into history; the engine's
first run starts its watch; warm runs alternate with git status, ${BIG_RUNS} each after one untimed.`,
  );
  return [t];
}
