/**
 * The plan tool: a transaction of tool calls and validation steps. Every
 * write of every step joins one backup session, so the plan undoes as a unit
 * and, under the strict policy, any failing step (a tool error, a command
 * that exits non-zero, a syntax check) puts every touched file back byte for
 * byte. A preview runs the real tools on an in-memory overlay and shows the
 * combined diff.
 */
import { z } from "zod";
import { ToolError } from "../../errors.js";
import type { BackupSession } from "../../history/history.js";
import { defineTool, EVERYTHING, manual, RUNS, type ToolContext } from "../define.js";
import { modeSchema, withSharedFields } from "../schemas.js";
import { type DryRun, dryRunContext } from "./preview.js";
import {
  combinedDiff,
  keyOf,
  type PlanView,
  type Prepared,
  prepareSteps,
  rollback,
  runStep,
  StepFailure,
  type StepInput,
  type StepReport,
  type Touch,
} from "./steps.js";

export type { StepReport } from "./steps.js";

const toolStep = z.strictObject({
  tool: z.string(),
  args: z.record(z.string(), z.unknown()).optional().describe("As in a direct call, without mode."),
});

const validateStep = z.strictObject({
  validate: z.union([
    z.strictObject({
      run: z.string().describe("Must exit 0."),
      cwd: z.string().optional(),
      timeout_ms: z.number().int().min(1).optional(),
    }),
    z.strictObject({
      syntax: z
        .union([z.literal(true), z.array(z.string()).min(1)])
        .describe("Changed files (or these) still parse."),
    }),
  ]),
});

const input = z.strictObject({
  steps: z.array(z.union([toolStep, validateStep])).min(1),
  policy: z
    .enum(["strict", "best_effort"])
    .optional()
    .describe('"best_effort" keeps the steps that worked.'),
  mode: modeSchema,
});

type Args = z.output<typeof input>;

export interface PlanResult {
  action: "plan";
  /** What a model reads: the steps, how to undo, and the combined diff. */
  content: string;
  policy: "strict" | "best_effort";
  applied: boolean;
  changed: boolean;
  /** Files the plan changed (or would), in the order first changed. */
  files: string[];
  /** Before the plan vs after it, every file. */
  diff: string;
  backup_session?: string;
  steps: StepReport[];
  warnings: string[];
}

interface Run {
  view: PlanView;
  stop(): void;
  touches(): Touch[];
}

/**
 * Steps on the disk: every write joins the plan's backup session — in a set
 * of roots, the same session id in each root's history, so one undo takes
 * the plan back everywhere; changed files are noted from each root's events.
 */
function onDisk(context: ToolContext, planId: string): Run {
  const own: ToolContext = { ...context, backup: planId };
  const touched = new Map<string, Touch>();
  // Each root's plan session, read once until the next write there changes it.
  const sessions = new Map<ToolContext["history"], BackupSession | undefined>();
  const planSession = (root: ToolContext) => {
    if (!sessions.has(root.history)) {
      sessions.set(
        root.history,
        root.history.backups().find((b) => b.id === planId),
      );
    }
    return sessions.get(root.history);
  };
  const roots = new Map<ToolContext["events"], ToolContext>();
  const stops: (() => void)[] = [];
  const join = (root: ToolContext): ToolContext => {
    const known = roots.get(root.events);
    if (known) return known;
    roots.set(root.events, root);
    const stop = root.events.on((e) => {
      if (e.type !== "files_changed") return;
      sessions.delete(root.history);
      for (const c of e.changes) {
        const key = keyOf(root, c.resolved);
        if (touched.has(key)) continue;
        const rel = root.guard.relative(c.resolved);
        touched.set(key, { key, real: c.resolved, rel, display: c.path, context: root });
      }
    });
    stops.push(stop);
    return root;
  };
  join(own);
  const view: PlanView = {
    context: own,
    contextFor: (name, args) => {
      if (!context.roots) return own;
      const routed = context.roots(name, args, planId);
      return join(context.signal ? { ...routed, signal: context.signal } : routed);
    },
    touched: () => [...touched.values()],
    before: async (t) => {
      if (!touched.has(t.key)) return read(t);
      const before = planSession(t.context)?.changes.find((c) => c.path === t.rel)?.before;
      return before ? t.context.history.getBlob(before.sha) : undefined;
    },
    after: read,
  };
  return {
    view,
    stop: () => {
      for (const stop of stops.splice(0)) stop();
    },
    touches: () => [...touched.values()],
  };
}

function read(file: Pick<Touch, "context" | "real">): Promise<Uint8Array | undefined> {
  return file.context.workspace.readFile(file.real).catch(() => undefined);
}

