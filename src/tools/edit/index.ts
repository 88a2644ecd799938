import { z } from "zod";
import { BatchError, runBatch } from "../../change/batch.js";
import {
  exclusiveAll,
  type Mode,
  modeSchema,
  newBackupId,
  serialized,
  validateSchema,
} from "../../change/commit.js";
import {
  commitPlan,
  type EditResult,
  type Plan,
  plannedFile,
  restore,
} from "../../change/edit-plan.js";
import type { LoadedFile } from "../../change/load.js";
import { isToolError, ToolError } from "../../errors.js";
import type { ToolContext } from "../context.js";
import { CHANGES, defineTool, manual, pathList } from "../define.js";
import { planLineEdit } from "./line-edit.js";
import { planTextEdit } from "./text-edit.js";

export type { EditResult } from "../../change/edit-plan.js";

const textEdit = z.strictObject({
  old_text: z.string().describe("The exact text to replace (whole lines are safest)."),
  new_text: z.string().describe("The text to put in its place."),
  replace_all: z.boolean().optional().describe("Replace every exact occurrence."),
});

/** One object for both forms, so every host (even strict OpenAI) can take it; the shape is checked in `formOf`. */
const target = z.strictObject({
  path: z.string().describe("File path, relative to the root."),
  file_hash: z
    .string()
    .optional()
    .describe("Line ops: the 4-hex tag from the read you edit against."),
  ops: z.string().optional().describe('Line ops, e.g. "replace 5..7:\\n+new text\\ndelete 10".'),
  edits: z.array(textEdit).min(1).optional().describe("Text edits, applied in order."),
});

const input = z.strictObject({
  targets: z.array(target).min(1).describe("Files to edit, in order."),
  atomic: z.boolean().optional().describe("Apply every target or none."),
  mode: modeSchema,
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

function plan(context: ToolContext, t: Target, pending: Map<string, LoadedFile>): Promise<Plan> {
  return formOf(t) === "lines"
    ? planLineEdit(context, { path: t.path, file_hash: t.file_hash!, ops: t.ops! }, pending)
    : planTextEdit(context, { path: t.path, edits: t.edits! }, pending);
}

function asToolError(error: unknown): ToolError {
  if (isToolError(error)) return error;
  return new ToolError("io", error instanceof Error ? error.message : String(error));
}

/** Plans every target first, so most failures happen before any write. */
async function editAtomically(
  context: ToolContext,
  targets: Target[],
  mode: Mode | undefined,
  validate: boolean | undefined,
): Promise<{ results: EditResult[] }> {
  const backup = context.backup ?? newBackupId();
  const pending = new Map<string, LoadedFile>();
  const plans: Plan[] = [];
  const others = (t: Target) => targets.filter((x) => x !== t).map((x) => x.path);
  for (const t of targets) {
    try {
      const p = await plan(context, t, pending);
      plans.push(p);
      pending.set(p.file.rel, plannedFile(p));
    } catch (error) {
      throw new BatchError(t.path, asToolError(error), [], others(t), true);
    }
  }
  const results: EditResult[] = [];
  for (const [i, p] of plans.entries()) {
    try {
      results.push(await commitPlan(context, p, mode, backup, validate));
    } catch (error) {
      await restore(context, plans.slice(0, results.length), backup);
      throw new BatchError(p.file.display, asToolError(error), [], others(targets[i]!), true);
    }
  }
  return { results };
}

function edit(
  context: ToolContext,
  args: z.output<typeof input>,
): Promise<{ results: EditResult[] }> {
  if (args.atomic) {
    const paths = args.targets.map((t) => t.path);
    return exclusiveAll(context, paths, () =>
      editAtomically(context, args.targets, args.mode, args.validate),
    );
  }
  const backup = context.backup ?? newBackupId();
  return runBatch(args.targets, (t) =>
    serialized(context, t.path, async () =>
      commitPlan(context, await plan(context, t, new Map()), args.mode, backup, args.validate),
    ),
  );
}

export const editTool = defineTool({
  name: "edit",
  description: manual("edit/edit.md"),
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
