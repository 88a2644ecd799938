/**
 * A shell command in its own process group, so a timeout or a cancel can stop
 * everything it started: SIGTERM to the whole group, then SIGKILL after a
 * grace period, which no child can ignore. Windows has no process groups:
 * there the signals reach the shell alone (ending its tree is issue #41's).
 */
import { spawn } from "node:child_process";
import { ToolError } from "../errors.js";
import { exhaustedError } from "./exhausted.js";

export interface GroupOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL. */
  graceMs: number;
  /** How long to wait, after the shell exits, for background processes to release the output. */
  drainMs: number;
  onOutput(chunk: Buffer): void;
  signal?: AbortSignal;
  /** The command's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

export interface GroupOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** Processes of the group still held the output after the shell exited and were stopped. */
  stoppedLeftovers: boolean;
  /**
   * The output was still held once the group was gone: by a process that left
   * the group (setsid, a daemon), which no group signal reaches and may still run.
   */
  heldOutside: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const WINDOWS = process.platform === "win32";

/** Signals the whole group (the shell alone on Windows); false when no process of it is left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(WINDOWS ? pgid : -pgid, signal);
    return true;
  } catch {
    return false;
  }
}

function startingOutcome(): GroupOutcome {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    stoppedLeftovers: false,
    heldOutside: false,
  };
}

/** SIGTERM now, SIGKILL after the grace period; resolves once SIGKILL was sent (or nothing was left). */
async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && signalGroup(pgid, 0)) await sleep(50);
  if (!signalGroup(pgid, "SIGKILL")) return;
  // SIGKILL is delivered asynchronously; give the kernel a moment to finish the job.
  const settled = Date.now() + 500;
  while (Date.now() < settled && signalGroup(pgid, 0)) await sleep(20);
}

export interface Shell {
  file: string;
  args: string[];
  /** Windows: pass `args` as written, for cmd.exe's own quoting rules. */
  verbatim: boolean;
}

/**
 * The platform's shell for one command line: `sh -c` on POSIX; on Windows
 * `cmd.exe /d /s /c "COMMAND"`, as Node's own `shell: true` runs it (/d: no
 * AutoRun from the registry; /s with the outer quotes: the line kept as is).
 */
export function shellFor(
  command: string,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): Shell {
  if (platform !== "win32") return { file: "sh", args: ["-c", command], verbatim: false };
  return {
    file: env.ComSpec ?? "cmd.exe",
    args: ["/d", "/s", "/c", `"${command}"`],
    verbatim: true,
  };
}

/** The command under the platform's shell; on POSIX detached, so it leads a new session and process group (setsid). */
function spawnGroup(options: GroupOptions) {
  const shell = shellFor(options.command, process.platform, options.env ?? process.env);
  return spawn(shell.file, shell.args, {
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "pipe"],
    // On Windows `detached` means a new console, not a process group.
    detached: !WINDOWS,
    windowsVerbatimArguments: shell.verbatim,
    ...(options.env ? { env: options.env } : {}),
  });
}

function startFailure(error: NodeJS.ErrnoException): ToolError {
  const exhausted = exhaustedError(error);
  if (exhausted) return exhausted;
  return new ToolError(
    "io",
    `Could not start the command (${error.code ?? error.message}). Check that the folder still exists and that ${WINDOWS ? "cmd.exe (ComSpec) is there" : "sh is installed"}.`,
  );
}

export function runInGroup(options: GroupOptions): Promise<GroupOutcome> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(options.signal.reason);
      return;
    }
    const child = spawnGroup(options);
    const outcome = startingOutcome();
    let done = false;
    let exited = false;
    let terminating: Promise<void> | undefined;
    const timers: NodeJS.Timeout[] = [];

    /** SIGTERM now, SIGKILL after the grace period; resolves once SIGKILL was sent (or nothing was left). */
    const terminate = (): Promise<void> => {
      const pgid = child.pid;
      if (terminating || pgid === undefined) return terminating ?? Promise.resolve();
      terminating = terminateGroup(pgid, options.graceMs);
      return terminating;
    };

    /** Marks the run done and stops listening; false when it already was. */
    const end = () => {
      if (done) return false;
      done = true;
      for (const t of timers) clearTimeout(t);
      options.signal?.removeEventListener("abort", onAbort);
      return true;
    };
    const finish = async () => {
      if (!end()) return;
      if (terminating) await terminating;
      if (outcome.aborted) reject(options.signal?.reason);
      else resolve(outcome);
    };

    const onAbort = () => {
      outcome.aborted = true;
      void terminate();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    timers.push(
      setTimeout(() => {
        outcome.timedOut = true;
        void terminate();
      }, options.timeoutMs),
    );

    // A spawn that failed before its pipes existed (EMFILE) has none; its error event says why.
    child.stdout?.on("data", options.onOutput);
    child.stderr?.on("data", options.onOutput);
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (end()) reject(startFailure(error));
    });
    child.on("exit", (code, signal) => {
      exited = true;
      outcome.exitCode = code;
      outcome.signal = signal;
      // Background children may hold the pipes open forever; do not wait on them for long.
      timers.push(
        setTimeout(async () => {
          if (done) return;
          const pgid = child.pid;
          outcome.stoppedLeftovers = !terminating && pgid !== undefined && signalGroup(pgid, 0);
          await terminate();
          await sleep(options.drainMs);
          // The group is gone; the pipes closing would have finished the run.
          if (!done) outcome.heldOutside = true;
          child.stdout.destroy();
          child.stderr.destroy();
          void finish();
        }, options.drainMs),
      );
    });
    child.on("close", () => {
      if (exited) void finish();
    });
  });
}
