import path from "node:path";
import { z } from "zod";
import type { CheckpointReport } from "../../checkpoint/record.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { OutputLimiter } from "../../proc/output-limit.js";
import { runInGroup } from "../../proc/process-group.js";
import { defineTool, EVERYTHING, manual, RUNS, type ToolContext } from "../define.js";
import { afterCommand, beforeCommand } from "./checkpoint.js";
import { KEPT_LOGS, MAX_LOG_BYTES, RunLog } from "./log.js";
import {
  elisionNotice,
  liveOutput,
  oneLine,
  plain,
  runContent,
  type Spill,
  statusLine,
} from "./render.js";

export const RUN_LIMITS = {
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 3_600_000,
  /** Between SIGTERM and SIGKILL to the process group. */
  graceMs: 2_000,
  /** After the shell exits, how long background processes may keep the output open. */
  drainMs: 1_000,
  /**
   * Output kept by default: the output budget less this much, for the
   * command line, the notices and what the command changed (20,000 bytes of
   * the default 24,000). A larger max_output_bytes is cut to it too.
   */
  noticeBytes: 4_000,
  minOutputBytes: 1_000,
  maxOutputBytes: 1_000_000,
  /** Share of the output budget kept from the start; the rest is kept from the end. */
  headShare: 0.4,
  maxLogBytes: MAX_LOG_BYTES,
  keptLogs: KEPT_LOGS,
} as const;

const input = z.strictObject({
  command: z.string().refine((c) => c.trim() !== "", "must not be empty"),
  cwd: z.string().optional(),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(RUN_LIMITS.maxTimeoutMs)
    .optional()
    .describe(`Default ${RUN_LIMITS.defaultTimeoutMs}.`),
  max_output_bytes: z
    .number()
    .int()
    .min(RUN_LIMITS.minOutputBytes)
    .max(RUN_LIMITS.maxOutputBytes)
    .optional()
    .describe("Default: what fits one result (20000)."),
});

export interface RunResult {
  command: string;
  cwd: string;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  duration_ms: number;
  output: string;
  truncated: boolean;
  /** Root-relative path of the full output, when some of it was elided. */
  output_file?: string;
  /** What the command created, changed and deleted (a local root with history only). */
  changed_files?: CheckpointReport["changed_files"];
  changed_files_more?: number;
  changed_counts?: CheckpointReport["changed_counts"];
  /** Undo it with the undo tool: `{"backup_session": …}`. */
  backup_session?: string;
  not_restorable?: CheckpointReport["not_restorable"];
  not_restorable_more?: number;
  /** Ignored and heavy folders (node_modules) the checkpoint did not look into. */
  unwatched?: string[];
  unwatched_more?: number;
  /** What a model reads: the command, its output, and how it ended. */
  content: string;
}

export const runTool = defineTool({
  name: "run",
  description: `Run a shell command (sh -c, no stdin) in the project: tests, builds, git. Gives the exit code and output.
Example: {"command": "npm test"}`,
  manual: manual("run/run.md"),
  example: { command: "npm test", cwd: ".", timeout_ms: 300000 },
  input,
  annotations: RUNS,
  kind: "run",
  needsApproval: true,
  // A command can touch anything: it runs alone.
  footprint: () => ({ reads: [EVERYTHING], writes: [EVERYTHING] }),
  summarize: (args) => ({
    subject: args.command,
    summary: `run ${oneLine(args.command)}${args.cwd && args.cwd !== "." ? ` in ${args.cwd}` : ""}`,
  }),
  preview: async (_context, args) =>
    `$ ${args.command}\n(in ${args.cwd || "."}, timeout ${formatSeconds(args.timeout_ms ?? RUN_LIMITS.defaultTimeoutMs)})`,
  async call(context, args): Promise<RunResult> {
    const cwd = await runFolder(context, args.cwd);

    const spill: Spill = {};
    const fits = Math.max(
      RUN_LIMITS.minOutputBytes,
      context.limits.outputBytes - RUN_LIMITS.noticeBytes,
    );
    const kept = Math.min(args.max_output_bytes ?? fits, fits);
    const limiter = spillingLimiter(context, kept, spill);

    const timeoutMs = args.timeout_ms ?? RUN_LIMITS.defaultTimeoutMs;
    const checkpoint = await beforeCommand(context);
    const live = context.progress ? liveOutput(context) : undefined;
    const started = performance.now();
    let outcome: RunOutcome;
    try {
      const onOutput = (chunk: Buffer) => {
        limiter.push(chunk);
        live?.(chunk);
      };
      outcome = await startCommand(context, args.command, cwd.real, timeoutMs, onOutput);
    } catch (error) {
      // Stopped midway (Ctrl-C, a cancelled call): what it changed until then is still the
      // command's, recorded so undo takes it back (and no watch mistakes it for an outside change).
      if (checkpoint.snapshot) await afterCommand(context, checkpoint.snapshot, args.command, []);
      throw error;
    } finally {
      spill.log?.close();
    }
    const durationMs = Math.round(performance.now() - started);
    if (spill.log) RunLog.prune(context);

    const out = limiter.finish();
    let output = plain(out.head);
    if (out.truncated) {
      const sep = output.endsWith("\n") || output === "" ? "" : "\n";
      output = `${output}${sep}${elisionNotice(out, spill.log, spill.error)}\n${plain(out.tail)}`;
    }
    const notices = outcomeNotices(outcome, timeoutMs);
    if (output === "" && notices.length === 0) notices.push("[no output]");
    // What the command changed comes last, after how it ran.
    const report =
      checkpoint.snapshot &&
      (await afterCommand(context, checkpoint.snapshot, args.command, notices));
    if (checkpoint.notice) notices.push(checkpoint.notice);
    if (notices.length > 0) {
      output = `${output}${output === "" || output.endsWith("\n") ? "" : "\n"}${notices.join("\n")}`;
    }

    context.events.emit({
      type: "exit_status",
      command: args.command,
      cwd: cwd.display,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      timedOut: outcome.timedOut,
      durationMs,
    });
    const result: RunResult = {
      command: args.command,
      cwd: cwd.display,
      exit_code: outcome.exitCode,
      signal: outcome.signal,
      timed_out: outcome.timedOut,
      duration_ms: durationMs,
      output,
      truncated: out.truncated,
      content: runContent(args.command, output, statusLine(outcome, durationMs), out, spill),
    };
    if (spill.log) result.output_file = spill.log.rel;
    if (report) Object.assign(result, report);
    return result;
  },
});

