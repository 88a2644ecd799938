/**
 * The MCP host benchmark: round-trip latency of one tools/call over stdio,
 * a small read and a small edit, for splice's server (`splice serve`, the
 * built CLI) next to the reference filesystem server
 * (@modelcontextprotocol/server-filesystem: read_text_file, edit_file) in the
 * same run, on the same kind of file, through the same SDK client.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createToolkit } from "../src/toolkit/index.js";
import {
  defineBenchmark,
  environment,
  fixed,
  formatTable,
  ms,
  type Stats,
  summarize,
  withScratchDir,
} from "./lib.js";

const CALLS = 500;
/**
 * The untimed pause before each timed edit: a model thinks between calls
 * (seconds, in practice), and relaxed durability syncs in that time.
 */
const THINK_MS = 10;
const WARMUP = 25;
/** Calls alternate between the servers in rounds, so drift in the machine hits both alike. */
const ROUND = 50;
const FILE = "small.ts";
const LINES = 60;
const EDIT_LINE = 30;

const SPLICE_BIN = fileURLToPath(new URL("../bin/splice", import.meta.url));
const SPLICE_BUILT = fileURLToPath(new URL("../dist/cli/start.js", import.meta.url));
const REFERENCE_BIN = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url),
);

const line = (n: number, i: number) => `export const value${n} = ${i}; // line ${n}`;

function writeCorpus(dir: string): string {
  const path = join(dir, FILE);
  writeFileSync(path, `${Array.from({ length: LINES }, (_, i) => line(i + 1, 0)).join("\n")}\n`);
  return path;
}

/** One server under test: how to read the file and make the i-th edit. */
interface Subject {
  name: string;
  read(): Promise<unknown>;
  edit(i: number): Promise<unknown>;
  close(): Promise<void>;
  /** CPU milliseconds the server process has used so far, all its threads; undefined where unknown. */
  cpu(): number | undefined;
}

/** The kernel reports process times in USER_HZ ticks, 100 a second on every Linux ABI. */
const TICK_MS = 10;

/**
 * User plus system time of a process from /proc/PID/stat (Linux): the
 * figure a loaded machine distorts least, since a call's wall time there
 * is mostly waiting for a core.
 */
