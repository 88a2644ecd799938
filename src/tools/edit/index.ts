import { z } from "zod";
import { BatchError, runBatch } from "../../change/batch.js";
import type { CommitOptions } from "../../change/change.js";
import { asToolError } from "../../change/changeset.js";
import { RaceError } from "../../change/commit.js";
import { commitBatch, validateBatch } from "../../change/commit-batch.js";
import type { LoadedFile } from "../../change/load.js";
import { exclusiveAll, serialized } from "../../change/lock.js";
import { atomicNote, putBack, type Written } from "../../change/restore.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { pathList } from "../../text/names.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, validateSchema, withSharedFields } from "../schemas.js";
import { targetsInput } from "../targets.js";
import { planLineEdit } from "./line-edit.js";
import {
  commitEdit,
  type EditPlan,
  type EditResult,
  editResult,
  plannedFile,
  syntaxCheck,
} from "./plan.js";
import { planTextEdit } from "./text-edit.js";

export type { EditResult } from "./plan.js";

const textEdit = z.strictObject({
  old_text: z.string(),
  new_text: z.string(),
  replace_all: z.boolean().optional(),
});

/**
 * One object for every form, so every host (even strict OpenAI) can take it;
 * the shape is checked in `formOf`. One quote (`old_text`, `new_text`) is the
 * call models send most, in the shape other agents' edit tools take.
 */
const target = {
  fields: {
    path: z.string(),
    old_text: z.string().optional(),
    new_text: z.string().optional(),
    replace_all: z.boolean().optional(),
    edits: z.array(textEdit).min(1).optional(),
    file_hash: z.string().optional(),
    ops: z.string().optional(),
  },
  about: {
    old_text: "Whole lines, exactly.",
    edits: "Several old_text/new_text pairs, in order.",
    file_hash: "For ops: the read's TAG.",
    ops: "Line ops, one per line.",
  },
};

const input = targetsInput(target, {
  atomic: z.boolean().optional().describe("All targets or none."),
  mode: modeSchema,
  force: forceSchema,
  validate: validateSchema,
});

type Target = z.output<typeof input>["targets"][number];

const SHAPES =
  'A target is {"path", "old_text", "new_text"} (one text edit), {"path", "edits": [{"old_text", "new_text"}, ...]} (several) or {"path", "file_hash", "ops"} (line ops against the version you read).';

/** The target's text edits: its `edits`, or its one quote. */
function textEdits(t: Target): z.output<typeof textEdit>[] {
  if (t.edits) return t.edits;
  if (t.old_text === undefined || t.new_text === undefined) {
    const missing = t.old_text === undefined ? "old_text" : "new_text";
    throw new ToolError("invalid_input", `Target ${t.path} has no "${missing}". ${SHAPES}`);
  }
  const { old_text, new_text, replace_all } = t;
  return [{ old_text, new_text, ...(replace_all === undefined ? {} : { replace_all }) }];
}

/** Which form a target is, or a ToolError that shows the right shapes. */
function formOf(t: Target): "lines" | "text" {
  const hasOps = t.ops !== undefined;
  const quoted = [t.old_text, t.new_text, t.replace_all].some((v) => v !== undefined);
  const hasEdits = t.edits !== undefined || quoted;
  const mixed = [hasOps && "ops", t.edits !== undefined && "edits", quoted && "old_text"];
  if (mixed.filter(Boolean).length > 1) {
    const names = mixed.filter(Boolean).map((n) => `"${n}"`);
    throw new ToolError(
      "invalid_input",
      `Target ${t.path} mixes ${names.join(" and ")}. ${SHAPES}`,
    );
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
        `Target ${t.path} has text edits and a "file_hash": text edits find their place by content, so drop file_hash (or use "ops" for line edits). ${SHAPES}`,
      );
    }
    return "text";
  }
  throw new ToolError(
    "invalid_input",
    `Target ${t.path} has no edit: neither "old_text", "edits" nor "ops". ${SHAPES}`,
  );
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
    : planTextEdit(context, { path: t.path, edits: textEdits(t), ...checked }, pending);
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
  const others = (i: number) => targets.filter((_, k) => k !== i).map((x) => x.path);
  for (const [i, t] of targets.entries()) {
    try {
      const p = await plan(context, t, pending, checked.get(t));
      plans.push(p);
      pending.set(p.file.rel, plannedFile(p));
    } catch (error) {
      const note = "Atomic batch: no file was changed.";
      throw new BatchError(t.path, asToolError(error), [], others(i), note);
    }
  }
  if ((options.mode ?? "apply") !== "apply") {
    // Previews write nothing: each file reports on its own.
    const results: EditResult[] = [];
    for (const p of plans) results.push((await commitEdit(context, p, options)).result);
    return { results };
  }
  // One batch (commitBatch): its intent is journaled before the first rename, so a
  // process killed between two files leaves a batch the next open finishes.
  const syntax = plans.map(syntaxCheck);
  const batch = await commitBatch(context, plans, options);
  const written: Written[] = [];
  for (const [i, outcome] of batch.outcomes.entries()) {
    if (outcome) written.push({ change: plans[i]!, outcome });
  }
  if (batch.failed) {
    const { index, error } = batch.failed;
    if (written.length === 0 && error instanceof RaceError) throw error; // exclusiveAll runs it again
    const back = await putBack(context, written, "atomic batch failed");
    const note = atomicNote(back, context.backup);
    throw new BatchError(plans[index]!.file.display, asToolError(error), [], others(index), note);
  }
  await validateBatch(context, written, options.validate);
  const results: EditResult[] = [];
  for (const [i, p] of plans.entries()) {
    results.push(await editResult(p, batch.outcomes[i]!, syntax[i]!));
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
Example: {"path": "src/a.ts", "old_text": "const x = 1;", "new_text": "const x = 2;"}`,
  manual: withSharedFields(manual("edit/edit.md"), "mode", "force", "validate"),
  example: { path: "src/main.ts", old_text: "const answer = 41;", new_text: "const answer = 42;" },
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
