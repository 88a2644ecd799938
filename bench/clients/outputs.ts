/**
 * `npm run bench -- client-outputs`: large results in the real clients.
 * Two scenarios per client. "outputs": the five kinds of large output issue
 * #39 names (a read of 2,000 and of 10,000 lines, a search with 1,000
 * matches, a run with 1 MB of output, a big patch's diff) with splice's
 * default output budget: did the model see splice's whole text, and its
 * continuation (the last line, which says how to see the rest)? "limits": reads
 * of growing size with the budget lifted, so each client's own limit shows:
 * the largest text it passed on whole and the smallest it cut.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixed, formatTable } from "../lib.js";
import type { ClientRun, Pair } from "./measure.js";
import { makeProject } from "./project.js";
import { type Scenario, spliceServe } from "./scenarios.js";
import type { Step } from "./script.js";

/** A line of code-like text, about 60 bytes with its number (as test/toolkit/output-budget.test.ts). */
const codeLine = (i: number) => `  const value${i} = compute(${i}, "some text to make it longer");`;
const lines = (n: number, line = codeLine) =>
  `${Array.from({ length: n }, (_, i) => line(i + 1)).join("\n")}\n`;

function write(dir: string, rel: string, text: string): void {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

const PATCHED_FILES = 400;
const patchedName = (f: number) => `patched/file-with-a-long-name-${f}.ts`;

/** The five kinds, in the order they are called. */
export const OUTPUT_KINDS = [
  "read, 2,000 lines",
  "read, 10,000 lines",
  "search, 1,000 matches",
  "run, 1 MB of output",
  "patch, 400 files",
] as const;

function makeOutputsProject(dir: string): void {
  makeProject(dir);
  write(dir, "big-2000.ts", lines(2_000));
  write(dir, "big-10000.ts", lines(10_000));
  for (let f = 0; f < 20; f++) write(dir, `many/m${String(f).padStart(2, "0")}.ts`, lines(50));
  for (let f = 0; f < PATCHED_FILES; f++) {
    write(dir, patchedName(f), "const a = 1;\nconst b = 2;\n");
  }
}

function outputSteps(): Step[] {
  let patch = "";
  for (let f = 0; f < PATCHED_FILES; f++) {
    const name = patchedName(f);
    patch += `--- a/${name}\n+++ b/${name}\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 10;\n const b = 2;\n`;
  }
  return [
    { tool: "read", args: { path: "big-2000.ts" } },
    { tool: "read", args: { path: "big-10000.ts" } },
    { tool: "search", args: { pattern: "compute(", path: "many", limit: 1_000 } },
    { tool: "run", args: { command: "seq 1 160000" } },
    { tool: "patch", args: { patch } },
  ];
}

export const OUTPUTS_SCENARIO: Scenario = {
  name: "outputs",
  needsBuild: true,
  makeProject: makeOutputsProject,
  server: (project) => spliceServe(project),
  steps: outputSteps,
};

/** Characters of splice's text each "limits" read is sized to (lines of 100 bytes, plus `N| `). */
export const LIMIT_SIZES = [
  16_000, 24_000, 32_000, 40_000, 44_000, 48_000, 56_000, 64_000, 96_000, 128_000,
];
const LIMIT_LINE = (i: number) => `${"x".repeat(90)} ${String(i).padStart(8, "0")}`;
/** Text of a read of `n` such lines: the header, then `N| ` and the line, each with its newline. */
const limitLines = (chars: number) => Math.round(chars / 106);

export const LIMITS_SCENARIO: Scenario = {
  name: "limits",
  needsBuild: true,
  makeProject(dir) {
    makeProject(dir);
    for (const size of LIMIT_SIZES)
      write(dir, `sized/${size}.txt`, lines(limitLines(size), LIMIT_LINE));
  },
  // The budget lifted, so the client's own limit is what cuts.
  server: (project) => spliceServe(project, "--output-budget", "1000000"),
  steps: () => LIMIT_SIZES.map((size) => ({ tool: "read", args: { path: `sized/${size}.txt` } })),
};

/** The text's last line when it says how to see the rest (a bracketed notice), else undefined. */
export function continuationOf(text: string): string | undefined {
  const last = text.trimEnd().split("\n").at(-1) ?? "";
  return last.startsWith("[") ? last : undefined;
}

export interface Outcome {
  text: number;
  seen: number | undefined;
  whole: boolean;
  /** Whether the continuation line reached the model; undefined when the text has none. */
  continuation: boolean | undefined;
}

export function outcomeOf({ text, seen }: Pair): Outcome {
  const line = continuationOf(text);
  return {
    text: text.length,
    seen: seen?.length,
    whole: seen !== undefined && text !== "" && seen.includes(text),
    continuation: line === undefined ? undefined : seen?.includes(line) === true,
  };
}

const count = (n: number | undefined) => (n === undefined ? "never" : n.toLocaleString("en-US"));
const yesNo = (b: boolean | undefined) => (b === undefined ? "-" : b ? "yes" : "NO");

/** One row per client and kind: splice's text, what the model saw, and whether whole. */
export function formatOutputs(runs: readonly ClientRun[]): string {
  const rows = runs.flatMap((run) =>
    run.pairs.map((pair, i) => {
      const o = outcomeOf(pair);
      return [
        `${run.client.name} ${run.client.version}`,
        OUTPUT_KINDS[i] ?? "?",
        count(o.text),
        count(o.seen),
        yesNo(o.whole),
        yesNo(o.continuation),
      ];
    }),
  );
  return [
    formatTable(
      [
        { header: "client" },
        { header: "output" },
        { header: "splice text", right: true },
        { header: "model saw", right: true },
        { header: "whole text" },
        { header: "continuation line" },
      ],
      rows,
    ),
    "\nsplice text = chars of splice's result (default budget, 24,000 bytes); model saw = chars of the tool result the client handed the model, its own framing included.",
    ...failures(runs),
  ].join("\n");
}

/** Per client, the largest text it passed on whole and the smallest it cut, and what it kept of that. */
export function formatLimits(runs: readonly ClientRun[]): string {
  const rows = runs.map((run) => {
    const outcomes = run.pairs.map(outcomeOf);
    const whole = outcomes.filter((o) => o.whole).map((o) => o.text);
    const cut = outcomes.filter((o) => !o.whole && o.seen !== undefined);
    const firstCut = cut.sort((a, b) => a.text - b.text)[0];
    return [
      `${run.client.name} ${run.client.version}`,
      whole.length ? count(Math.max(...whole)) : "none",
      firstCut ? count(firstCut.text) : "none cut",
      firstCut
        ? `${count(firstCut.seen)} (${fixed((firstCut.seen ?? 0) / firstCut.text, 2)})`
        : "-",
    ];
  });
  return [
    formatTable(
      [
        { header: "client" },
        { header: "largest whole", right: true },
        { header: "smallest cut", right: true },
        { header: "model saw of it", right: true },
      ],
      rows,
    ),
    `\nReads of ${LIMIT_SIZES.map((s) => count(s)).join(", ")} chars with --output-budget 1000000; chars of splice's text.`,
    ...failures(runs),
  ].join("\n");
}

function failures(runs: readonly ClientRun[]): string[] {
  return runs.flatMap((run) =>
    run.failure
      ? [`\nFAILED ${run.client.name}: ${run.failure}\n${run.output.trim().slice(-1500)}`]
      : [],
  );
}
