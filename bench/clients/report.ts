/**
 * The table of a client run: per tool, the characters of splice's text
 * content, the characters the model was handed, and their ratio, which the
 * issue wants at most TARGET_RATIO in every client.
 */
import { fixed, formatTable } from "../lib.js";
import type { ClientRun } from "./measure.js";

export const TARGET_RATIO = 1.1;

const count = (n: number) => n.toLocaleString("en-US");

export function ratioOf(row: { text: number; seen: number | undefined }): number | undefined {
  return row.seen === undefined || row.text === 0 ? undefined : row.seen / row.text;
}

export function formatRuns(runs: readonly ClientRun[]): string {
  const rows: string[][] = [];
  for (const run of runs) {
    const label = `${run.client.name} ${run.client.version}`;
    if (run.rows.length === 0) {
      rows.push([label, "-", "-", "-", "-", "-", "-"]);
      continue;
    }
    for (const row of run.rows) {
      const ratio = ratioOf(row);
      rows.push([
        label,
        row.tool + (row.isError ? " (error)" : ""),
        count(row.text),
        row.seen === undefined ? "never" : count(row.seen),
        ratio === undefined ? "-" : `${fixed(ratio, 2)}${ratio > TARGET_RATIO ? " !" : ""}`,
        row.passed,
        count(row.structured),
      ]);
    }
  }
  const table = formatTable(
    [
      { header: "client" },
      { header: "tool" },
      { header: "splice text", right: true },
      { header: "model saw", right: true },
      { header: "ratio", right: true },
      { header: "passed on" },
      { header: "JSON(structured)", right: true },
    ],
    rows,
  );
  const failures = runs.flatMap((run) =>
    run.failure ? [`${run.client.name}: ${run.failure}\n${run.output.trim().slice(-1500)}`] : [],
  );
  return [
    table,
    `\nratio = chars the model saw ÷ chars of splice's text content, for the same call (baseline: the text content, 1.00); "!" marks one over ${TARGET_RATIO}.`,
    ...failures.map((f) => `\nFAILED ${f}`),
  ].join("\n");
}
