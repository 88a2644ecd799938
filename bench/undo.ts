/**
 * Undo as a revert (issue #35) against today's wholesale restore (`force`),
 * sampled in turn in the same run so a shared machine slows both alike:
 * one file and a 100-file session, each unchanged since the session (the
 * revert's exact path) and changed since on other lines (a three-way merge
 * per file). Targets: a 100-file undo within 2 s, one file within 1.3x force.
 * Then undo's list of 10 sessions (it checks each session reverts cleanly,
 * and the review page reloads it on every change), and the property test of
 * test/tools/undo.property.test.ts with SPLICE_UNDO_BENCH_RUNS sequences
 * (default 2,000).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSplice } from "../src/splice.js";
import {
  defineBenchmark,
  environment,
  formatTable,
  measure,
  measureInTurn,
  ms,
  type Stats,
  withScratchDir,
} from "./lib.js";

const LINES = 200;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

const source = (i: number) =>
  Array.from({ length: LINES }, (_, k) => `export const v${i}_${k} = ${k}; // line ${k + 1}`)
    .join("\n")
    .concat("\n");

interface Case {
  name: string;
  files: number;
  /** Another program changes a far line of every file after the session. */
  changedSince: boolean;
}

const CASES: Case[] = [
  { name: "1 file, unchanged since", files: 1, changedSince: false },
  { name: "1 file, changed since elsewhere", files: 1, changedSince: true },
  { name: "100 files, unchanged since", files: 100, changedSince: false },
  { name: "100 files, changed since elsewhere", files: 100, changedSince: true },
];

async function undoCase(dir: string, c: Case): Promise<[Stats, Stats]> {
  const root = join(dir, c.name.replaceAll(/\W+/g, "-"));
  mkdirSync(root, { recursive: true });
  const paths = Array.from({ length: c.files }, (_, i) => `src/f${i}.ts`);
  for (const [i, p] of paths.entries()) {
    mkdirSync(join(root, "src"), { recursive: true });
    writeFileSync(join(root, p), source(i));
  }
  const s = createSplice({ root, lsp: false, history: { session: "bench" } });
  let id = "";
  let round = 0;
  // A fresh session before each sample: line 10 of every file changed (and line 150 by hand).
  const before = async () => {
    round++;
    const targets = paths.map((path) => {
      const text = readFileSync(join(root, path), "utf8").split("\n");
      text[9] = `export const changed = ${round};`;
      return { path, text: text.join("\n") };
    });
    const { results } = await s.write({ targets });
    id = results[0]!.backup_session!;
    if (c.changedSince) {
      for (const p of paths) {
        const text = readFileSync(join(root, p), "utf8").split("\n");
        text[149] = `export const formatted = ${round};`;
        writeFileSync(join(root, p), text.join("\n"));
      }
    }
  };
  const runs = c.files === 1 ? 30 : 6;
  return measureInTurn(
    { warmup: c.files === 1 ? 5 : 1, runs, before },
    () => s.undo({ backup_session: id }),
    () => s.undo({ backup_session: id, force: true }),
  );
}

async function listCase(dir: string): Promise<Stats> {
  const root = join(dir, "list");
  mkdirSync(join(root, "src"), { recursive: true });
  const s = createSplice({ root, lsp: false, history: { session: "bench" } });
  for (let i = 0; i < 10; i++) {
    const targets = Array.from({ length: 10 }, (_, k) => ({
      path: `src/f${k}.ts`,
      text: source(i * 10 + k),
    }));
    await s.write({ targets });
  }
  return measure({ warmup: 3, runs: 20 }, () => s.undo({ list: true }));
}

function propertyRuns(): { runs: number; seconds: number; ok: boolean } {
  const runs = Number(process.env.SPLICE_UNDO_BENCH_RUNS) || 2_000;
  const start = performance.now();
  const r = spawnSync("npx", ["vitest", "run", "test/tools/undo.property.test.ts"], {
    cwd: ROOT,
    env: { ...process.env, SPLICE_PROPERTY_RUNS: String(runs) },
    encoding: "utf8",
  });
  return { runs, seconds: (performance.now() - start) / 1000, ok: r.status === 0 };
}

defineBenchmark({
  name: "undo",
  description: "undo as a revert vs the wholesale restore (force); list; the property at scale",
  async run() {
    await withScratchDir("splice-bench-undo-", async (dir) => {
      console.log(environment(dir));
      const rows: string[][] = [];
      for (const c of CASES) {
        const [revert, force] = await undoCase(dir, c);
        const target = c.files === 1 ? "<= 1.3x" : "<= 2000 ms";
        rows.push([
          c.name,
          ms(revert.median),
          ms(revert.p95),
          ms(force.median),
          `${(revert.median / force.median).toFixed(2)}x`,
          target,
        ]);
      }
      console.log(
        formatTable(
          [
            { header: "undo of" },
            { header: "revert ms", right: true },
            { header: "p95", right: true },
            { header: "force ms", right: true },
            { header: "ratio", right: true },
            { header: "target" },
          ],
          rows,
        ),
      );
      const list = await listCase(dir);
      console.log(
        `\nundo {"list": true}, 10 sessions of 10 files: median ${ms(list.median)} ms, p95 ${ms(list.p95)} ms`,
      );
    });
    const p = propertyRuns();
    console.log(
      `property (test/tools/undo.property.test.ts): ${p.runs} sequences in ${p.seconds.toFixed(1)} s, ${p.ok ? "passed" : "FAILED"}`,
    );
  },
});
