/**
 * The minimal tool set's edit: one old_text -> new_text in one file. Small
 * models handle a flat shape best; the engine is the full edit tool's.
 */
import { z } from "zod";
import { serialized } from "../../change/lock.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, validateSchema } from "../schemas.js";
import { commitEdit, type EditResult } from "./plan.js";
import { planTextEdit } from "./text-edit.js";

const input = z.strictObject({
  path: z.string().describe("File path, relative to the root."),
  old_text: z.string().describe("The exact text to replace; empty creates a new file."),
  new_text: z.string().describe("The text to put in its place."),
  replace_all: z.boolean().optional().describe("Replace every exact occurrence."),
  mode: modeSchema,
  force: forceSchema,
  validate: validateSchema,
});

export const simpleEditTool = defineTool({
  name: "edit",
  description: manual("edit/simple.md"),
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
  return serialized(context, path, async () => {
    const plan = await planTextEdit(context, { path, edits }, new Map());
    const { result } = await commitEdit(context, plan, {
      mode: args.mode,
      validate: args.validate,
      force: args.force,
    });
    return result;
  });
}
