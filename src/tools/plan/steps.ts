/**
 * The parts of a plan run: steps checked before anything runs, each step run
 * against a view of the files (the disk, or a dry run's overlay), validation
 * by command or by parsing, the combined diff, and the rollback that puts
 * every touched file back as it was before the plan.
 */
import { documentDiff } from "../../change/diffs.js";
import { restorable } from "../../change/load.js";
import { serialized } from "../../change/lock.js";
import { restoreFile } from "../../change/restore.js";
import { checkEdit } from "../../code/syntax-check.js";
import { clip, ToolError } from "../../errors.js";
import { type NetChange, netChanges, UNDO_NOTE } from "../../history/undo-state.js";
import { unifiedDiff } from "../../text/diff.js";
import { type Document, documentFromBytes, hasFinalNewline } from "../../text/document.js";
import { newBackupId } from "../../util/ids.js";
import type { ToolContext } from "../define.js";
import { parseArgs, type Tool } from "../define.js";

/** What a plan reads of the run tool's result. */
interface CommandResult {
  output: string;
  exit_code: number | null;
  signal: string | null;
  timed_out: boolean;
  /** What run's checkpoint saw the command change (recorded in the plan's backup session). */
  changed_files?: { path: string }[];
  changed_files_more?: number;
}

export type StepInput =
  | { tool: string; args?: Record<string, unknown> }
  | {
      validate: { run: string; cwd?: string; timeout_ms?: number } | { syntax: true | string[] };
    };

export type Prepared =
  | { kind: "tool"; tool: Tool; args: unknown; summary: string }
  | { kind: "run"; args: { command: string; cwd?: string; timeout_ms?: number }; summary: string }
  | { kind: "syntax"; paths: string[] | undefined; summary: string };

export interface StepReport {
  /** 1-based. */
  step: number;
  summary: string;
  status: "applied" | "unchanged" | "passed" | "failed" | "skipped";
  /** Files the step changed (or would, in a preview). */
  files?: string[];
  warnings?: string[];
  /** Commands: the end of their output. */
  output?: string;
  error?: { code: string; message: string };
  /** The tool's own result. */
  result?: unknown;
}

/**
 * Tools a plan may not run: one inside another, or an undo (or a checkpoint's
 * restore, its own backup session) that would fight the plan's rollback.
 */
const NOT_IN_PLANS = new Set(["plan", "undo", "checkpoint"]);
const OUTPUT_TAIL = 2000;

/** The tools a plan's steps may name: the toolkit's own (a plan cannot reach past its host). */
function allTools(context: ToolContext): readonly Tool[] {
  if (!context.registry) throw new Error("A plan runs inside a toolkit, which gives it the tools.");
  return context.registry.tools;
}

/**
 * The plan decides whether its steps write: a step previewing on its own would
 * write nothing, yet count as applied and be left out of the rollback's view.
 */
function refuseOwnMode(n: number, tool: string, mode: unknown): void {
  if (mode === undefined || mode === "apply") return;
  throw new ToolError(
    "invalid_input",
    `Step ${n} (${tool}) has its own \`"mode": ${JSON.stringify(mode)}\`, but the plan sets the mode of every step. Remove "mode" from the step's args.`,
    { step: n },
    {
      tool: "plan",
      args: { mode: "preview" },
      say: (v) => `${v.call("plan", { mode: "preview" })} to run the whole plan without writing.`,
    },
  );
}