/** Steps on overlays, one per root they reach: nothing reaches a disk or a journal. */
function dryRun(context: ToolContext): Run {
  const dry = new Map<ToolContext["events"], { root: ToolContext; run: DryRun }>();
  const of = (root: ToolContext) => {
    let found = dry.get(root.events);
    if (!found) {
      found = { root, run: dryRunContext(root) };
      dry.set(root.events, found);
    }
    return found.run.context;
  };
  const first = of(context);
  const touched = (): Touch[] =>
    [...dry.values()].flatMap(({ root, run }) =>
      run.overlay.changes().map(([real]) => {
        const rel = root.guard.relative(real);
        return { key: keyOf(root, real), real, rel, display: rel, context: run.context };
      }),
    );
  const origin = (t: Touch) =>
    [...dry.values()].find(({ run }) => run.context === t.context)?.root ?? context;
  const view: PlanView = {
    context: first,
    contextFor: (name, args) => (context.roots ? of(context.roots(name, args, "dry-run")) : first),
    touched,
    before: (t) => read({ context: origin(t), real: t.real }),
    after: (t) => t.context.workspace.readFile(t.real).catch(() => undefined),
  };
  return { view, stop() {}, touches: () => [] };
}

const stepList = (reports: StepReport[]) => reports.map((r) => r.step).join(", ");

const isCommand = (step: StepInput | undefined) =>
  step !== undefined && ("validate" in step ? "run" in step.validate : step.tool === "run");

/**
 * Commands that ran (a report with a result): history never saw what they
 * wrote, so a rollback cannot put it back.
 */
function commandsRan(args: Args, reports: StepReport[]): StepReport[] {
  return reports.filter(
    (r) => r.result !== undefined && isCommand(args.steps[r.step - 1] as StepInput | undefined),
  );
}

function commandNote(commands: StepReport[], planId: string): string {
  const named = commands.map((r) => `${r.step} (${r.summary})`).join(", ");
  const note = `Files changed by commands are not rolled back: step${commands.length === 1 ? "" : "s"} ${named} ran, and whatever ${commands.length === 1 ? "it" : "they"} changed stays as left.`;
  // run's checkpoint recorded what they changed in the plan's own backup session.
  const changed = [...new Set(commands.flatMap((r) => r.files ?? []))];
  if (changed.length === 0) return `${note} Check (e.g. git status) before running the plan again.`;
  return `${note} They changed ${changed.join(", ")}; undo backup session ${planId} to put ${changed.length === 1 ? "it" : "them"} back too.`;
}

async function failure(
  args: Args,
  run: Run,
  reports: StepReport[],
  failed: StepReport,
  planId: string,
  preview: boolean,
): Promise<ToolError> {
  const policy = args.policy ?? "strict";
  const lines = [
    `Step ${failed.step} of ${reports.length} (${failed.summary}) failed: ${failed.error?.message ?? "unknown error"}`,
  ];
  const details: Record<string, unknown> = {
    failed_step: failed.step,
    cause: failed.error,
    policy,
    steps: reports,
  };
  const done = reports.filter((r) => r.step < failed.step && r.status === "applied");
  const notRun = reports.filter((r) => r.step > failed.step);
  const touches = run.touches();
  if (preview) {
    lines.push(
      `(Preview: nothing was written. Applied, the plan would stop here${policy === "strict" ? " and restore every file" : ""}.)`,
    );
  } else if (policy === "strict") {
    const commands = commandsRan(args, reports);
    const back = await rollback(planId, touches, commands.length > 0 ? "replace" : "keep");
    details.rolled_back = true;
    details.restored = back.restored;
    if (commands.length > 0) details.commands_ran = commands.map((r) => r.step);
    if (touches.length === 0) {
      lines.push(
        commands.length > 0
          ? "No tool step had changed a file; there was nothing to restore."
          : "The plan had changed nothing; nothing was written.",
      );
    } else {
      if (back.restored.length > 0) {
        lines.push(
          `The plan was rolled back: ${back.restored.join(", ")} ${back.restored.length === 1 ? "is" : "are"} as before it.`,
        );
      }
      if (back.kept.length > 0) {
        details.kept = back.kept;
        details.backup_session = planId;
        const one = back.kept.length === 1;
        lines.push(
          `${back.kept.join(", ")} changed after the plan wrote ${one ? "it" : "them"} (by another program), so ${one ? "it was" : "they were"} kept as ${one ? "it is" : "they are"}; undo backup session ${planId} to restore ${one ? "it" : "them"} to before the plan.`,
        );
      }
      if (back.failed.length > 0) {
        details.backup_session = planId;
        lines.push(
          `Rolling back failed for ${back.failed.join(", ")}; undo backup session ${planId} to restore ${back.failed.length === 1 ? "it" : "them"}.`,
        );
      }
    }
    if (commands.length > 0) {
      lines.push(commandNote(commands, planId));
      if (commands.some((r) => r.files)) details.backup_session = planId;
    }
  } else {
    details.rolled_back = false;
    if (done.length > 0) {
      details.backup_session = planId;
      details.diff = await combinedDiff(run.view);
      lines.push(`Kept steps ${stepList(done)} (undo backup session ${planId} reverts them).`);
    }
    if (notRun.length > 0) lines.push(`Not run: steps ${stepList(notRun)}.`);
  }
  return new ToolError("batch_failed", lines.join("\n"), details);
}

