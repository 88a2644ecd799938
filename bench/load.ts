/**
 * Many agents, one server (#42): a real `splice serve --http` process and N
 * real MCP SDK clients (N = 1, 4, 16, 64, 256), each in a closed loop that
 * reads 50 lines of a neighbour's file and edits a counter line of its own
 * file by old_text/new_text. Per row: throughput, latency percentiles,
 * errors, the server's RSS with N idle sessions and at the end, and the CPU
 * the server and this process (every client) spent. A stdio server with one
 * client runs the same loop as the baseline. A fresh server per row.
 *
 * Env: LOAD_SESSIONS=1,4,16 (the HTTP rows), LOAD_SECONDS=5 (per row), LOAD_CALLS=N
 * (also stop a session after N calls), LOAD_SERVE_FLAGS="--no-watch" (for `splice serve`),
 * LOAD_NODE_ARGS="--cpu-prof --cpu-prof-dir=D" (node's flags for the HTTP server),
 * LOAD_BUNDLE=<another build's dist/cli-bundle/start.js> (a before/after in one sitting),
 * LOAD_TRACE=1 (every call over a second, and the server's stderr, as they happen).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { defineBenchmark, environment, withScratchDir } from "./lib.js";
import { failed, newTally, printChecks, printTable, type Row, type Tally } from "./load-report.js";

const SESSIONS = (process.env.LOAD_SESSIONS ?? "1,4,16,64,256").split(",").map(Number);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 5);
const CALLS = process.env.LOAD_CALLS ? Number(process.env.LOAD_CALLS) : Number.POSITIVE_INFINITY;
const SERVE_FLAGS = (process.env.LOAD_SERVE_FLAGS ?? "").split(/\s+/).filter(Boolean);
const NODE_ARGS = (process.env.LOAD_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
const FILES = Math.max(300, ...SESSIONS.map((n) => n + 1));
const LINES = 200;
/** The line each session's edits change; neighbours read the 50 lines around it. */
const COUNTER_LINE = 100;
const READ_RANGE = `${COUNTER_LINE - 24}..${COUNTER_LINE + 25}`;
const TOKEN = "load-bench-token";
/** Sessions opened at once while a row connects. */
const OPEN_AT_ONCE = 16;
const ROOT_DIR = fileURLToPath(new URL("..", import.meta.url));
const BUNDLE = process.env.LOAD_BUNDLE ?? join(ROOT_DIR, "dist/cli-bundle/start.js");
const BIN = process.env.LOAD_BUNDLE ?? join(ROOT_DIR, "bin/splice");

const fileName = (i: number) => `f${String(i).padStart(3, "0")}.txt`;
const counterLine = (i: number, count: number) => `counter of ${fileName(i)}: ${count}`;

function writeProject(dir: string): void {
  for (let i = 0; i < FILES; i++) {
    const lines = Array.from({ length: LINES }, (_, k) =>
      k + 1 === COUNTER_LINE
        ? counterLine(i, 0)
        : `${fileName(i)} line ${k + 1}: the quick brown fox jumps over the lazy dog`,
    );
    writeFileSync(join(dir, fileName(i)), `${lines.join("\n")}\n`);
  }
}

// ---------------------------------------------------------------- the server process

/** VmRSS of a process in bytes (Linux), 0 where unknown. */
function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Milliseconds a process's threads waited for a CPU while ready to run
 * (Linux schedstat), 0 where unknown: the part of a call's time a shared
 * machine takes, not the server.
 */
