/**
 * The table of a client run: per tool, the characters of splice's text
 * content, the characters the model was handed, and their ratio, which the
 * issue wants at most TARGET_RATIO in every client.
 */
import { fixed, formatTable } from "../lib.js";
import type { ClientRun, Row } from "./measure.js";

export const TARGET_RATIO = 1.1;

const count = (n: number) => n.toLocaleString("en-US");

export function ratioOf(row: { text: number; seen: number | undefined }): number | undefined {
  return row.seen === undefined || row.text === 0 ? undefined : row.seen / row.text;
}

/**
 * The ratio without the client's own framing: what the server's result
 * shape makes the client pass on, the part a server can change. Undefined
 * when the framing cannot be told (a cut or unknown shape): then the whole
 * ratio stands.
 */
export function netRatioOf(row: Row): number | undefined {
  if (row.seen === undefined || row.text === 0) return undefined;
  return (row.seen - (row.framing ?? 0)) / row.text;
}

export function formatRuns(runs: readonly ClientRun[]): string {
  const rows: string[][] = [];
  for (const run of runs) {
    const label = `${run.client.name} ${run.client.version}`;
    if (run.rows.length === 0) {
      rows.push([label, "-", "-", "-", "-", "-", "-", "-", "-"]);
      continue;
    }
    for (const row of run.rows) {
      const ratio = ratioOf(row);
      const net = netRatioOf(row);
      const show = (r: number | undefined) => (r === undefined ? "-" : fixed(r, 2));
      rows.push([
        label,
        row.tool + (row.isError ? " (error)" : ""),
        count(row.text),
        row.seen === undefined ? "never" : count(row.seen),
        show(ratio),
        row.framing === undefined ? "?" : count(row.framing),
        `${show(net)}${net !== undefined && net > TARGET_RATIO ? " !" : ""}`,
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
      { header: "client's own", right: true },
      { header: "net ratio", right: true },
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
    [
      "",
      "ratio = chars the model saw ÷ chars of splice's text content for the same call (the baseline: 1.00).",
      "client's own = chars the client adds around what it passes on, whatever the server sends;",
      `net ratio = the ratio without them, the part the server's result shape decides; "!" marks one over ${TARGET_RATIO}.`,
    ].join("\n"),
    ...failures.map((f) => `\nFAILED ${f}`),
  ].join("\n");
}

/** Which shape of each probe result each client passed on: one row per shape, one column per client. */
export function formatProbe(runs: readonly ClientRun[], shapes: readonly string[]): string {
  const rows = shapes.map((shape) => [
    shape,
    ...runs.map((run) =>
      run.failure ? "failed" : (run.rows.find((r) => r.tool === shape)?.passed ?? "-"),
    ),
  ]);
  const table = formatTable(
    [
      { header: "result shape" },
      ...runs.map((run) => ({ header: `${run.client.name} ${run.client.version}` })),
    ],
    rows,
  );
  const failures = runs.flatMap((run) =>
    run.failure ? [`\nFAILED ${run.client.name}: ${run.failure}`] : [],
  );
  return [
    table,
    "\nWhat reached the model of a probe result (bench/clients/probe-server.mjs): text = the content block, structuredContent = its JSON.",
    ...failures,
  ].join("\n");
}
