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
const WARMUP = 25;
/** Calls alternate between the servers in rounds, so drift in the machine hits both alike. */
const ROUND = 50;
const FILE = "small.ts";
const LINES = 60;
const EDIT_LINE = 30;

const SPLICE_BIN = fileURLToPath(new URL("../bin/splice", import.meta.url));
const SPLICE_BUILT = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
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
}

async function connect(
  command: string[],
  name: string,
  env: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: `bench-${name}`, version: "1.0.0" });
  const [bin, ...args] = command;
  const transport = new StdioClientTransport({
    command: bin!,
    args,
    stderr: "ignore",
    env: { ...getDefaultEnvironment(), ...env },
  });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: object): Promise<CallToolResult> {
  const result = (await client.callTool({
    name,
    arguments: args as Record<string, unknown>,
  })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result;
}

/** `durable: false` runs the server with SPLICE_DURABLE=0: atomic writes, no fsync. */
async function splice(dir: string, durable: boolean): Promise<Subject> {
  writeCorpus(dir);
  const env: Record<string, string> = durable ? {} : { SPLICE_DURABLE: "0" };
  const command = [process.execPath, SPLICE_BIN, "serve", "--root", dir];
  const client = await connect(command, "splice", env);
  const tagOf = (r: CallToolResult) =>
    (r._meta!["splice/result"] as { results: { file_hash: string }[] }).results[0]!.file_hash;
  let tag = tagOf(await call(client, "read", { targets: [{ path: FILE }] }));
  return {
    name: durable ? "splice" : "splice, SPLICE_DURABLE=0",
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
  const client = await connect([process.execPath, REFERENCE_BIN, dir], "reference");
  let current = line(EDIT_LINE, 0);
  return {
    name: "reference",
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

/** Milliseconds per call of each subject, alternating subjects every ROUND calls. */
async function timeCalls(
  subjects: Subject[],
  op: (s: Subject, i: number) => Promise<unknown>,
): Promise<Stats[]> {
  const samples: number[][] = subjects.map(() => []);
  let i = 0;
  for (const s of subjects) for (let w = 0; w < WARMUP; w++) await op(s, ++i);
  for (let done = 0; done < CALLS; done += ROUND) {
    for (const [k, s] of subjects.entries()) {
      for (let r = 0; r < ROUND; r++) {
        const start = performance.now();
        await op(s, ++i);
        samples[k]!.push(performance.now() - start);
      }
    }
  }
  return samples.map(summarize);
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

export const hosts = defineBenchmark({
  name: "hosts",
  description: `MCP round trip over stdio: ${CALLS} small reads and edits, splice vs the reference filesystem server`,
  async run() {
    if (!existsSync(SPLICE_BUILT)) throw new Error("dist/ is missing: run `npm run build` first.");
    await withScratchDir("splice-bench-hosts-", async (dir) => {
      console.log(environment(dir));
      const dirs = {
        splice: join(dir, "splice"),
        fast: join(dir, "fast"),
        reference: join(dir, "reference"),
        engine: join(dir, "engine"),
      };
      for (const d of Object.values(dirs)) mkdirSync(d);
      const subjects = [
        await splice(dirs.splice, true),
        await splice(dirs.fast, false),
        await reference(dirs.reference),
        engine(dirs.engine),
      ];
      const compared = 2; // the splice servers, each against the reference
      try {
        const rows: string[][] = [];
        for (const [operation, op] of [
          ["read", (s: Subject) => s.read()],
          ["edit", (s: Subject, i: number) => s.edit(i)],
        ] as const) {
          const stats = await timeCalls(subjects, op);
          const theirs = stats[compared]!;
          for (const [k, s] of subjects.entries()) {
            const ours = stats[k]!;
            const ratio = (a: number, b: number) => `${fixed(a / b, 2)}x`;
            const judged = k < compared;
            rows.push([
              operation,
              s.name,
              ms(ours.median),
              ms(ours.p95),
              judged ? ratio(ours.median, theirs.median) : "",
              judged ? ratio(ours.p95, theirs.p95) : "",
              judged ? (ours.median <= theirs.median ? "ok" : "slower") : "",
            ]);
          }
        }
        for (const [name, d] of Object.entries(dirs)) checkEdited(d, name);
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
              { header: "target: no slower" },
            ],
            rows,
          ),
        );
        console.log(`
${CALLS} timed calls per row after ${WARMUP} warm-up calls, alternating servers every ${ROUND}
calls; one client per server over stdio (the SDK's Client and StdioClientTransport). The file
has ${LINES} short lines; the edit replaces line ${EDIT_LINE} each time (splice: line op with the
tag from the previous result; reference: edit_file oldText/newText). splice's answer carries the
hashline text and the JSON result; its edit also takes a lock that holds across processes,
checks the file did not change under it, and stores both versions in history. By default
(durable) it fsyncs the old version, the journal and the file before answering, so a power loss
cannot lose them; SPLICE_DURABLE=0 skips the fsyncs (writes stay atomic and survive the
process being killed). The reference server does none of this.
"splice engine, no MCP" is the same read and edit through createToolkit in this process:
splice's MCP round trip minus that row is what the host and the stdio transport add.`);
      } finally {
        await Promise.all(subjects.map((s) => s.close()));
      }
    });
  },
});
