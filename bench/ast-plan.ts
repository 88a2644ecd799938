/**
 * The CPU `ast_edit` spends per file before anything is written (issue 19):
 * over the bulk benchmark's 120 test files, the rewrite (parse, match, render
 * 2,160 replacements) and the syntax check of the results (a parse and a walk
 * for parse errors), 16 files at a time as the plan runs them — beside the
 * parser's own floor from the same run: parsing the originals and finding the
 * pattern's matches, which `ast-grep --update-all` pays too; and beside
 * `ast-grep --update-all`'s whole run on the same files, its process's CPU
 * (every thread) as bash's `time` reports it.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { type Language, languageOf, parseCode } from "../src/code/languages.js";
import { prepareOps, rewriteText } from "../src/code/rewrite.js";
import { checkEditAsync, syntaxProblems } from "../src/code/syntax-check.js";
import { withText } from "../src/codebase/rewrite-plan.js";
import { parseDocument } from "../src/text/document.js";
import { mapLimit } from "../src/util/map-limit.js";
import { BULK_FILES, plantBulkProject, testFile } from "./bulk-fixture.js";
import {
  defineBenchmark,
  formatTable,
  measure,
  ms,
  type Stats,
  summarize,
  withScratchDir,
} from "./lib.js";

const AST_GREP = join(import.meta.dirname, "..", "node_modules", ".bin", "ast-grep");

const OP = { pat: "expect($A).toBe($B)", out: "expect($A).toStrictEqual($B)" };
const RUNS = 15;

/** CPU milliseconds of the process (every thread: the pool's parses too) while `fn` runs. */
async function cpuOf(fn: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await fn();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

/** Wall-clock figures from measure, and the median CPU of the same timed runs. */
async function timed(
  options: Parameters<typeof measure>[0],
  fn: () => unknown,
): Promise<{ wall: Stats; cpu: number }> {
  const cpu: number[] = [];
  const wall = await measure(options, async (i) => {
    const used = await cpuOf(fn);
    if (i >= options.warmup) cpu.push(used);
  });
  return { wall, cpu: cpu.sort((a, b) => a - b)[cpu.length >> 1]! };
}

/** `ast-grep -U` over a project planted afresh for each run: its wall time and its process's CPU. */
function astGrepRuns(dir: string): { wall: Stats; cpu: number } {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < 2 + RUNS; i++) {
    plantBulkProject(dir, BULK_FILES, 1000 + i);
    spawnSync("sync"); // as in the bulk benchmark: the files on disk, as a project's are
    const script = `TIMEFORMAT='%3R %3U %3S'; time "$0" run -p "$1" -r "$2" -U test >/dev/null`;
    const run = spawnSync("bash", ["-c", script, AST_GREP, OP.pat, OP.out], {
      cwd: dir,
      encoding: "utf8",
    });
    const [real, user, sys] = run.stderr.trim().split(/\s+/).slice(-3).map(Number);
    if (run.status !== 0 || !(real! > 0)) throw new Error(`ast-grep failed: ${run.stderr}`);
    if (i < 2) continue;
    walls.push(real! * 1000);
    cpus.push((user! + sys!) * 1000);
  }
  return { wall: summarize(walls), cpu: cpus.sort((a, b) => a - b)[cpus.length >> 1]! };
}

/** Fresh texts per run, so no cache of a previous run's strings helps. */
const textsFor = (run: number) =>
  Array.from({ length: BULK_FILES }, (_, i) => testFile(i, 1000 + run));

defineBenchmark({
  name: "ast-plan",
  description: `ast_edit's CPU per file before writing (rewrite, syntax check) over ${BULK_FILES} files, beside parse + findAll alone`,
  async run() {
    // First, while this process is idle: its parser threads and collector then take no core from it.
    const astGrep = await withScratchDir("ast-plan", async (dir) => astGrepRuns(dir));
    const ts = languageOf("a.ts") as Language;
    const ops = prepareOps([OP]);
    let texts: string[] = [];
    const fresh = {
      warmup: 2,
      runs: RUNS,
      before: (i: number) => {
        texts = textsFor(i);
      },
    };
    let matches = 0;
    const floor = await timed(fresh, () => {
      matches = 0;
      for (const text of texts) matches += parseCode(ts, text).root().findAll(OP.pat).length;
    });
    const rewritten: { before: string; after: string; root: unknown }[] = [];
    const rewriteAll = () =>
      mapLimit(texts, 16, async (text, i) => {
        const r = await rewriteText(ts, text, ops, () => false);
        rewritten[i] = { before: text, after: r.text, root: r.root };
      });
    const rewrite = await timed(fresh, rewriteAll);
    let warned = 0;
    const check = await timed(
      {
        ...fresh,
        before: (i) => {
          texts = textsFor(i);
          return rewriteAll();
        },
      },
      () =>
        mapLimit(rewritten, 16, async ({ before, after, root }) => {
          const doc = parseDocument(before);
          const problems = () => syntaxProblems(root as Parameters<typeof syntaxProblems>[0]);
          const next = withText(doc, after);
          if (await checkEditAsync("a.ts", doc, next, problems)) warned++;
        }),
    );
    if (matches !== 18 * BULK_FILES || warned > 0) {
      throw new Error(`the fixture changed: ${matches} matches, ${warned} syntax warnings`);
    }
    type Timed = { wall: Stats; cpu: number };
    const row = (what: string, s: Timed, base?: Timed, note = "") => [
      what,
      ms(s.cpu),
      ms(s.wall.median),
      ms(s.wall.p95),
      base ? `${(s.cpu / base.cpu).toFixed(2)}×` : "",
      note,
    ];
    console.log(
      formatTable(
        [
          { header: `${BULK_FILES} files, ${matches} matches` },
          { header: "CPU ms", right: true },
          { header: "median ms", right: true },
          { header: "p95 ms", right: true },
          { header: "CPU × floor", right: true },
          { header: "note" },
        ],
        [
          row("floor: parse + findAll (sync)", floor),
          row("rewrite: parse, match, render", rewrite, floor),
          row("syntax check of the results", check, floor, "a second parse and a walk"),
          row("ast-grep -U, its whole run", astGrep, floor, "its process, every thread"),
        ],
      ),
    );
  },
});
