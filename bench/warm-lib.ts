/**
 * Pieces of the warm benchmark (bench/warm.ts): fresh `splice` processes
 * timed as a shell runs them, the benchmark's own engine (a private
 * XDG_RUNTIME_DIR, so no other engine answers), the engine's socket spoken
 * to from this process (a command's cost without its client process), the
 * memory and inotify watches of the engine and its children, and targets
 * printed PASS/FAIL.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { rgPath } from "@vscode/ripgrep";
import { type EngineStatus, onFrames, send } from "../src/engine/wire.js";
import { fixed, formatTable, ms, type Stats, summarize } from "./lib.js";

export const CLI = fileURLToPath(new URL("../bin/splice", import.meta.url));
export const RG = rgPath;
/** ast-grep's own binary (not /usr/bin/sg, which on many systems is newgrp). */
export const AST_GREP = fileURLToPath(new URL("../node_modules/.bin/ast-grep", import.meta.url));

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  ms: number;
}

/** Runs a command as a fresh process, timed from spawn to exit. */
export function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Ran {
  const start = performance.now();
  const r = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 1 << 28 });
  const elapsed = performance.now() - start;
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: elapsed };
}

/** What an edit's stderr says when the change went without its type verdict. */
export const NO_VERDICT = /not type-checked/;

/** A language server as `splice lsp-health --json` lists it. */
interface ServerHealth {
  language: string;
  server: string;
  status: string;
  pid?: number;
}

/**
 * The benchmark's engine: every `splice` it runs gets XDG_RUNTIME_DIR set to
 * a private folder of its own, so the engine it starts (and stops) is this
 * benchmark's alone.
 */
export class BenchEngine {
  readonly env: NodeJS.ProcessEnv;
  readonly #runtime: string;

  constructor() {
    this.#runtime = mkdtempSync(join(tmpdir(), "splice-bench-warm-run-"));
    chmodSync(this.#runtime, 0o700);
    this.env = { ...process.env, XDG_RUNTIME_DIR: this.#runtime };
    delete this.env.SPLICE_ENGINE;
  }

  /** `splice ARGS` in `cwd` as a fresh process; throws unless it exits `expect` (default 0). */
  splice(args: string[], cwd: string, expect: number | null = 0): Ran {
    const ran = timed(process.execPath, [CLI, ...args], cwd, this.env);
    if (expect !== null && ran.status !== expect) {
      throw new Error(
        `splice ${args.join(" ")} exited ${ran.status}: ${ran.stderr.slice(0, 2000)}`,
      );
    }
    return ran;
  }

  /** The engine's status, or undefined when none runs. */
  status(): EngineStatus | undefined {
    const ran = this.splice(["engine", "status", "--json"], this.#runtime, null);
    const status = JSON.parse(ran.stdout) as EngineStatus | { running: false };
    return "pid" in status ? status : undefined;
  }

  /** Stops the engine and waits until its process is gone (its servers with it). */
  async stop(): Promise<void> {
    const pid = this.status()?.pid;
    this.splice(["engine", "stop"], this.#runtime);
    if (pid === undefined) return;
    const until = Date.now() + 30_000;
    while (alive(pid) && Date.now() < until) await sleep(50);
  }

  /** Polls `splice lsp-health` in `cwd` until LANGUAGE's server is ready; how long that took. */
  async waitReady(cwd: string, language: string, timeoutMs = 120_000): Promise<ServerHealth> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const ran = this.splice(["lsp-health", language, "--json"], cwd);
      const servers = (JSON.parse(ran.stdout) as { servers: ServerHealth[] }).servers;
      const server = servers.find((s) => s.language === language);
      if (!server) throw new Error(`lsp-health lists no ${language} server`);
      if (server.status === "ready") return server;
      if (Date.now() > until) throw new Error(`${server.server} still ${server.status}`);
      await sleep(200);
    }
  }

  /** Asks the engine to stop and leaves at once (for a process that is exiting). */
  stopNow(): void {
    spawnSync(process.execPath, [CLI, "engine", "stop"], { cwd: this.#runtime, env: this.env });
    rmSync(this.#runtime, { recursive: true, force: true });
  }

  async dispose(): Promise<void> {
    await this.stop().catch(() => {});
    rmSync(this.#runtime, { recursive: true, force: true });
  }
}

export const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

/** Whether a process runs (a zombie nobody reaps has stopped). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- sampling

/** One sample: the milliseconds it measured itself (untimed work before it is its own). */
export type Sampler = (i: number) => number | Promise<number>;

/**
 * Every sampler once per round, in turn, `warmup` untimed rounds then `runs`
 * timed ones: drift on a shared machine hits all of them alike.
 */
export async function sampleInTurn<K extends string>(
  warmup: number,
  runs: number,
  samplers: Record<K, Sampler>,
): Promise<Record<K, Stats>> {
  const keys = Object.keys(samplers) as K[];
  const samples = new Map<K, number[]>(keys.map((k) => [k, []]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const k of keys) {
      const elapsed = await samplers[k](i);
      if (i >= warmup) samples.get(k)!.push(elapsed);
    }
  }
  return Object.fromEntries(keys.map((k) => [k, summarize(samples.get(k)!)])) as Record<K, Stats>;
}

/** The largest sample (summarize's p95 is the slowest of fewer than 20). */
export const slowest = (s: Stats) => s.p95;

/**
 * One command line run in the engine from this process, as a client would
 * but without starting one: connect and greet (`hello`), then the command to
 * its exit code. Its output is dropped.
 */
export function throughSocket(
  socket: string,
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ hello: number; total: number; code: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let hello = 0;
    const client = connect(socket);
    client.once("error", reject);
    client.once("connect", () => send(client, { t: "hello", build: "bench" }));
    onFrames(client, (frame) => {
      if (frame.t === "hello") {
        hello = performance.now() - start;
        const tty = { stdin: false, stdout: false, stderr: false };
        send(client, { t: "cli", argv, cwd, env, tty });
      } else if (frame.t === "exit") {
        resolve({ hello, total: performance.now() - start, code: frame.code });
        client.end();
      }
    });
  });
}

// ---------------------------------------------------------------- processes

export interface Proc {
  pid: number;
  /** What it is: the program, or for node the script it runs. */
  name: string;
  rssBytes: number;
}

/** A process and all its descendants (Linux /proc), with their resident memory. */
export function processTree(pid: number): Proc[] {
  const out: Proc[] = [];
  const visit = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      const name = /^State:\s+Z/m.test(status) ? "(exited, not reaped)" : nameOf(p);
      out.push({ pid: p, name, rssBytes: kb * 1024 });
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, "utf8");
        for (const child of children.split(" ").filter(Boolean)) visit(Number(child));
      }
    } catch {
      // Gone meanwhile.
    }
  };
  visit(pid);
  return out;
}