function runQueueOf(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/task`).reduce((sum, task) => {
      const fields = readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ");
      return sum + Number(fields[1]) / 1e6;
    }, 0);
  } catch {
    return 0;
  }
}

/** User plus system CPU milliseconds of a process (Linux; 100 ticks a second), 0 where unknown. */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

interface HttpServer {
  url: URL;
  pid: number;
  stop(): Promise<void>;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/** `splice serve --http 0 --token T`; resolves once it prints the address it listens on. */
async function startHttpServer(dir: string): Promise<HttpServer> {
  const args = [
    ...NODE_ARGS,
    BIN,
    "serve",
    "--root",
    dir,
    "--http",
    "0",
    "--token",
    TOKEN,
    ...SERVE_FLAGS,
  ];
  // The server in a process of its own, so its memory and CPU are this process's (not the engine's).
  const env = { ...process.env, SPLICE_ENGINE: "0" };
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], env });
  let said = "";
  const url = await new Promise<URL>((resolve, reject) => {
    // Read to the end (a full pipe would stall the server); the last 4 KB say why it stopped.
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      said = (said + chunk).slice(-4096);
      if (process.env.LOAD_TRACE) process.stdout.write(`server: ${chunk}`);
      const found = /serving over HTTP at (\S+)/.exec(said);
      if (found) resolve(new URL(found[1]!));
    });
    child.once("exit", (code) => reject(new Error(`splice serve exited (${code}): ${said}`)));
  });
  return { url, pid: child.pid!, stop: () => stopProcess(child) };
}

function connectHttp(url: URL, i: number): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  });
  const client = new Client({ name: `load-${i}`, version: "1.0.0" });
  return client.connect(transport).then(() => client);
}

/** `count` clients, at most OPEN_AT_ONCE connecting at a time. */
async function connectMany(url: URL, count: number): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < count; i += OPEN_AT_ONCE) {
    const batch = Array.from({ length: Math.min(OPEN_AT_ONCE, count - i) }, (_, k) => i + k);
    clients.push(...(await Promise.all(batch.map((k) => connectHttp(url, k)))));
  }
  return clients;
}

const pause = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

// ---------------------------------------------------------------- the agents

interface Agent {
  client: Client;
  own: number;
  neighbour: number;
  /** The counter on the own file's COUNTER_LINE, as this agent last wrote or read it; NaN: unknown. */
  count: number;
  /** Calls made, counted from the start of the timed loop. */
  calls: number;
}

function textOf(result: CallToolResult): string {
  return result.content
    .map((c) => (c.type === "text" ? c.text : `[${c.type}]`))
    .join("\n")
    .slice(0, 300);
}

/** One tools/call, timed into `tally`; undefined when it failed (an isError result or a throw). */
async function call(
  agent: Agent,
  tool: "read" | "edit",
  args: Record<string, unknown>,
  tally: Tally,
): Promise<CallToolResult | undefined> {
  const start = performance.now();
  agent.calls++;
  let result: CallToolResult | undefined;
  try {
    result = (await agent.client.callTool({ name: tool, arguments: args })) as CallToolResult;
    if (result.isError) failed(tally, `${tool} (session ${agent.own})`, textOf(result));
  } catch (error) {
    failed(tally, `${tool} (session ${agent.own}) threw`, String(error));
  }
  const elapsed = performance.now() - start;
  if (process.env.LOAD_TRACE && elapsed > 1000)
    console.log(
      `slow ${tool} s${agent.own} at ${(start % 100000).toFixed(0)} took ${elapsed.toFixed(0)} ${result?.isError ? "ERR" : ""}`,
    );
  tally.all.push(elapsed);
  tally[tool].push(elapsed);
  return result?.isError ? undefined : result;
}

/** Reads the own file's counter line: what the next edit quotes. */
async function learnCount(agent: Agent, tally: Tally): Promise<void> {
  const path = fileName(agent.own);
  const target = { path, line_range: `${COUNTER_LINE}` };
  const result = await call(agent, "read", { targets: [target] }, tally);
  if (!result) return; // counted by call(); the count stays unknown
  const found = /counter of \S+: (\d+)/.exec(textOf(result));
  if (!found) return failed(tally, `read of ${path}`, `no counter line in ${textOf(result)}`);
  agent.count = Number(found[1]);
}

/** One turn (stopping early at `until`): 50 lines of the neighbour's file, then the own counter up by one. */
async function turn(agent: Agent, tally: Tally, until = Number.POSITIVE_INFINITY): Promise<void> {
  const neighbour = { path: fileName(agent.neighbour), line_range: READ_RANGE };
  await call(agent, "read", { targets: [neighbour] }, tally);
  // Past the deadline no call starts: the loop's tail is at most one call long.
  if (performance.now() >= until || agent.calls >= CALLS) return;
  if (Number.isNaN(agent.count)) await learnCount(agent, tally);
  if (Number.isNaN(agent.count)) return;
  const old_text = counterLine(agent.own, agent.count);
  const new_text = counterLine(agent.own, agent.count + 1);
  const own = { path: fileName(agent.own), edits: [{ old_text, new_text }] };
  const edited = await call(agent, "edit", { targets: [own] }, tally);
  // A failed edit leaves the counter unknown: the next turn reads it first, as an agent would.
  agent.count = edited ? agent.count + 1 : Number.NaN;
}

/** Every agent in its closed loop until the deadline (or CALLS calls each); the wall time. */
async function loop(agents: Agent[], tally: Tally): Promise<number> {
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  await Promise.all(
    agents.map(async (agent) => {
      agent.calls = 0;
      while (agent.calls < CALLS && performance.now() < deadline) {
        await turn(agent, tally, deadline);
      }
    }),
  );
  return performance.now() - start;
}

/** Each own file must hold the counter its agent last wrote: an edit answered as done but lost is an error. */
function checkDisk(dir: string, agents: Agent[], tally: Tally): void {
  for (const agent of agents.filter((a) => !Number.isNaN(a.count))) {
    const line = readFileSync(join(dir, fileName(agent.own)), "utf8").split("\n")[COUNTER_LINE - 1];
    const expected = counterLine(agent.own, agent.count);
    if (line !== expected) failed(tally, "on disk", `${line} (expected "${expected}")`);
  }
}

// ---------------------------------------------------------------- rows

/** Warms every agent (one untimed turn, which reads its counter first), runs the timed loop, checks the disk. */
async function drive(
  dir: string,
  clients: Client[],
  pid: number,
): Promise<Omit<Row, "server" | "sessions">> {
  const n = clients.length;
  const agents = clients.map((client, own) => ({
    client,
    own,
    neighbour: (own + 1) % Math.max(n, 2),
    count: Number.NaN,
    calls: 0,
  }));
  const [warm, warmed] = [newTally(), performance.now()];
  await Promise.all(agents.map((a) => turn(a, warm)));
  const warmMs = performance.now() - warmed;
  const tally = newTally();
  const [cpu, bench, queued] = [cpuOf(pid), process.cpuUsage(), runQueueOf(pid)];
  const wallMs = await loop(agents, tally);
  const serverCpuMs = cpuOf(pid) - cpu;
  const serverQueuedMs = runQueueOf(pid) - queued;
  const used = process.cpuUsage(bench);
  const rssEnd = rssOf(pid);
  checkDisk(dir, agents, tally);
  const benchCpuMs = (used.user + used.system) / 1000;
  return { wallMs, tally, warmMs, warm, rssEnd, serverCpuMs, serverQueuedMs, benchCpuMs };
}

async function httpRow(dir: string, sessions: number): Promise<Row> {
  const server = await startHttpServer(dir);
  const clients: Client[] = [];
  try {
    // A probe session first, so the idle figure starts with the tools' code loaded.
    const probe = await connectHttp(server.url, -1);
    await probe.callTool({ name: "read", arguments: { targets: [{ path: fileName(0) }] } });
    await (probe.transport as StreamableHTTPClientTransport).terminateSession();
    await probe.close();
    await pause(500);
    const rssBefore = rssOf(server.pid);
    const opened = performance.now();
    clients.push(...(await connectMany(server.url, sessions)));
    const openMs = performance.now() - opened;
    await pause(1000);
    const rssIdle = rssOf(server.pid);
    const figures = await drive(dir, clients, server.pid);
    return { server: "http", sessions, openMs, rssBefore, rssIdle, ...figures };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await server.stop();
  }
}

async function stdioRow(dir: string): Promise<Row> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "serve", "--root", dir, "--no-engine", ...SERVE_FLAGS],
    stderr: "ignore",
  });
  const client = new Client({ name: "load-stdio", version: "1.0.0" });
  await client.connect(transport);
  try {
    return { server: "stdio", sessions: 1, ...(await drive(dir, [client], transport.pid!)) };
  } finally {
    await client.close();
  }
}

defineBenchmark({
  name: "load",
  description: "many agents, one server: N MCP clients over HTTP reading and editing at once",
  async run() {
    if (!existsSync(BUNDLE))
      spawnSync("npm", ["run", "build"], { cwd: ROOT_DIR, stdio: "inherit" });
    await withScratchDir("splice-bench-load-", async (dir) => {
      writeProject(dir);
      console.log(`${environment(dir)}\n${FILES} files of ${LINES} lines; ${SECONDS} s a row`);
      const rows: Row[] = [];
      for (const row of [() => stdioRow(dir), ...SESSIONS.map((n) => () => httpRow(dir, n))]) {
        // A row that could not run (a server that did not start) is said; the others still run.
        await row().then(
          (done) => rows.push(done),
          (error: unknown) => console.log(`a row failed: ${String(error)}`),
        );
      }
      printTable(rows);
      printChecks(rows);
    });
  },
});
