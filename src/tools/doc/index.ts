/**
 * The doc tool: read and change one value in a JSON, JSONC, YAML or TOML
 * file by selector, changing only that value's bytes. The engines live in
 * docs/; this file loads, writes through history, and shapes the result.
 */
import { z } from "zod";
import type { ChangeResult } from "../../change/change.js";
import { commit } from "../../change/commit.js";
import { type LoadedFile, loadTextFile } from "../../change/load.js";
import { serialized } from "../../change/lock.js";
import { runDocAction } from "../../formats/actions.js";
import { docToolError } from "../../formats/errors.js";
import { DOC_FORMATS, type DocFormat, requireFormat } from "../../formats/formats.js";
import type { Json } from "../../formats/values.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { hasFinalNewline, normalizedText, parseDocument, restyle } from "../../text/document.js";
import { header } from "../../text/hashline.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, withSharedFields } from "../schemas.js";

const ACTIONS = ["get", "set", "delete", "delete_where", "append", "merge", "ensure"] as const;

const input = z.strictObject({
  action: z.enum(ACTIONS),
  path: z.string(),
  selector: z.string().describe('e.g. jobs.build.steps[2]; "" is the whole file.'),
  value: z.unknown().optional().describe("set, append, merge, ensure: a JSON value."),
  where: z.unknown().optional().describe("delete_where: what an item contains."),
  format: z.enum(DOC_FORMATS as [DocFormat, ...DocFormat[]]).optional(),
  mode: modeSchema,
  force: forceSchema,
});

type Args = z.output<typeof input>;

export interface DocResult extends ChangeResult {
  action: `doc.${(typeof ACTIONS)[number]}`;
  file_hash: string;
  /** delete, delete_where: how many values were removed. */
  removed?: number;
  /** get: the value; ensure: the value now there. */
  value?: Json;
  /** get: the value as the model reads it. */
  content?: string;
}

/** The parsers load with the first doc call, not with splice. */
const editorFor = async (format: DocFormat, label: string) =>
  (await import("../../formats/open.js")).editorFor(format, label);

async function get(
  context: ToolContext,
  file: GuardedPath,
  loaded: LoadedFile,
  args: Args,
): Promise<DocResult> {
  const format = requireFormat(file.display, args.format);
  const outcome = runDocAction(
    await editorFor(format, file.display),
    file.display,
    normalizedText(loaded.doc),
    {
      action: "get",
      selector: args.selector,
    },
  );
  context.history.recordRead(file.rel, loaded.bytes, loaded.tag, undefined, loaded.sha);
  const head = header(file.display, loaded.tag);
  const shown = args.selector.trim() === "" ? "(document)" : args.selector.trim();
  return {
    action: "doc.get",
    path: file.display,
    changed: false,
    value: outcome.value ?? null,
    content: `${head}\n${shown} = ${JSON.stringify(outcome.value ?? null, null, 2)}`,
    diff: "",
    file_hash: loaded.tag,
    header: head,
    applied: false,
    warnings: outcome.warnings,
  };
}

async function change(context: ToolContext, args: Args): Promise<DocResult> {
  const file = context.guard.check(args.path, "write");
  const loaded = await loadTextFile(context, file);
  const format = requireFormat(file.display, args.format);
  const outcome = runDocAction(
    await editorFor(format, file.display),
    file.display,
    normalizedText(loaded.doc),
    {
      action: args.action,
      selector: args.selector,
      value: args.value as Json | undefined,
      where: args.where as Json | undefined,
    },
  );
  const action = `doc.${args.action}` as const;
  const lines = outcome.changed ? parseDocument(outcome.text).lines : loaded.doc.lines;
  const doc = restyle(
    loaded.doc,
    lines,
    hasFinalNewline(loaded.doc) || loaded.doc.lines.length === 0,
  );
  const result = await commit(
    context,
    { kind: "write", file, before: loaded, doc, note: action, action },
    { mode: args.mode, force: args.force },
  );
  const warnings = outcome.warnings;
  if (result.validationNotice) warnings.push(result.validationNotice);
  if (outcome.removed === 0 && warnings.length === 0) {
    warnings.push(
      args.action === "delete"
        ? `Nothing to delete: ${args.selector} does not exist; the file was not written.`
        : `No item of ${args.selector} matched; the file was not written.`,
    );
  }
  return {
    action,
    path: file.display,
    changed: result.changed,
    ...(outcome.removed !== undefined ? { removed: outcome.removed } : {}),
    ...(outcome.value !== undefined ? { value: outcome.value } : {}),
    diff: result.diff,
    file_hash: result.tag,
    header: result.header,
    applied: result.applied,
    ...(result.backup ? { backup_session: result.backup } : {}),
    ...(result.validation ? { validation: result.validation } : {}),
    warnings,
  };
}

async function doc(context: ToolContext, args: Args): Promise<DocResult> {
  try {
    if (args.action === "get") {
      const file = context.guard.check(args.path, "read");
      return await get(context, file, await loadTextFile(context, file), args);
    }
    return await serialized(context, args.path, () => change(context, args));
  } catch (error) {
    throw docToolError(error, args.path);
  }
}

export const docTool = defineTool({
  name: "doc",
  description: `Get or change one value of a JSON, YAML or TOML file by selector; comments and formatting elsewhere stay.
Example: {"action": "set", "path": "package.json", "selector": "scripts.test", "value": "vitest run"}`,
  manual: withSharedFields(manual("doc/doc.md"), "mode", "force"),
  example: { action: "set", path: "package.json", selector: "scripts.test", value: "vitest run" },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: (args) => args.action !== "get",
  footprint: (args) =>
    args.action === "get" ? { reads: [args.path], writes: [] } : { reads: [], writes: [args.path] },
  summarize: (args) => ({
    subject: args.path,
    summary: `doc.${args.action} ${args.selector || "(document)"} in ${args.path}`,
  }),
  preview: async (context, args) => {
    if (args.action === "get") return `doc.get ${args.selector} in ${args.path}`;
    return (await doc(context, { ...args, mode: "preview" })).diff;
  },
  call: doc,
});