/** Checks every step before any runs, so a typo fails the plan with nothing done. */
export function prepareSteps(context: ToolContext, steps: StepInput[]): Prepared[] {
  const tools = allTools(context);
  const runTool = tools.find((t) => t.name === "run")!;
  return steps.map((step, i): Prepared => {
    const n = i + 1;
    if ("validate" in step) {
      const v = step.validate;
      if ("run" in v) {
        const { run, ...rest } = v;
        const args = parseArgs(runTool, { command: run, ...rest }) as { command: string };
        return { kind: "run", args, summary: `validate: run ${run}` };
      }
      const paths = v.syntax === true ? undefined : v.syntax;
      return {
        kind: "syntax",
        paths,
        summary: `validate: syntax${paths ? ` of ${paths.join(", ")}` : ""}`,
      };
    }
    const tool = tools.find((t) => t.name === step.tool);
    if (!tool || NOT_IN_PLANS.has(step.tool)) {
      const names = tools.filter((t) => !NOT_IN_PLANS.has(t.name)).map((t) => t.name);
      throw new ToolError(
        tool ? "invalid_input" : "unknown_tool",
        `Step ${n} names ${tool ? "a tool a plan cannot run" : "no tool"} ("${clip(step.tool)}"). A step's tool is one of: ${names.join(", ")}.`,
        { step: n },
      );
    }
    refuseOwnMode(n, step.tool, step.args?.mode);
    let args: unknown;
    try {
      args = parseArgs(tool, step.args ?? {});
    } catch (error) {
      if (error instanceof ToolError) {
        throw new ToolError(error.code, `Step ${n} (${step.tool}): ${error.message}`, { step: n });
      }
      throw error;
    }
    if (tool.name === "run") {
      const a = args as { command: string; cwd?: string; timeout_ms?: number };
      return { kind: "run", args: a, summary: tool.summarize(args).summary };
    }
    return { kind: "tool", tool, args, summary: tool.summarize(args).summary };
  });
}

/** The files a plan works on, and what they were before it. */
export interface PlanView {
  /** Where commands and checks run: the plan's own root. */
  context: ToolContext;
  /** Where a tool step runs: the root its paths are in (one of a RootSet's), else the plan's. */
  contextFor(name: string, args: unknown): ToolContext;
  /** Files changed so far, in the order first changed. */
  touched(): Touch[];
  before(file: Touch): Promise<Uint8Array | undefined>;
  after(file: Touch): Promise<Uint8Array | undefined>;
}

/** A file a plan changed, and the root (its context) it is in. */
export interface Touch {
  /** The real path, with the host before it for a remote root: unique across roots. */
  key: string;
  real: string;
  rel: string;
  display: string;
  context: ToolContext;
}

/** A Touch's key: two roots may hold the same real path on two machines. */
export function keyOf(context: ToolContext, real: string): string {
  return context.guard.host ? `${context.guard.host}:${real}` : real;
}

/** A thrown step failure carries its report. */
export class StepFailure extends Error {
  constructor(readonly report: StepReport) {
    super(report.error?.message ?? "step failed");
  }
}

function warningsOf(result: unknown): string[] {
  const out: string[] = [];
  const visit = (v: unknown) => {
    if (typeof v !== "object" || v === null) return;
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.warnings)) out.push(...o.warnings.filter((w) => typeof w === "string"));
    if (Array.isArray(o.results)) for (const r of o.results) visit(r);
  };
  visit(result);
  return [...new Set(out)];
}

