/**
 * The minimal tool set's edit: one old_text -> new_text in one file. Small
 * models handle a flat shape best; the engine is the full edit tool's.
 */
import { z } from "zod";
import { serialized } from "../../change/lock.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, validateSchema, withSharedFields } from "../schemas.js";
import { commitEdit, type EditResult } from "./plan.js";
import { planTextEdit } from "./text-edit.js";

const input = z.strictObject({
  path: z.string(),
  old_text: z.string().describe("Whole lines, exactly."),
  new_text: z.string(),
  replace_all: z.boolean().optional(),
  mode: modeSchema,
  force: forceSchema,
  validate: validateSchema,
});

export const simpleEditTool = defineTool({
  name: "edit",
  description: `Replace text in a file: old_text is the exact text (whole lines, unique), new_text its replacement; an empty old_text creates the file. Slips in whitespace or quotes are tolerated and reported; several matches are refused.
Example: {"path": "src/a.ts", "old_text": "const x = 1;", "new_text": "const x = 2;"}`,
  manual: withSharedFields(manual("edit/simple.md"), "mode", "force", "validate"),
  example: { path: "src/main.ts", old_text: "const answer = 41;", new_text: "const answer = 42;" },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: true,
  footprint: (args) => ({ reads: [], writes: [args.path] }),
  summarize: (args) => ({ subject: args.path, summary: `edit ${args.path}` }),
  preview: async (context, args) => (await simpleEdit(context, { ...args, mode: "preview" })).diff,
  call: simpleEdit,
});

function simpleEdit(context: ToolContext, args: z.output<typeof input>): Promise<EditResult> {
  const { path, old_text, new_text, replace_all } = args;
  const edits = [{ old_text, new_text, ...(replace_all === undefined ? {} : { replace_all }) }];
  const file = context.guard.check(path, "write");
  return serialized(context, file, async () => {
    const plan = await planTextEdit(context, { path, edits, file }, new Map());
    const { result } = await commitEdit(context, plan, {
      mode: args.mode,
      validate: args.validate,
      force: args.force,
    });
    return result;
  });
}