function processCpu(pid: number | null | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

async function connect(
  command: string[],
  name: string,
  env: Record<string, string> = {},
  onStderr?: (line: string) => void,
): Promise<{ client: Client; cpu: () => number | undefined }> {
  const client = new Client({ name: `bench-${name}`, version: "1.0.0" });
  const [bin, ...args] = command;
  const transport = new StdioClientTransport({
    command: bin!,
    args,
    stderr: onStderr ? "pipe" : "ignore",
    env: { ...getDefaultEnvironment(), ...env },
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n")) onStderr?.(line);
  });
  await client.connect(transport);
  return { client, cpu: () => processCpu(transport.pid) };
}

async function call(client: Client, name: string, args: object): Promise<CallToolResult> {
  const result = (await client.callTool({
    name,
    arguments: args as Record<string, unknown>,
  })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result;
}

const MODES = {
  relaxed: { name: "splice (default, relaxed)", env: {} },
  full: { name: "splice, SPLICE_DURABLE=full", env: { SPLICE_DURABLE: "full" } },
  none: { name: "splice, SPLICE_DURABLE=0", env: { SPLICE_DURABLE: "0" } },
} as const;

/** How often each row's servers' writes still waited for an fsync, as each logs when it stops. */
const waits = new Map<string, string>();

/**
 * Another build of splice to run beside this one in the same rounds
 * (`HOSTS_BASELINE=/path/to/checkout/bin/splice`), relaxed: a change's
 * before and after from one run, as the reference is.
 */
const BASELINE_BIN = process.env.HOSTS_BASELINE;
const BASELINE_NAME = "splice (relaxed), HOSTS_BASELINE build";

/** One splice server per durability mode (util/durable.ts); `baseline`: the HOSTS_BASELINE build. */
async function splice(
  dir: string,
  mode: keyof typeof MODES,
  row: string,
  baseline = false,
): Promise<Subject> {
  writeCorpus(dir);
  const { env } = MODES[mode];
  const name = baseline ? BASELINE_NAME : MODES[mode].name;
  const bin = baseline && BASELINE_BIN ? BASELINE_BIN : SPLICE_BIN;
  const command = [process.execPath, bin, "serve", "--root", dir];
  const { client, cpu } = await connect(
    command,
    "splice",
    { ...env, SPLICE_SYNC_STATS: "1" },
    (line) => {
      const stats = /sync stats (\{.*\})/.exec(line);
      if (!stats) return;
      const { writes, waited } = JSON.parse(stats[1]!) as { writes: number; waited: number };
      if (row === ROWS[0][0]) return; // the read row writes nothing
      waits.set(
        `${row}, ${name}`,
        `${waited} of ${writes} writes (${fixed((100 * waited) / Math.max(writes, 1), 1)}%)`,
      );
    },
  );
  const tagOf = (r: CallToolResult) =>
    (r._meta!["splice/result"] as { results: { file_hash: string }[] }).results[0]!.file_hash;
  let tag = tagOf(await call(client, "read", { targets: [{ path: FILE }] }));
  return {
    name,
    cpu,
    close: () => client.close(),
    read: () => call(client, "read", { targets: [{ path: FILE }] }),
    async edit(i) {
      const ops = `replace ${EDIT_LINE}:\n+${line(EDIT_LINE, i)}`;
      const result = await call(client, "edit", { targets: [{ path: FILE, file_hash: tag, ops }] });
      tag = tagOf(result);
      return result;
    },
  };
}

async function reference(dir: string): Promise<Subject> {
  const path = writeCorpus(dir);
  const { client, cpu } = await connect([process.execPath, REFERENCE_BIN, dir], "reference");
  let current = line(EDIT_LINE, 0);
  return {
    name: "reference",
    cpu,
    close: () => client.close(),
    read: () => call(client, "read_text_file", { path }),
    async edit(i) {
      const next = line(EDIT_LINE, i);
      const result = await call(client, "edit_file", {
        path,
        edits: [{ oldText: current, newText: next }],
      });
      current = next;
      return result;
    },
  };
}

/**
 * The same calls without MCP: splice's toolkit in this process. What is left
 * of splice's round trip after this is what the host and the transport add.
 */
function engine(dir: string): Subject {
  writeCorpus(dir);
  const toolkit = createToolkit({ root: dir, history: { session: "bench-engine" } });
  let tag = "";
  const read = async () => {
    const { results } = (await toolkit.call("read", { targets: [{ path: FILE }] })) as {
      results: { file_hash: string }[];
    };
    return results;
  };
  return {
    name: "splice engine, no MCP",
    // The bench's own process: its CPU would count the clients of the other servers too.
    cpu: () => undefined,
    close: async () => {},
    read,
    async edit(i) {
      if (tag === "") tag = (await read())[0]!.file_hash;
      const ops = `replace ${EDIT_LINE}:\n+${line(EDIT_LINE, i)}`;
      const { results } = (await toolkit.call("edit", {
        targets: [{ path: FILE, file_hash: tag, ops }],
      })) as { results: { file_hash: string }[] };
      tag = results[0]!.file_hash;
    },
  };
}

/** The issue's targets against the reference (same run): subject k is a MODES entry, in order. */
function verdict(operation: string, k: number, ours: Stats, theirs: Stats): string {
  const median = ours.median / theirs.median;
  const p95 = ours.p95 / theirs.p95;
  const judge = (ok: boolean, target: string) => `${ok ? "ok" : "MISSED"} (${target})`;
  if (operation === "read") return judge(median <= 1, "median <= 1.0x");
  if (operation !== "edit") return "";
  if (k === 0) return judge(median <= 1.3 && p95 <= 1, "median <= 1.3x, p95 <= 1.0x");
  if (k === 1) return judge(median <= 3, "median <= 3x");
  return "";
}

/**
 * Untimed, after each round: the background work a round's calls left
 * (fsyncs, late looks at a replaced file) finishes and counts towards the
 * server's CPU, not in the next server's round.
 */
const SETTLE_MS = 150;

/** What one subject's calls of one kind took: wall time per call, and its server's CPU per call. */
interface Timed {
  stats: Stats;
  cpuPerCall: number | undefined;
}

/** Milliseconds per call of each subject, alternating subjects every ROUND calls. */
async function timeCalls(
  subjects: Subject[],
  op: (s: Subject, i: number) => Promise<unknown>,
  thinkMs = 0,
): Promise<Timed[]> {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const samples: number[][] = subjects.map(() => []);
  const cpu: (number | undefined)[] = subjects.map(() => 0);
  let i = 0;
  for (const s of subjects) for (let w = 0; w < WARMUP; w++) await op(s, ++i);
  await pause(SETTLE_MS);
  for (let done = 0; done < CALLS; done += ROUND) {
    for (const [k, s] of subjects.entries()) {
      const before = s.cpu();
      for (let r = 0; r < ROUND; r++) {
        if (thinkMs > 0) await pause(thinkMs);
        const start = performance.now();
        await op(s, ++i);
        samples[k]!.push(performance.now() - start);
      }
      await pause(SETTLE_MS);
      const after = s.cpu();
      const used = before === undefined || after === undefined ? undefined : after - before;
      cpu[k] = used === undefined || cpu[k] === undefined ? undefined : cpu[k]! + used;
    }
  }
  return samples.map((calls, k) => ({
    stats: summarize(calls),
    cpuPerCall: cpu[k] === undefined ? undefined : cpu[k]! / calls.length,
  }));
}

function checkEdited(dir: string, subject: string): void {
  const lines = readFileSync(join(dir, FILE), "utf8").split("\n");
  if (
    lines.length !== LINES + 1 ||
    !lines[EDIT_LINE - 1]!.startsWith(`export const value${EDIT_LINE} =`)
  ) {
    throw new Error(`${subject}: ${FILE} is not what the edits should have left`);
  }
}

/** The subjects of one row, each in a folder of its own under `dir`: the splice servers first. */
async function startSubjects(dir: string, row: string): Promise<Subject[]> {
  const folder = (name: string) => {
    const d = join(dir, name);
    mkdirSync(d, { recursive: true });
    return d;
  };
  return [
    await splice(folder("relaxed"), "relaxed", row),
    await splice(folder("full"), "full", row),
    await splice(folder("none"), "none", row),
    await reference(folder("reference")),
    engine(folder("engine")),
    ...(BASELINE_BIN ? [await splice(folder("baseline"), "relaxed", row, true)] : []),
  ];
}

/** The subject folders startSubjects makes, in its order. */
const FOLDERS = [
  "relaxed",
  "full",
  "none",
  "reference",
  "engine",
  ...(BASELINE_BIN ? ["baseline"] : []),
];

/** The splice servers, each judged against the reference (the subject after them). */
const COMPARED = 3;

const ROWS = [
  ["read", (s: Subject) => s.read(), 0],
  ["edit", (s: Subject, i: number) => s.edit(i), THINK_MS],
  ["edit, back to back", (s: Subject, i: number) => s.edit(i), 0],
] as const;

export const hosts = defineBenchmark({
  name: "hosts",
  description: `MCP round trip over stdio: ${CALLS} small reads and edits, splice vs the reference filesystem server`,
  async run() {
    if (!existsSync(SPLICE_BUILT)) throw new Error("dist/ is missing: run `npm run build` first.");
    await withScratchDir("splice-bench-hosts-", async (dir) => {
      console.log(environment(dir));
      const rows: string[][] = [];
      // Fresh servers for each row, so each row's servers log the waits of that row alone.
      for (const [k, [operation, op, think]] of ROWS.entries()) {
        const rowDir = join(dir, `row-${k}`);
        const subjects = await startSubjects(rowDir, operation);
        let timed: Timed[];
        try {
          timed = await timeCalls(subjects, op, think);
        } finally {
          await Promise.all(subjects.map((s) => s.close()));
        }
        if (k > 0) {
          for (const name of FOLDERS) {
            checkEdited(join(rowDir, name), `${operation}, ${name}`);
          }
        }
        const theirs = timed[COMPARED]!;
        for (const [j, s] of subjects.entries()) {
          const { stats: ours, cpuPerCall } = timed[j]!;
          const ratio = (a: number, b: number) => `${fixed(a / b, 2)}x`;
          // The baseline build is judged as the relaxed server is (verdict's subject 0).
          const baseline = BASELINE_BIN !== undefined && j === subjects.length - 1;
          const judged = j < COMPARED || baseline;
          const cpuRatio =
            judged && cpuPerCall !== undefined && theirs.cpuPerCall
              ? ratio(cpuPerCall, theirs.cpuPerCall)
              : "";
          rows.push([
            operation,
            s.name,
            ms(ours.median),
            ms(ours.p95),
            judged ? ratio(ours.median, theirs.stats.median) : "",
            judged ? ratio(ours.p95, theirs.stats.p95) : "",
            cpuPerCall === undefined ? "" : ms(cpuPerCall),
            cpuRatio,
            judged ? verdict(operation, baseline ? 0 : j, ours, theirs.stats) : "",
          ]);
        }
      }
      console.log();
      console.log(
        formatTable(
          [
            { header: "call" },
            { header: "server" },
            { header: "median ms", right: true },
            { header: "p95 ms", right: true },
            { header: "splice/ref median", right: true },
            { header: "splice/ref p95", right: true },
            { header: "server CPU ms/call", right: true },
            { header: "splice/ref CPU", right: true },
            { header: "target" },
          ],
          rows,
        ),
      );
      console.log(`
${CALLS} timed calls per row after ${WARMUP} warm-up calls, alternating servers every ${ROUND}
calls; one client per server over stdio (the SDK's Client and StdioClientTransport), fresh
servers for each row. The file has ${LINES} short lines; the edit replaces line ${EDIT_LINE} each
time (splice: line op with the tag from the previous result; reference: edit_file
oldText/newText). splice's answer carries the hashline text and the JSON result; its edit also
takes a lock that holds across processes, checks the file did not change under it, stores both
versions in history and checks the new version's syntax. By default (relaxed) the old version
is durable in history before the file is replaced (synced ahead when the file was read or
written, so an edit usually waits for nothing) and the new bytes are fsynced in the background;
SPLICE_DURABLE=full fsyncs the old version, the journal and the file before answering;
SPLICE_DURABLE=0 skips the fsyncs (writes stay atomic and survive the process being killed).
The reference server fsyncs nothing.
"edit" waits ${THINK_MS} ms (untimed, every server alike) before each timed edit, as a model
thinks between calls; "edit, back to back" does not: there each edit replaces the version the
previous one wrote a moment ago, so relaxed durability must wait for its background fsync.
"splice engine, no MCP" is the same read and edit through createToolkit in this process:
splice's MCP round trip minus that row is what the host and the stdio transport add.
"server CPU ms/call" is the server process's user and system time (all threads, /proc) over
its timed calls and a ${SETTLE_MS} ms pause after each round, so background fsyncs count too. On
2 shared cores a call's wall time is mostly its CPU plus waiting for a core: the CPU column
is the figure other load distorts least.${BASELINE_BIN ? `\n"${BASELINE_NAME}" is ${BASELINE_BIN}, in the same rounds.` : ""}`);
      // Each server logs its counts as it stops (SPLICE_SYNC_STATS=1).
      const expected = (ROWS.length - 1) * (COMPARED + (BASELINE_BIN ? 1 : 0));
      for (let waited = 0; waited < 3000 && waits.size < expected; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      console.log("\nWrites whose hot path still waited for an fsync (warm-up calls included):");
      for (const [name, count] of waits) console.log(`  ${name}: ${count}`);
    });
  },
});
