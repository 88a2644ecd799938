import { z } from "zod";
import { BatchError, runBatch } from "../../change/batch.js";
import type { CommitOptions } from "../../change/change.js";
import { asToolError } from "../../change/changeset.js";
import { RaceError } from "../../change/commit.js";
import type { LoadedFile } from "../../change/load.js";
import { exclusiveAll, serialized } from "../../change/lock.js";
import { atomicNote, putBack, type Written } from "../../change/restore.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { pathList } from "../../text/names.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, validateSchema, withSharedFields } from "../schemas.js";
import { planLineEdit } from "./line-edit.js";
import { commitEdit, type EditPlan, type EditResult, plannedFile } from "./plan.js";
import { planTextEdit } from "./text-edit.js";

export type { EditResult } from "./plan.js";

const textEdit = z.strictObject({
  old_text: z.string().describe("Whole lines, exactly."),
  new_text: z.string(),
  replace_all: z.boolean().optional(),
});

/** One object for both forms, so every host (even strict OpenAI) can take it; the shape is checked in `formOf`. */
const target = z.strictObject({
  path: z.string(),
  file_hash: z.string().optional().describe("For ops: the read's TAG."),
  ops: z.string().optional().describe("Line ops, one per line."),
  edits: z.array(textEdit).min(1).optional().describe("Applied in order."),
});

const input = z.strictObject({
  targets: z.array(target).min(1),
  atomic: z.boolean().optional().describe("All targets or none."),
  mode: modeSchema,
  force: forceSchema,
  validate: validateSchema,
});

type Target = z.output<typeof target>;

const SHAPES =
  'A target is either {"path", "file_hash", "ops"} (line ops against the version you read) or {"path", "edits": [{"old_text", "new_text"}]} (text edits).';

/** Which form a target is, or a ToolError that shows the two right shapes. */
function formOf(t: Target): "lines" | "text" {
  const hasOps = t.ops !== undefined;
  const hasEdits = t.edits !== undefined;
  if (hasOps && hasEdits) {
    throw new ToolError("invalid_input", `Target ${t.path} mixes "ops" and "edits". ${SHAPES}`);
  }
  if (hasOps) {
    if (t.file_hash === undefined) {
      throw new ToolError(
        "invalid_input",
        `Target ${t.path} has "ops" but no "file_hash": line numbers mean nothing without the version they refer to. ${SHAPES}`,
      );
    }
    return "lines";
  }
  if (hasEdits) {
    if (t.file_hash !== undefined) {
      throw new ToolError(
        "invalid_input",
        `Target ${t.path} has "edits" and a "file_hash": text edits find their place by content, so drop file_hash (or use "ops" for line edits). ${SHAPES}`,
      );
    }
    return "text";
  }
  throw new ToolError("invalid_input", `Target ${t.path} has neither "ops" nor "edits". ${SHAPES}`);
}

function plan(
  context: ToolContext,
  t: Target,
  pending: Map<string, LoadedFile>,
  file?: GuardedPath,
): Promise<EditPlan> {
  const checked = file ? { file } : {};
  return formOf(t) === "lines"
    ? planLineEdit(
        context,
        { path: t.path, file_hash: t.file_hash!, ops: t.ops!, ...checked },
        pending,
      )
    : planTextEdit(context, { path: t.path, edits: t.edits!, ...checked }, pending);
}

/** Plans every target first, so most failures happen before any write. */
async function editAtomically(
  context: ToolContext,
  targets: Target[],
  options: CommitOptions,
  checked: ReadonlyMap<Target, GuardedPath>,
): Promise<{ results: EditResult[] }> {
  const pending = new Map<string, LoadedFile>();
  const plans: EditPlan[] = [];
  const others = (t: Target) => targets.filter((x) => x !== t).map((x) => x.path);
  for (const t of targets) {
    try {
      const p = await plan(context, t, pending, checked.get(t));
      plans.push(p);
      pending.set(p.file.rel, plannedFile(p));
    } catch (error) {
      const note = "Atomic batch: no file was changed.";
      throw new BatchError(t.path, asToolError(error), [], others(t), note);
    }
  }
  const results: EditResult[] = [];
  const written: Written[] = [];
  for (const [i, p] of plans.entries()) {
    try {
      const { result, outcome } = await commitEdit(context, p, options);
      results.push(result);
      written.push({ change: p, outcome });
    } catch (error) {
      if (written.length === 0 && error instanceof RaceError) throw error; // exclusiveAll runs it again
      const back = await putBack(context, written, "atomic batch failed");
      const note = atomicNote(back, context.backup);
      throw new BatchError(p.file.display, asToolError(error), [], others(targets[i]!), note);
    }
  }
  return { results };
}

function edit(
  context: ToolContext,
  args: z.output<typeof input>,
): Promise<{ results: EditResult[] }> {
  if (args.atomic) {
    // Each path is checked once, for the locks and the plans alike; a refused one is planned
    // unchecked, so it fails inside the batch with its own error.
    const checked = new Map<Target, GuardedPath>();
    for (const t of args.targets) {
      try {
        checked.set(t, context.guard.check(t.path, "write"));
      } catch {}
    }
    return exclusiveAll(context, [...checked.values()], () =>
      editAtomically(
        context,
        args.targets,
        { mode: args.mode, validate: args.validate, force: args.force },
        checked,
      ),
    );
  }
  const options = { mode: args.mode, validate: args.validate, force: args.force };
  return runBatch(args.targets, (t) => {
    const file = context.guard.check(t.path, "write");
    return serialized(context, file, async () => {
      const { result } = await commitEdit(
        context,
        await plan(context, t, new Map(), file),
        options,
      );
      return result;
    });
  });
}

export const editTool = defineTool({
  name: "edit",
  description: `Change part of a file: quote old_text (whole lines, found once; slips in whitespace are tolerated) and new_text. Or line ops on a read's numbers, its TAG as file_hash: "replace 5..7:\\n+text", "delete 9", "insert after 3:\\n+text".
Example: {"targets": [{"path": "src/a.ts", "edits": [{"old_text": "const x = 1;", "new_text": "const x = 2;"}]}]}`,
  manual: withSharedFields(manual("edit/edit.md"), "mode", "force", "validate"),
  example: {
    targets: [
      {
        path: "src/main.ts",
        edits: [{ old_text: "const answer = 41;", new_text: "const answer = 42;" }],
      },
    ],
  },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: true,
  footprint: (args) => ({ reads: [], writes: args.targets.map((t) => t.path) }),
  summarize: (args) => {
    const subject = pathList(args.targets.map((t) => t.path));
    return { subject, summary: `edit ${subject}` };
  },
  preview: async (context, args) => {
    const { results } = await edit(context, { ...args, mode: "preview" });
    return results.map((r) => r.diff).join("");
  },
  call: edit,
});
