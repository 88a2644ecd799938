/**
 * Processes on a remote root's machine: the run tool's commands and the
 * search tool's rg (or grep), each started through the transport in the
 * root there, in a group of its own that is stopped there.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { ShellRunOptions, ShellRunOutcome, WorkspaceShell } from "../workspace.js";
import { spawnScript } from "./scripts.js";
import type { Transport } from "./transport.js";

export class RemoteShell implements WorkspaceShell {
  readonly #realRoot: () => Promise<string>;

  constructor(
    readonly transport: Transport,
    realRoot: () => Promise<string>,
  ) {
    this.#realRoot = realRoot;
  }

  get host(): string {
    return this.transport.name;
  }

  /**
   * Starts `command` in `cwd` there; it is stopped there when the returned
   * process's stdin ends (end it, or kill the process: the transport closes it).
   */
  async spawn(cwd: string, command: string): Promise<ChildProcessWithoutNullStreams> {
    return this.transport.start(spawnScript(await this.#realRoot(), cwd, command));
  }

  /**
   * The run tool's command there: output as it comes, stopped there (its
   * whole setsid group) on a timeout or an abort by ending the transport's
   * stdin; the transport is killed after the grace period if it lingers.
   * Rejects with the signal's reason when aborted, like runInGroup.
   */
  async runCommand(options: ShellRunOptions): Promise<ShellRunOutcome> {
    if (options.signal?.aborted) throw options.signal.reason;
    const child = await this.spawn(options.cwd, options.command);
    return new Promise((resolve, reject) => {
      const outcome: ShellRunOutcome = { exitCode: null, signal: null, timedOut: false };
      let aborted = false;
      let killer: NodeJS.Timeout | undefined;
      const stop = () => {
        child.stdin.end();
        killer ??= setTimeout(() => child.kill("SIGKILL"), options.graceMs + 1500);
      };
      const onAbort = () => {
        aborted = true;
        stop();
      };
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const timer = setTimeout(() => {
        outcome.timedOut = true;
        stop();
      }, options.timeoutMs);
      child.stdin.on("error", () => {});
      child.stdout.on("data", options.onOutput);
      child.stderr.on("data", options.onOutput);
      child.on("error", (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(this.transport.unreachable(error.code ?? error.message));
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        clearTimeout(killer);
        options.signal?.removeEventListener("abort", onAbort);
        if (aborted) return reject(options.signal?.reason);
        if (code === 255 && !outcome.timedOut) {
          return reject(this.transport.unreachable("the connection ended during the command"));
        }
        outcome.exitCode = code;
        outcome.signal = signal;
        resolve(outcome);
      });
    });
  }
}
