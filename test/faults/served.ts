/**
 * `splice serve` over stdio with the official SDK client, as the fault and
 * fuzz suites drive it: the real bin/splice (needs `npm run build`), its own
 * engine (a private runtime folder, so the engine a test starts is that
 * test's, with the limits the test gave it), and a tally of what every call
 * came to. A call is answered (a result, or an error with its code), or it
 * hangs (no answer within its bound), or the connection closed (an exit).
 */
import { chownSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { RESULT_META_KEY } from "../../src/hosts/mcp/result.js";
import { BIN, ownEngine } from "../helpers/engine.js";
import { alive } from "../helpers/processes.js";

export interface ServeOptions {
  /** `ulimit -n` for the server and the engine it starts. */
  files?: number;
  /** Runs the server (and its engine) as this user and group id: permissions then bind. */
  uid?: number;
  /** More environment (SPLICE_ENGINE=0 runs the tools in the server process itself). */
  env?: Record<string, string>;
}

/** What a call came to: "ok", an error code, "hang" or "exit". */
export type Outcome = string;

export interface Served {
  root: string;
  client: Client;
  /** The server process (the engine's client unless SPLICE_ENGINE=0). */
  pid: number;
  /** What the server said on stderr so far. */
  log: { text: string };
  /** Calls `name`, giving it `boundMs` to answer. */
  call(name: string, args: unknown, boundMs?: number): Promise<CallToolResult | Outcome>;
  /** The engine process serving this root, when there is one. */
  engine(): number | undefined;
  close(): Promise<void>;
}

/** The error code of a result that failed (undefined for one that did not). */
export function codeOf(result: CallToolResult): string | undefined {
  if (!result.isError) return undefined;
  const meta = result._meta?.[RESULT_META_KEY] as { error?: { code?: string } } | undefined;
  return meta?.error?.code ?? "no code";
}

export const textOf = (result: CallToolResult) =>
  result.content.map((c) => (c.type === "text" ? c.text : "")).join("");

export async function serve(root: string, options: ServeOptions = {}): Promise<Served> {
  const { env } = ownEngine();
  Object.assign(env, options.env ?? {});
  if (options.uid !== undefined) {
    // Its own runtime folder and home, so the engine and its state are the user's to write.
    const home = mkdtempSync(join(tmpdir(), "splice-home-"));
    for (const dir of [env.XDG_RUNTIME_DIR!, home]) chownSync(dir, options.uid, options.uid);
    env.HOME = home;
  }
  // The shell sets the limit and the user, then becomes the server: the pid stays the server's.
  const prefix: string[] = [];
  if (options.uid !== undefined) {
    prefix.push("setpriv", `--reuid=${options.uid}`, `--regid=${options.uid}`, "--clear-groups");
  }
  const limit = options.files === undefined ? "" : `ulimit -n ${options.files} && `;
  const transport = new StdioClientTransport({
    command: "sh",
    args: ["-c", `${limit}exec "$@"`, "sh", ...prefix, BIN, "serve", "--root", root],
    env,
    stderr: "pipe",
  });
  const log = { text: "" };
  transport.stderr?.on("data", (chunk: Buffer) => {
    log.text += chunk.toString();
  });
  const client = new Client({ name: "splice-faults", version: "1" });
  await client.connect(transport);
  const pid = transport.pid!;
  const runtime = env.XDG_RUNTIME_DIR!;
  let engine: number | undefined;
  return {
    root,
    client,
    pid,
    log,
    async call(name, args, boundMs = 10_000) {
      try {
        return (await client.callTool(
          { name, arguments: args as Record<string, unknown> },
          undefined,
          { timeout: boundMs },
        )) as CallToolResult;
      } catch (error) {
        if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return "hang";
        if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return "exit";
        if (error instanceof McpError) return `protocol ${error.code}`;
        // The connection is gone (the server exited), or this client could not send the call.
        return alive(pid) ? `client: ${String(error).slice(0, 200)}` : "exit";
      }
    },
    engine: () => {
      engine ??= engineOf(runtime);
      return engine;
    },
    async close() {
      await client.close().catch(() => {});
    },
  };
}

/** The engine process whose runtime folder is `runtime` (its environment names it). */
function engineOf(runtime: string): number | undefined {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(join("/proc", name, "cmdline"), "utf8");
      if (!cmdline.includes("engine-process")) continue;
      const environ = readFileSync(join("/proc", name, "environ"), "utf8").split("\0");
      if (environ.includes(`XDG_RUNTIME_DIR=${runtime}`)) return Number(name);
    } catch {}
  }
  return undefined;
}

/** Every process below `pid` whose command line matches `pattern`. */
export function descendants(pid: number, pattern: RegExp): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(join("/proc", name, "stat"), "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {}
  }
  const out: number[] = [];
  const walk = (at: number) => {
    for (const child of children.get(at) ?? []) {
      try {
        if (pattern.test(readFileSync(join("/proc", String(child), "cmdline"), "utf8"))) {
          out.push(child);
        }
      } catch {}
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/** Outcomes that blame nothing a caller can act on: an internal fault, a result without a code, a JSON-RPC internal error. */
const UNCODED = new Set(["internal", "no code", `protocol ${ErrorCode.InternalError}`]);

/**
 * What a run of calls came to: how many ended each way, and the first few
 * texts of the uncoded ones (an `internal` error, or one without a code).
 */
export class Tally {
  readonly counts = new Map<Outcome, number>();
  readonly uncoded: string[] = [];

  add(result: CallToolResult | Outcome, what = ""): Outcome {
    const outcome = typeof result === "string" ? result : (codeOf(result) ?? "ok");
    this.counts.set(outcome, (this.counts.get(outcome) ?? 0) + 1);
    if (UNCODED.has(outcome) && this.uncoded.length < 5) {
      this.uncoded.push(`${what}: ${typeof result === "string" ? result : textOf(result)}`);
    }
    return outcome;
  }

  get calls(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }

  count(outcome: Outcome): number {
    return this.counts.get(outcome) ?? 0;
  }

  /** The figures the issue asks for: exits, hangs, uncoded errors. */
  get failures(): { exits: number; hangs: number; uncoded: number } {
    return {
      exits: this.count("exit"),
      hangs: this.count("hang"),
      uncoded: [...UNCODED].reduce((n, outcome) => n + this.count(outcome), 0),
    };
  }

  toString(): string {
    return JSON.stringify(Object.fromEntries([...this.counts].sort((a, b) => b[1] - a[1])));
  }
}

/** Whether the server, and its engine when it has one, still run. */
export function serving(served: Served): { server: boolean; engine: boolean | undefined } {
  const engine = served.engine();
  return { server: alive(served.pid), engine: engine === undefined ? undefined : alive(engine) };
}
