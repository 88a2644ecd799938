/**
 * One engine for every client on a root (#36): what two MCP clients (as
 * Claude Code and Codex start `splice serve` on one repository) and the
 * command line cost together, with the engine and with each process on its
 * own (`SPLICE_ENGINE=0`, how splice ran before the engine): how many
 * language servers run for the root and the resident memory of every
 * process splice started. And how long `splice serve` takes to answer
 * `initialize` (spawn to the client's `connect` resolving), against the
 * reference MCP filesystem server in the same run.
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { defineBenchmark, environment, formatTable, ms, withScratchDir } from "./lib.js";
import { TYPESCRIPT } from "./warm-fixtures.js";
import {
  BenchEngine,
  CLI,
  mark,
  type Proc,
  processTree,
  ratio,
  sampleInTurn,
  sleep,
  timed,
} from "./warm-lib.js";

const REFERENCE = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url),
);
const INIT_WARMUP = 1;
const INIT_RUNS = 9;
/** Processes that are a language server (tsgo, tsserver, typescript-language-server, pyright…). */
const LANGUAGE_SERVER =
  /tsgo|tsserver|typescript-language-server|pyright|basedpyright|gopls|rust-analyzer/;

interface Started {
  client: Client;
  transport: StdioClientTransport;
  ms: number;
}

/** Spawns an MCP server over stdio and connects: `ms` is spawn to initialized. */
async function start(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    env: env as Record<string, string>,
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-shared", version: "1" });
  const begun = performance.now();
  await client.connect(transport);
  return { client, transport, ms: performance.now() - begun } satisfies Started;
}

const serve = (cwd: string, env: NodeJS.ProcessEnv) =>
  start(process.execPath, [CLI, "serve"], cwd, env);

/** One edit through a server, so its root's language server starts and gives a verdict. */
async function editThrough(s: Started, n: number): Promise<void> {
  const result = await s.client.callTool({
    name: "edit",
    arguments: {
      path: TYPESCRIPT.file,
      edits: [{ old_text: `RETRIES = ${n}`, new_text: `RETRIES = ${n + 1}` }],
    },
  });
  if (result.isError) throw new Error(`edit refused: ${JSON.stringify(result.content)}`);
}

interface Setup {
  label: string;
  procs: Proc[];
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * Two servers and a CLI edit on one TypeScript project, each making an edit
 * with its type verdict; then every process splice left running for it.
 */
async function clientsOnOneRoot(
  label: string,
  dir: string,
  env: NodeJS.ProcessEnv,
  engine?: BenchEngine,
): Promise<Setup> {
  TYPESCRIPT.make(dir);
  const servers = [await serve(dir, env), await serve(dir, env)];
  try {
    await editThrough(servers[0]!, 0);
    await editThrough(servers[1]!, 1);
    const cli = ["edit", TYPESCRIPT.file, "--old", "RETRIES = 2", "--new", "RETRIES = 3"];
    const ran = engine
      ? engine.splice([...cli, "--validate"], dir)
      : timed(process.execPath, [CLI, ...cli, "--validate"], dir, env);
    if (ran.status !== 0) throw new Error(`splice edit exited ${ran.status}: ${ran.stderr}`);
    await sleep(500);
    const pids = servers.map((s) => s.transport.pid!);
    const enginePid = engine?.status()?.pid;
    if (enginePid !== undefined) pids.push(enginePid);
    // The engine a server started is also in that server's tree: count each process once.
    const procs = new Map(pids.flatMap(processTree).map((p) => [p.pid, p]));
    return { label, procs: [...procs.values()] };
  } finally {
    for (const s of servers) await s.client.close();
  }
}

defineBenchmark({
  name: "shared",
  description:
    "two MCP clients and the CLI on one root: language servers and memory with and without the engine; serve's initialize against the reference server (#36)",
  async run() {
    await withScratchDir("splice-bench-shared-", async (scratch) => {
      console.log(environment(scratch));
      const engine = new BenchEngine();
      try {
        const alone = { ...engine.env, SPLICE_ENGINE: "0" };
        const setups = [
          await clientsOnOneRoot("engine", join(scratch, "with"), engine.env, engine),
          await clientsOnOneRoot("each on its own", join(scratch, "without"), alone),
        ];
        console.log("\nTwo `splice serve` clients and a CLI edit on one TypeScript project:");
        const rows = setups.map((s) => {
          const servers = s.procs.filter((p) => LANGUAGE_SERVER.test(p.name));
          const total = s.procs.reduce((sum, p) => sum + p.rssBytes, 0);
          return [s.label, String(servers.length), String(s.procs.length), mb(total)];
        });
        console.log(
          formatTable(
            [
              { header: "setup" },
              { header: "language servers", right: true },
              { header: "processes", right: true },
              { header: "total RSS", right: true },
            ],
            rows,
          ),
        );
        for (const s of setups) {
          console.log(
            `  ${s.label}: ${s.procs.map((p) => `${p.name} ${mb(p.rssBytes)}`).join(", ")}`,
          );
        }

        const initDir = join(scratch, "init");
        TYPESCRIPT.make(initDir);
        // The engine is warm for this root: a client starting is what is timed.
        await (await serve(initDir, engine.env)).client.close();
        const once = async (started: Promise<Started>) => {
          const s = await started;
          await s.client.close();
          return s.ms;
        };
        const stats = await sampleInTurn(INIT_WARMUP, INIT_RUNS, {
          engine: () => once(serve(initDir, engine.env)),
          alone: () => once(serve(initDir, alone)),
          reference: () =>
            once(start(process.execPath, [REFERENCE, initDir], initDir, process.env)),
        });
        console.log(`\nspawn to initialized, median of ${INIT_RUNS}:`);
        console.log(
          formatTable(
            [
              { header: "server" },
              { header: "median ms", right: true },
              { header: "p95 ms", right: true },
              { header: "÷ reference", right: true },
            ],
            [
              ["splice serve (warm engine)", stats.engine],
              ["splice serve (SPLICE_ENGINE=0)", stats.alone],
              ["reference filesystem server", stats.reference],
            ].map(([name, s]) => [
              name as string,
              ms((s as typeof stats.engine).median),
              ms((s as typeof stats.engine).p95),
              ratio((s as typeof stats.engine).median, stats.reference.median),
            ]),
          ),
        );
        const shared = setups[0]!.procs.filter((p) => LANGUAGE_SERVER.test(p.name)).length;
        console.log("\ntargets");
        console.log(
          `${mark(shared === 1)}  language servers for the root with the engine: ${shared} (1)`,
        );
        console.log(
          `${mark(stats.engine.median <= stats.reference.median)}  serve initialize: ${ms(stats.engine.median)} ms (≤ reference ${ms(stats.reference.median)} ms)`,
        );
      } finally {
        await engine.dispose();
      }
    });
  },
});
