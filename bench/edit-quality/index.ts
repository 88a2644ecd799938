/**
 * The edit-quality benchmark: ~650 old_text/new_text edits on real files from
 * node_modules, quoted the ways models get them wrong, scored for exact-only
 * matching, splice and the reference MCP filesystem server side by side;
 * plus the matcher's time on a 1 MB file with an anchored-only old_text.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineBenchmark, environment, fixed, formatTable, ms, withScratchDir } from "../lib.js";
import {
  BASE_CLASSES,
  type Case,
  type CaseClass,
  DELTA_CLASSES,
  generateCases,
  SEED,
  wanted,
} from "./cases.js";
import { loadCorpus, SOURCES } from "./corpus.js";
import { type Engine, exactOnly, splicePure, spliceTakesTextEdits, spliceTool } from "./engines.js";
import { referenceServer } from "./reference.js";
import {
  APPLY_TARGET,
  DELTA_APPLY_TARGET,
  type DeltaTargets,
  deltaTargets,
  judge,
  type Scored,
  type Tally,
  type Targets,
  tallyByClass,
  targetStatus,
  targets,
} from "./scorer.js";
import { TIMING_LINES, TIMING_RUNS, TIMING_TARGET_MS, timeMatcher } from "./timing.js";
import { WHITESPACE_CLASSES } from "./whitespace-cases.js";

const NODE_MODULES = fileURLToPath(new URL("../../node_modules", import.meta.url));
/** Wrong and missed splice cases listed in full. */
const SHOW_FAILURES = 25;

async function score(engine: Engine, cases: readonly Case[]): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const c of cases) {
    const outcome = await engine.run(c);
    out.push({ case: c, outcome, verdict: judge(c, outcome) });
  }
  return out;
}

const cell = (t: Tally) => `${t.applied_ok} / ${t.refused_ok} / ${t.wrong}`;

function classTable(engines: Engine[], all: Scored[][], classes: readonly CaseClass[]): string {
  const results = all.map((r) => r.filter((s) => classes.includes(s.case.cls)));
  const tallies = results.map(tallyByClass);
  const rows = tallies[0]!.rows.map(([cls, t], i) => [
    cls,
    String(t.cases),
    wanted(cls),
    ...tallies.flatMap((x) => [cell(x.rows[i]![1]), String(x.rows[i]![1].missed)]),
  ]);
  rows.push([
    "total",
    String(tallies[0]!.total.cases),
    "",
    ...tallies.flatMap((x) => [cell(x.total), String(x.total.missed)]),
  ]);
  return formatTable(
    [
      { header: "class" },
      { header: "cases", right: true },
      { header: "want" },
      ...engines.flatMap((e) => [
        { header: `${e.name}: ok / refused / WRONG`, right: true },
        { header: "missed", right: true },
      ]),
    ],
    rows,
  );
}

function targetTable(engines: Engine[], results: Scored[][]): string {
  const t = results.map(targets);
  const s = t[engines.findIndex((e) => e.name === "splice")]!;
  const status = targetStatus(s);
  const pct = (a: number, b: number) => `${a}/${b} (${fixed((100 * a) / Math.max(1, b))}%)`;
  const rows: [string, (x: Targets) => string, boolean][] = [
    ["zero wrong applications", (x) => String(x.wrong), status.zeroWrong],
    [
      `>= ${APPLY_TARGET * 100}% of certain-target cases applied correctly`,
      (x) => pct(x.certainApplied, x.certainCases),
      status.applied,
    ],
    [
      "every ambiguous, ambiguous_fuzzy and hallucinated case refused",
      (x) => pct(x.mustRefuseRefused, x.mustRefuseCases),
      status.refused,
    ],
  ];
  return formatTable(
    [
      { header: "target" },
      ...engines.map((e) => ({ header: e.name, right: true })),
      { header: "splice" },
    ],
    rows.map(([name, value, met]) => [name, ...t.map(value), met ? "met" : "MISSED"]),
  );
}