/** Keeps the output's head and tail; the middle goes to a run log opened on the first byte past them. */
function spillingLimiter(context: ToolContext, maxBytes: number, spill: Spill) {
  const open = () => {
    try {
      spill.log = RunLog.open(context);
      return spill.log;
    } catch (error) {
      spill.error = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      return undefined;
    }
  };
  return new OutputLimiter(maxBytes, open, RUN_LIMITS.headShare);
}

/** The folder a command runs in: it must exist and be a folder. */
async function runFolder(context: ToolContext, given: string | undefined): Promise<GuardedPath> {
  const cwd = context.guard.check(given || ".", "read");
  const stat = await context.workspace.stat(cwd.real);
  if (!stat) {
    throw new ToolError(
      "not_found",
      `Folder ${cwd.display} does not exist.`,
      { path: cwd.display },
      {
        tool: "run",
        say: (v) =>
          `Pass an existing folder as ${v.arg("cwd")}, or create it first (for example with ${v.tool("run")} "mkdir -p ${cwd.display}").`,
      },
    );
  }
  if (stat.kind !== "directory") {
    throw new ToolError(
      "invalid_input",
      `cwd ${cwd.display} is a file, not a folder. Pass the folder that holds it, such as "${path.posix.dirname(cwd.display)}".`,
      { path: cwd.display },
    );
  }

  return cwd;
}

type RunOutcome = Awaited<ReturnType<typeof runInGroup>>;

/** Runs the command where the workspace's files are: here in a process group, or through its shell. */
async function startCommand(
  context: ToolContext,
  command: string,
  cwd: string,
  timeoutMs: number,
  onOutput: (chunk: Buffer) => void,
): Promise<RunOutcome> {
  const { shell } = context.workspace;
  if (shell) {
    // Where the files are on another machine the command runs there, in its own group, stopped there too.
    const outcome = await shell.runCommand({
      command,
      cwd,
      timeoutMs,
      graceMs: RUN_LIMITS.graceMs,
      onOutput,
      ...(context.signal ? { signal: context.signal } : {}),
    });
    return { ...outcome, aborted: false, stoppedLeftovers: false, heldOutside: false };
  }
  return runInGroup({
    command,
    cwd,
    timeoutMs,
    graceMs: RUN_LIMITS.graceMs,
    drainMs: RUN_LIMITS.drainMs,
    onOutput,
    signal: context.signal,
    env: withoutVars(context.env ?? process.env, context.hiddenEnv ?? []),
  });
}

/** What a model must know of how the command ended beyond its exit code. */
function outcomeNotices(outcome: RunOutcome, timeoutMs: number): string[] {
  const notices: string[] = [];
  if (outcome.timedOut) {
    notices.push(
      `[timed out after ${formatSeconds(timeoutMs)}; the command and every process it started were stopped. Pass a larger timeout_ms (at most ${RUN_LIMITS.maxTimeoutMs}) or run something shorter]`,
    );
  }
  if (outcome.stoppedLeftovers) {
    notices.push(
      "[background processes still held the output after the command ended and were stopped; to keep one running, redirect its output, e.g. `server > server.log 2>&1 &`]",
    );
  }
  if (outcome.heldOutside) {
    notices.push(
      "[a process outside the command's process group (started with setsid or as a daemon) still held the output after the command ended; it was not stopped and may still be running. Find it with `ps -ef` and stop it with kill if it should not run]",
    );
  }
  return notices;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** `env` without the named variables (an agent's API key, say). */
function withoutVars(env: NodeJS.ProcessEnv, names: readonly string[]): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of names) delete out[name];
  return out;
}
