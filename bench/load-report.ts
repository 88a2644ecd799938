/**
 * What the load benchmark (bench/load.ts) measured, as its table and the
 * targets of #42 (printed PASS/FAIL, never failing the run).
 */
import { fixed, formatTable, ms } from "./lib.js";

/** Milliseconds of every call, and of each tool's; errors with the first few texts. */
export type Tally = Record<"all" | "read" | "edit", number[]> & { errors: number; texts: string[] };

export const newTally = (): Tally => ({ all: [], read: [], edit: [], errors: 0, texts: [] });

/** Counts a failed call (an isError result, a throw, a lost write) and keeps its text. */
export function failed(tally: Tally, what: string, text: string): void {
  tally.errors++;
  if (tally.texts.length < 5) tally.texts.push(`${what}: ${text.replace(/\s+/g, " ")}`);
}

export interface Row {
  server: "stdio" | "http";
  sessions: number;
  /** The timed loop: from its start until the last session's last call answered. */
  wallMs: number;
  tally: Tally;
  /** Before the loop, untimed: each session reads its counter and takes one turn, all at once. */
  warmMs: number;
  warm: Tally;
  /** Connecting every session; undefined for stdio (the client starts the server). */
  openMs?: number;
  /** VmRSS after one probe session opened and closed, then with every session initialized. */
  rssBefore?: number;
  rssIdle?: number;
  /** VmRSS after the loop. */
  rssEnd: number;
  serverCpuMs: number;
  /** Time the server's threads waited for a CPU while ready to run: the machine's share of the latency. */
  serverQueuedMs: number;
  /** This process: every client. */
  benchCpuMs: number;
}

const MIB = 1024 * 1024;

/** Nearest-rank percentile; NaN for no samples. */
function percentile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

const perSecond = (row: Row) => row.tally.all.length / (row.wallMs / 1000);
const errors = (row: Row) => row.tally.errors + row.warm.errors;
const idlePerSession = (row: Row) =>
  row.rssIdle === undefined ? undefined : (row.rssIdle - row.rssBefore!) / row.sessions;
const mib = (bytes: number | undefined) => (bytes === undefined ? "-" : fixed(bytes / MIB));
const kib = (bytes: number | undefined) => (bytes === undefined ? "-" : fixed(bytes / 1024, 0));
const share = (cpuMs: number, row: Row) => `${fixed((100 * cpuMs) / row.wallMs, 0)}%`;
const pct =
  (q: number, of: "all" | "read" | "edit" = "all") =>
  (row: Row) =>
    ms(percentile(row.tally[of], q));

const COLUMNS: [string, (row: Row) => string][] = [
  ["server", (r) => r.server],
  ["sessions", (r) => String(r.sessions)],
  ["open s", (r) => (r.openMs === undefined ? "-" : fixed(r.openMs / 1000))],
  ["warm-up s", (r) => fixed(r.warmMs / 1000)],
  ["calls", (r) => String(r.tally.all.length)],
  ["calls/s", (r) => fixed(perSecond(r))],
  ["p50", pct(0.5)],
  ["p95", pct(0.95)],
  ["p99", pct(0.99)],
  ["read p50", pct(0.5, "read")],
  ["edit p50", pct(0.5, "edit")],
  ["errors", (r) => `${r.tally.errors}${r.warm.errors ? ` +${r.warm.errors} warm-up` : ""}`],
  ["RSS before", (r) => mib(r.rssBefore)],
  ["RSS idle", (r) => mib(r.rssIdle)],
  ["KiB/idle session", (r) => kib(idlePerSession(r))],
  ["RSS end", (r) => mib(r.rssEnd)],
  [
    "server CPU (ms/call)",
    (r) => `${share(r.serverCpuMs, r)} (${ms(r.serverCpuMs / r.tally.all.length)})`,
  ],
  ["server run-queue (ms/call)", (r) => ms(r.serverQueuedMs / r.tally.all.length)],
  ["bench CPU", (r) => share(r.benchCpuMs, r)],
];

export function printTable(rows: Row[]): void {
  const columns = COLUMNS.map(([header], i) => ({ header, right: i > 0 }));
  const cells = rows.map((row) => COLUMNS.map(([, cell]) => cell(row)));
  console.log(formatTable(columns, cells));
  console.log(`
Latencies in ms per call of the timed loop (the warm-up's calls are not in them). RSS in MiB, VmRSS
of the server process: before = after one probe session opened and closed; idle = every session
initialized, no call yet; end = after the loop. CPU: a share of one core over the timed loop, the
server's also in ms per call; bench = this process, every client. Run-queue: how long the server's
threads waited for a CPU while ready to run (Linux schedstat), per call: what a shared machine adds.`);
  for (const row of rows) {
    const texts = [...row.warm.texts.map((t) => `warm-up ${t}`), ...row.tally.texts];
    if (texts.length > 0) console.log(`\nfirst errors, ${row.server} x${row.sessions}:`);
    for (const text of texts.slice(0, 5)) console.log(`  ${text}`);
  }
}

export function printChecks(rows: Row[]): void {
  const http = (n: number) => rows.find((r) => r.server === "http" && r.sessions === n);
  const rate = (r?: Row) => (r ? fixed(perSecond(r)) : "-");
  const ratio = (r: Row) => percentile(r.tally.all, 0.99) / percentile(r.tally.all, 0.5);
  const [four, many, most] = [http(4), http(64), http(256)];
  const spread = rows.filter((r) => !(ratio(r) <= 4));
  const spreadText = spread.map((r) => `${r.server} x${r.sessions} (${fixed(ratio(r))}x)`);
  const largest = rows.filter((r) => r.server === "http").at(-1);
  const perIdle = largest && idlePerSession(largest);
  const checks: [boolean | undefined, string][] = [
    [
      four && many && perSecond(many) >= perSecond(four),
      `throughput at 64 sessions >= at 4: ${rate(many)} vs ${rate(four)} calls/s`,
    ],
    [
      spread.length === 0,
      `p99 <= 4 x p50 in every row${spread.length ? `; not in ${spreadText.join(", ")}` : ""}`,
    ],
    [
      perIdle === undefined ? undefined : perIdle <= 0.5 * MIB,
      `memory per idle session <= 0.5 MiB: ${kib(perIdle)} KiB at ${largest?.sessions ?? "-"} sessions`,
    ],
    [most && errors(most) === 0, `256 sessions with 0 errors: ${most ? errors(most) : "-"}`],
  ];
  const verdict = (ok: boolean | undefined) => (ok === undefined ? "n/a " : ok ? "PASS" : "FAIL");
  console.log("\ntargets (#42), reported, not enforced:");
  for (const [ok, text] of checks) console.log(`  ${verdict(ok)}  ${text}`);
}