function deltaTargetTable(engines: Engine[], results: Scored[][]): string {
  const t = results.map(deltaTargets);
  const s = t[engines.findIndex((e) => e.name === "splice")]!;
  const pct = (a: number, b: number) => `${a}/${b} (${fixed((100 * a) / Math.max(1, b))}%)`;
  const rows: [string, (x: DeltaTargets) => string, boolean][] = [
    [
      `>= ${DELTA_APPLY_TARGET * 100}% of delta_* cases applied to the exact expected bytes`,
      (x) => pct(x.applied, x.cases),
      s.cases > 0 && s.applied / s.cases >= DELTA_APPLY_TARGET,
    ],
    [
      "0 wrong on ambiguous, hallucinated, near_duplicate and typo_in_changed",
      (x) => String(x.wrongOnRefusals),
      s.wrongOnRefusals === 0,
    ],
  ];
  return formatTable(
    [
      { header: "target" },
      ...engines.map((e) => ({ header: e.name, right: true })),
      { header: "splice" },
    ],
    rows.map(([name, value, met]) => [name, ...t.map(value), met ? "met" : "MISSED"]),
  );
}

/** The first line where two texts differ, for a wrong application. */
function firstDifference(expected: string, got: string, want = "expected", have = "got"): string {
  const a = expected.split("\n");
  const b = got.split("\n");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const show = (s: string | undefined) =>
    s === undefined ? "<end>" : JSON.stringify(s.slice(0, 90));
  return `line ${i + 1}: ${want} ${show(a[i])}, ${have} ${show(b[i])}`;
}

function failures(scored: Scored[]): string[] {
  const bad = scored.filter((s) => s.verdict === "wrong" || s.verdict === "missed");
  const byClass = new Map<CaseClass, number>();
  for (const s of bad) byClass.set(s.case.cls, (byClass.get(s.case.cls) ?? 0) + 1);
  // A few of each class first, so one noisy class does not hide the others.
  const picked: Scored[] = [];
  for (let round = 0; picked.length < Math.min(SHOW_FAILURES, bad.length); round++) {
    for (const cls of byClass.keys()) {
      const s = bad.filter((x) => x.case.cls === cls)[round];
      if (s && picked.length < SHOW_FAILURES) picked.push(s);
    }
  }
  return picked.map((s) => {
    const c = s.case;
    let why: string;
    if (s.verdict === "missed") why = `refused: ${s.outcome.message ?? ""}`;
    else if (c.expected.kind === "refuse") {
      why =
        s.outcome.reported === "refused"
          ? "refused but changed the file"
          : s.outcome.after === c.original
            ? "reported success, file unchanged"
            : `applied: ${firstDifference(c.original, s.outcome.after, "the file had", "now")}`;
    } else if (s.outcome.reported === "refused") why = "refused but changed the file";
    else if (c.expected.kind === "unchanged") {
      why = `changed a file that already held new_text: ${firstDifference(c.original, s.outcome.after, "the file had", "now")}`;
    } else if (s.outcome.after === c.original) why = "reported success, file unchanged";
    else why = firstDifference(c.expected.text, s.outcome.after);
    const crash = s.outcome.crashed ? " [CRASH]" : "";
    return `  ${s.verdict.toUpperCase()}${crash} ${c.id} ${c.file}:${c.line} (${c.what})\n      ${why.slice(0, 300)}`;
  });
}