/** Runs one step; a failing command or syntax check throws StepFailure, as does a tool error. */
export async function runStep(
  view: PlanView,
  step: Prepared,
  n: number,
  dryRun: boolean,
): Promise<StepReport> {
  const report: StepReport = { step: n, summary: step.summary, status: "passed" };
  const fail = (code: string, message: string): never => {
    throw new StepFailure({ ...report, status: "failed", error: { code, message } });
  };
  if (step.kind === "run") {
    if (dryRun)
      return { ...report, status: "skipped", warnings: ["Commands do not run in a preview."] };
    const run = allTools(view.context).find((t) => t.name === "run")!;
    const result = (await run.call(view.context, step.args)) as CommandResult;
    const output =
      result.output.length > OUTPUT_TAIL ? `…${result.output.slice(-OUTPUT_TAIL)}` : result.output;
    const done: StepReport = { ...report, output, result };
    if (result.changed_files) done.files = result.changed_files.map((f) => f.path);
    if (result.exit_code !== 0 || result.timed_out) {
      const how = result.timed_out
        ? "it timed out"
        : result.signal
          ? `it was killed by ${result.signal}`
          : `it exited with ${result.exit_code}`;
      throw new StepFailure({
        ...done,
        status: "failed",
        error: {
          code: "validation_failed",
          message: `${step.args.command}: ${how}.\n${output.trimEnd()}`,
        },
      });
    }
    return done;
  }
  if (step.kind === "syntax") {
    const problems = await syntaxProblemsOf(view, step.paths);
    if (problems.length > 0) fail("validation_failed", problems.join("\n"));
    return report;
  }
  const before = new Set(view.touched().map((t) => t.key));
  let result: unknown;
  try {
    result = await step.tool.call(view.contextFor(step.tool.name, step.args), step.args);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return fail(error.code, error.message);
  }
  const files = view
    .touched()
    .filter((t) => !before.has(t.key))
    .map((t) => t.display);
  const warnings = warningsOf(result);
  return {
    ...report,
    status: files.length > 0 || changedSomething(result) ? "applied" : "unchanged",
    ...(files.length > 0 ? { files } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
    result,
  };
}

function changedSomething(result: unknown): boolean {
  if (typeof result !== "object" || result === null) return false;
  const o = result as { changed?: unknown; results?: unknown };
  if (o.changed === true) return true;
  return (
    Array.isArray(o.results) &&
    o.results.some((r) => (r as { changed?: unknown })?.changed === true)
  );
}

const docOf = (bytes: Uint8Array | undefined): Document | undefined => {
  const doc = bytes && documentFromBytes(bytes);
  return doc && !("kind" in doc) ? doc : undefined;
};

async function syntaxProblemsOf(view: PlanView, paths: string[] | undefined): Promise<string[]> {
  const files = paths
    ? paths.map((p): Touch => {
        const g = view.context.guard.check(p, "read");
        const { context } = view;
        return {
          key: keyOf(context, g.real),
          real: g.real,
          rel: g.rel,
          display: g.display,
          context,
        };
      })
    : view.touched();
  const out: string[] = [];
  for (const f of files) {
    const after = docOf(await view.after(f));
    if (!after) continue;
    const warning = checkEdit(f.display, docOf(await view.before(f)), after);
    if (warning) out.push(`${f.display}: ${warning}`);
  }
  return out;
}

/** Before-plan vs now, for every touched file, in the order they were first changed. */
export async function combinedDiff(view: PlanView): Promise<string> {
  const parts: string[] = [];
  for (const t of view.touched()) {
    const before = docOf(await view.before(t));
    const after = docOf(await view.after(t));
    if (!after) {
      if (before) {
        parts.push(
          unifiedDiff(before.lines, [], {
            path: t.display,
            oldFinalNewline: hasFinalNewline(before),
          }),
        );
      }
      continue;
    }
    parts.push(documentDiff(t.display, before, after));
  }
  return parts.join("");
}

/**
 * Puts every touched file back as it was before the plan, from the plan's
 * backup session (a file the plan created is deleted), through the one
 * restore path. A file that changed since the plan wrote it is kept as it is
 * ("keep"), unless a command of the plan ran: then the change is likely the
 * plan's own, and it is replaced after being backed up ("replace"). The
 * restore is itself a backup session marked as undoing the plan's, so undo
 * skips both. Each file is put back in its own root (its context), from that
 * root's history.
 */
export async function rollback(
  planId: string,
  touched: Touch[],
  ifChanged: "keep" | "replace",
): Promise<{ restored: string[]; kept: string[]; failed: string[]; session: string }> {
  // One restore session, its id the same in every root's history, like the plan's.
  const session = newBackupId();
  const nets = new Map<ToolContext["history"], Map<string, NetChange>>();
  const netOf = (context: ToolContext) => {
    let net = nets.get(context.history);
    if (!net) {
      const plan = context.history.backups().find((s) => s.id === planId);
      net = plan ? netChanges(plan) : new Map<string, NetChange>();
      nets.set(context.history, net);
    }
    return net;
  };
  const out = { restored: [] as string[], kept: [] as string[], failed: [] as string[] };
  for (const t of [...touched].reverse()) {
    const own = { ...t.context, backup: session };
    const change = netOf(t.context).get(t.rel);
    const original = change?.first.before;
    const stored = original && own.history.getBlob(original.sha);
    if (!change || (original && !stored)) {
      out.failed.push(t.display);
      continue;
    }
    try {
      const restored = await serialized(own, t.real, () =>
        restoreFile(
          own,
          {
            file: own.guard.check(t.real, "write"),
            content: stored ? restorable(stored) : undefined,
            expected: change.last.after?.sha ?? null,
          },
          { note: `${UNDO_NOTE}${planId}`, action: "restore", ifChanged, validate: false },
        ),
      );
      (restored.action === "kept" ? out.kept : out.restored).push(t.display);
    } catch {
      out.failed.push(t.display);
    }
  }
  return { ...out, restored: out.restored.reverse(), session };
}
