/**
 * Drives the real built `bin/splice agent` over stdin/stdout pipes, with an
 * environment that points it at a fake provider and nowhere else: no config
 * file of the person running the tests, no real ANTHROPIC_* settings.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const BIN = join(import.meta.dirname, "../../bin/splice");
/** A recognisable key, so a test can prove it never leaks. */
export const KEY = "sk-test-SECRET-5f1c9a7e0b2d4c68";

export interface AgentOptions {
  root: string;
  /** Where the agent starts (default: the root, which a remote root is not here). */
  cwd?: string;
  baseURL: string;
  args?: string[];
  env?: Record<string, string>;
}

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /^(ANTHROPIC_|SPLICE_)/.test(name)) continue;
    env[name] = value;
  }
  return env;
}

export class AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = "";
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #listeners = new Set<() => void>();

  constructor(options: AgentOptions) {
    const home = mkdtempSync(join(tmpdir(), "splice-agent-home-"));
    this.child = spawn(BIN, ["agent", ...(options.args ?? []), "--root", options.root], {
      cwd: options.cwd ?? options.root,
      env: {
        ...cleanEnv(),
        HOME: home,
        XDG_CONFIG_HOME: join(home, ".config"),
        ANTHROPIC_BASE_URL: options.baseURL,
        ANTHROPIC_API_KEY: KEY,
        NO_COLOR: "1",
        ...options.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stdout.setEncoding("utf8");
    this.child.stderr.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.stdout += chunk;
      for (const l of this.#listeners) l();
    });
    this.child.stderr.on("data", (chunk: string) => {
      this.stderr += chunk;
      for (const l of this.#listeners) l();
    });
    this.exited = new Promise((resolve) => {
      this.child.on("exit", (code, signal) => resolve({ code, signal }));
    });
  }

  /** Resolves when stdout (or stderr) contains `text`, at least `times` times. */
  waitFor(text: string | RegExp, { times = 1, timeout = 20_000 } = {}): Promise<void> {
    const count = () => {
      const all = this.stdout + this.stderr;
      if (typeof text === "string") return all.split(text).length - 1;
      return [...all.matchAll(new RegExp(text.source, `${text.flags.replace("g", "")}g`))].length;
    };
    return new Promise((resolve, reject) => {
      const check = () => {
        if (count() >= times) {
          this.#listeners.delete(check);
          clearTimeout(timer);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        this.#listeners.delete(check);
        reject(
          new Error(
            `timed out waiting for ${String(text)}\n--- stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`,
          ),
        );
      }, timeout);
      this.#listeners.add(check);
      check();
    });
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  end(): void {
    this.child.stdin.end();
  }

  interrupt(): void {
    this.child.kill("SIGINT");
  }
}

/** Runs the agent with its whole stdin given up front and waits for it to exit. */
export async function runAgent(options: AgentOptions & { input?: string[] }) {
  const agent = new AgentProcess(options);
  for (const line of options.input ?? []) agent.send(line);
  agent.end();
  const { code } = await agent.exited;
  return { code, stdout: agent.stdout, stderr: agent.stderr, agent };
}

/** Every file the agent kept for this folder's conversations, concatenated. */
export function conversationFiles(root: string): { names: string[]; text: string } {
  const dir = join(root, ".splice", "agents");
  const names = readdirSync(dir).sort();
  return { names, text: names.map((n) => readFileSync(join(dir, n), "utf8")).join("\n") };
}