function nameOf(pid: number): string {
  const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  const base = (p: string) => p.split("/").slice(-2).join("/");
  const program = argv[0] ?? readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  if (/(^|\/)node$/.test(program) && argv[1]) return `node ${base(argv[1])}`;
  return base(program);
}

/** How many inotify watches a process holds (over all its inotify instances). */
export function inotifyWatches(pid: number): number {
  let watches = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) !== "anon_inode:inotify") continue;
      const info = readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8");
      watches += info.split("\n").filter((l) => l.startsWith("inotify wd:")).length;
    } catch {}
  }
  return watches;
}

/** Polls until a process holds `want` inotify watches, or `timeoutMs` passed; how many, and after how long. */
export async function watchesAtLeast(
  pid: number,
  want: number,
  timeoutMs: number,
): Promise<{ watches: number; waitedMs: number }> {
  const start = performance.now();
  let watches = inotifyWatches(pid);
  while (watches < want && performance.now() - start < timeoutMs) {
    await sleep(100);
    watches = inotifyWatches(pid);
  }
  return { watches, waitedMs: performance.now() - start };
}

// ---------------------------------------------------------------- targets

export interface Target {
  what: string;
  /** The figure, as printed. */
  value: string;
  /** The bound, as printed. */
  bound: string;
  pass: boolean;
}

export const mark = (pass: boolean) => (pass ? "PASS" : "FAIL");

/** A target on a time: `value` at most `limit` (both in ms). */
export function withinMs(what: string, value: number, limit: number, bound: string): Target {
  return { what, value: `${ms(value)} ms`, bound, pass: value <= limit };
}

/** A target on a ratio: `value / base` at most `limit`. */
export function withinRatio(what: string, value: number, base: number, limit: number): Target {
  const r = value / base;
  return { what, value: `${fixed(r, 2)}x`, bound: `<= ${limit}x`, pass: r <= limit };
}

export const ratio = (value: number, base: number) => `${fixed(value / base, 2)}x`;

/** One line of a row's table: a median, its slowest run, and its ratio to a baseline. */
export interface Line {
  what: string;
  stats: Stats;
  /** The baseline's median, for the ratio column. */
  base?: number;
  target?: string;
}

export function print(lines: Line[]): void {
  const columns = ["command", "median ms", "max ms", "runs", "vs baseline", "target"];
  const rows = lines.map((l) => [
    l.what,
    ms(l.stats.median),
    ms(slowest(l.stats)),
    String(l.stats.runs),
    l.base === undefined ? "" : ratio(l.stats.median, l.base),
    l.target ?? "",
  ]);
  console.log(
    formatTable(
      columns.map((header, i) => ({ header, right: i > 0 && i < 5 })),
      rows,
    ),
  );
}

export const mb = (bytes: number) => `${fixed(bytes / 1e6, 0)} MB`;