function describe(result: Omit<PlanResult, "content">, preview: boolean): string {
  const verb = preview ? "previewed (nothing was written)" : "applied";
  const head = `plan (${result.policy}): ${result.steps.length} step${result.steps.length === 1 ? "" : "s"} ${verb}`;
  const rows = result.steps.map((r) => {
    const files = r.files ? ` (${r.files.join(", ")})` : "";
    const note = r.status === "skipped" && r.warnings ? ` — ${r.warnings[0]}` : "";
    return `${r.step}. ${r.summary}: ${r.status}${files}${note}`;
  });
  const undo = result.backup_session
    ? [`backup_session ${result.backup_session}: undo it to restore every file the plan changed.`]
    : [];
  return [head, ...rows, ...undo, result.diff.trimEnd()].filter(Boolean).join("\n");
}

async function runPlan(context: ToolContext, args: Args): Promise<PlanResult> {
  const mode = args.mode ?? "apply";
  const preview = mode !== "apply";
  const steps: Prepared[] = prepareSteps(context, args.steps as StepInput[]);
  // The call's backup session is the plan's: every step's writes join it.
  const planId = context.backup;
  const run = preview ? dryRun(context) : onDisk(context, planId);
  const reports: StepReport[] = steps.map((s, i) => ({
    step: i + 1,
    summary: s.summary,
    status: "skipped",
  }));
  try {
    for (const [i, step] of steps.entries()) {
      try {
        reports[i] = await runStep(run.view, step, i + 1, preview);
      } catch (error) {
        const report: StepReport =
          error instanceof StepFailure
            ? error.report
            : {
                ...reports[i]!,
                status: "failed",
                error: {
                  code: "internal",
                  message: error instanceof Error ? error.message : String(error),
                },
              };
        reports[i] = report;
        run.stop();
        throw await failure(args, run, reports, report, planId, preview);
      }
    }
  } finally {
    run.stop();
  }
  const diff = await combinedDiff(run.view);
  const files = run.view.touched().map((t) => t.display);
  if (mode === "check" && diff !== "") {
    throw new ToolError(
      "check_failed",
      `The plan would change ${files.join(", ")} (check mode writes nothing):\n${diff}`,
      {
        paths: files,
        diff,
      },
    );
  }
  const warnings = reports.flatMap((r) => (r.status === "skipped" ? [] : (r.warnings ?? [])));
  const result: Omit<PlanResult, "content"> = {
    action: "plan",
    policy: args.policy ?? "strict",
    applied: !preview,
    changed: diff !== "",
    files,
    diff,
    ...(run.touches().length > 0 ? { backup_session: planId } : {}),
    steps: reports,
    warnings,
  };
  return { ...result, content: describe(result, preview) };
}

export const planTool = defineTool({
  name: "plan",
  description: `Run several tool calls and checks as one transaction: when a step fails, every file is put back.
Example: {"steps": [{"tool": "file", "args": {"action": "delete", "path": "old.ts"}}, {"validate": {"run": "npm test"}}]}`,
  manual: withSharedFields(manual("plan/plan.md"), "mode"),
  example: {
    steps: [
      {
        tool: "edit",
        args: { targets: [{ path: "src/a.ts", edits: [{ old_text: "a()", new_text: "b()" }] }] },
      },
      { tool: "file", args: { action: "rename", path: "src/old.ts", to: "src/new.ts" } },
      { validate: { run: "npm test" } },
    ],
  },
  input,
  annotations: RUNS,
  // Its steps may run commands, so it is approved as a command.
  kind: "run",
  needsApproval: true,
  // A plan may run commands and roll back any file: it runs alone.
  footprint: () => ({ reads: [EVERYTHING], writes: [EVERYTHING] }),
  summarize: (args) => {
    const n = args.steps.length;
    return {
      subject: `${n} step${n === 1 ? "" : "s"}`,
      summary: `plan of ${n} step${n === 1 ? "" : "s"}`,
    };
  },
  preview: async (context, args) => (await runPlan(context, { ...args, mode: "preview" })).content,
  call: runPlan,
});
