/**
 * The cost of one `splice` command, as a person or an agent running it in a
 * shell pays it: a fresh process each time. Two parts:
 *
 * - start: `splice --help` (which loads no engine) against `node -e 0`, the
 *   floor; the bundled command (bin/splice) against the unbundled build it
 *   is made from;
 * - a large history: `splice history PATH` on a 100,000-event journal, with
 *   the journal indexed whole (no totals beside it) and read a path at a
 *   time (totals left by an earlier command).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serializeEvent } from "../src/history/journal.js";
import {
  defineBenchmark,
  environment,
  fixed,
  formatTable,
  measure,
  ms,
  Rng,
  type Stats,
  withScratchDir,
} from "./lib.js";

const RUNS = 10;
const EVENTS = 100_000;
const PATHS = 700;
const BUNDLED = fileURLToPath(new URL("../bin/splice", import.meta.url));
const UNBUNDLED = fileURLToPath(new URL("../dist/cli/start.js", import.meta.url));

/** Wall time of `node args` in `cwd`, RUNS times after one untimed run. */
function timeCommand(args: string[], cwd: string, before?: () => void): Promise<Stats> {
  return measure({ warmup: 1, runs: RUNS, before }, () => {
    const run = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`node ${args.join(" ")} failed: ${run.stderr}`);
  });
}

/** A journal of EVENTS reads and writes over PATHS files in 50 folders, three sessions. */
function writeJournal(dir: string): void {
  const rng = new Rng(7);
  const hex = (n: number) =>
    Array.from({ length: n }, () => "0123456789abcdef"[rng.int(0, 15)]).join("");
  const lines: string[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const sha = hex(64);
    const write = i % 3 === 0;
    lines.push(
      serializeEvent({
        id: hex(16),
        kind: write ? "write" : "read",
        path: `src/dir${i % 50}/file${i % PATHS}.ts`,
        session: i % 5 ? "cli" : `mcp-${i % 7}`,
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        sha,
        tag: sha.slice(0, 4).toUpperCase(),
        size: rng.int(1000, 2000),
        ...(write
          ? { before: { sha: hex(64), tag: "ABCD", size: 999 }, backup: `b${i}`, note: "edit" }
          : {}),
      }),
    );
  }
  mkdirSync(join(dir, ".splice"), { recursive: true });
  writeFileSync(join(dir, ".splice", "journal.jsonl"), `${lines.join("\n")}\n`);
}

export const cli = defineBenchmark({
  name: "cli",
  description: `a splice command's start, and one on a ${EVENTS.toLocaleString("en")}-event history`,
  async run() {
    if (!existsSync(UNBUNDLED)) throw new Error("dist/ is missing: run `npm run build` first.");
    await withScratchDir("splice-bench-cli-", async (dir) => {
      console.log(environment(dir));
      writeFileSync(join(dir, "a.txt"), "hello\n");
      const floor = await timeCommand(["-e", "0"], dir);
      const help = await timeCommand([BUNDLED, "--help"], dir);
      const unbundled = await timeCommand([UNBUNDLED, "read", "a.txt"], dir);
      const bundled = await timeCommand([BUNDLED, "read", "a.txt"], dir);

      const big = join(dir, "big");
      writeJournal(big);
      const totals = join(big, ".splice", "index-totals.json");
      const history = [BUNDLED, "history", "src/dir3/file3.ts"];
      const whole = await timeCommand(history, big, () => rmSync(totals, { force: true }));
      const byPath = await timeCommand(history, big);

      const row = (what: string, s: Stats, base?: Stats) => [
        what,
        ms(s.median),
        ms(s.p95),
        base ? `${fixed(s.median / base.median, 2)}x` : "",
      ];
      const columns = [
        { header: "command" },
        { header: "median ms", right: true },
        { header: "p95 ms", right: true },
        { header: "vs baseline", right: true },
      ];
      console.log(
        formatTable(columns, [
          row("node -e 0 (floor, baseline for --help)", floor),
          row("splice --help (target: within 2x)", help, floor),
          row("splice read a.txt, unbundled (baseline)", unbundled),
          row("splice read a.txt, bundled (bin/splice)", bundled, unbundled),
          row(`splice history, ${EVENTS / 1000}k events, indexed whole (baseline)`, whole),
          row(`splice history, ${EVENTS / 1000}k events, a path at a time`, byPath, whole),
        ]),
      );
      console.log(
        `\nMedian and p95 of ${RUNS} fresh processes after one untimed run. The history rows run the
bundled command on a generated journal (${PATHS} files, three sessions, a third of the events
writes); "indexed whole" removes index-totals.json before each run, as on the first command
after a compaction, "a path at a time" finds the totals the run before it left.`,
      );
    });
  },
});