export const editQuality = defineBenchmark({
  name: "edit-quality",
  description:
    "old_text/new_text edits quoted as models get them wrong: exact-only vs splice vs the reference MCP server",
  async run() {
    const corpus = loadCorpus(NODE_MODULES, SEED);
    const bytes = corpus.files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
    const packages = SOURCES.filter((s) => corpus.files.some((f) => f.path.startsWith(`${s.dir}/`)))
      .map((s) => s.dir)
      .join(", ");
    console.log(
      `corpus: ${corpus.files.length} files, ${fixed(bytes / 1024, 0)} KiB, from node_modules/{${packages}} (seed 0x${SEED.toString(16)})`,
    );
    const started = performance.now();
    const cases = generateCases(corpus.files);
    console.log(
      `cases: ${cases.length} generated in ${fixed((performance.now() - started) / 1000)} s\n`,
    );

    await withScratchDir("splice-bench-edit-quality-", async (dir) => {
      console.log(environment(dir));
      const probe = await spliceTakesTextEdits(join(dir, "splice"));
      const engines: Engine[] = [
        exactOnly(join(dir, "exact")),
        probe.ok ? spliceTool(join(dir, "splice")) : splicePure(join(dir, "splice")),
        await referenceServer(join(dir, "reference")),
      ];
      const results: Scored[][] = [];
      try {
        for (const engine of engines) {
          const t0 = performance.now();
          results.push(await score(engine, cases));
          console.log(
            `  ${engine.name}: ${fixed((performance.now() - t0) / 1000)} s — ${engine.how}`,
          );
        }
      } finally {
        await Promise.all(engines.map((e) => e.close()));
      }
      console.log(
        `  splice engine choice: ${probe.ok ? "tool API" : "pure replaceText"} (${probe.why})`,
      );

      console.log(
        `\nPer class: applied correctly / refused correctly / WRONG (any other write), and missed (refused where an application was expected).\n`,
      );
      console.log(classTable(engines, results, BASE_CLASSES));
      console.log("\nTargets (from the issue), judged for splice:\n");
      console.log(targetTable(engines, results));
      console.log(
        "\nMisremembered lines anywhere in the quote (first, last, middle; 1 or 2 typos), and the near-duplicates and changed-line typos that must still refuse — same run:\n",
      );
      console.log(classTable(engines, results, DELTA_CLASSES));
      console.log("\nDelta targets, judged for splice:\n");
      console.log(deltaTargetTable(engines, results));
      console.log(
        '\nWhitespace-only edits (old_text and new_text differ only in indentation): the exact quote re-indented must apply, a file that already holds new_text must be left as it is ("no change"), a quote with neither\'s whitespace must be refused — same run:\n',
      );
      console.log(classTable(engines, results, WHITESPACE_CLASSES));

      const notes = results.map((r, i) => {
        const { total } = tallyByClass(r);
        const certain = r.filter((x) => x.case.expected.kind === "apply");
        const split = [true, false].map((nl) => {
          const part = certain.filter((x) => x.case.oldText.endsWith("\n") === nl);
          return `${part.filter((x) => x.verdict === "applied_ok").length}/${part.length}`;
        });
        return `${engines[i]!.name}: ${total.wrong} wrong, of which ${total.wrong_whitespace_only} differ from the expected file only in whitespace; ${total.crashed} crashed; certain targets applied when old_text ends with a newline ${split[0]}, without ${split[1]}`;
      });
      console.log(`\n${notes.join("\n")}`);

      const spliceScored = results[1]!;
      const modes = new Map<string, number>();
      for (const s of spliceScored) {
        if (s.outcome.reported !== "applied") continue;
        const key = `${s.outcome.mode ?? "?"} ${s.verdict === "applied_ok" ? "ok" : "WRONG"}`;
        modes.set(key, (modes.get(key) ?? 0) + 1);
      }
      const modeLine = [...modes]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, n]) => `${key} ${n}`)
        .join(", ");
      console.log(`splice applications by match_mode: ${modeLine}`);
      const bad = failures(spliceScored);
      const wrong = spliceScored.filter((s) => s.verdict === "wrong").length;
      const missed = spliceScored.filter((s) => s.verdict === "missed").length;
      console.log(
        `\nsplice: ${wrong} wrong, ${missed} missed${bad.length > 0 ? ` (showing ${bad.length}, a few per class):` : "."}`,
      );
      for (const line of bad) console.log(line);
    });

    const timing = await timeMatcher(corpus.files.concat(corpus.spare), SEED);
    const ratio = (s: { median: number }) => `${fixed(s.median / timing.indexOf.median, 1)}x`;
    console.log(
      `\nMatcher timing: ${fixed(timing.bytes / 1e6, 2)} MB of real code, a ${TIMING_LINES}-line old_text from line ${timing.line} with 2 misremembered middle lines (found by rung "${timing.rung}"); median over ${TIMING_RUNS} runs after 3 warm-up runs.\n`,
    );
    console.log(
      formatTable(
        [
          { header: "operation" },
          { header: "median ms", right: true },
          { header: "p95 ms", right: true },
          { header: "x indexOf", right: true },
          { header: "target" },
          { header: "status" },
        ],
        [
          ["baseline: indexOf (exact-only; finds nothing)", timing.indexOf, false],
          ["findMatch", timing.findMatch, true],
          ["replaceText (match + apply)", timing.replaceText, true],
        ].map(([name, s, judged]) => {
          const stats = s as typeof timing.indexOf;
          return [
            name as string,
            ms(stats.median),
            ms(stats.p95),
            ratio(stats),
            judged ? `< ${TIMING_TARGET_MS} ms` : "",
            judged ? (stats.median < TIMING_TARGET_MS ? "ok" : "over") : "",
          ];
        }),
      ),
    );
  },
});
