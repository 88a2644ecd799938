/**
 * The md tool: edit a Markdown file by section (heading path). A move to
 * another file writes both files in one backup session, under both writer
 * locks, all or nothing.
 */
import { z } from "zod";
import type { ChangeResult, Mode, Outcome } from "../../change/change.js";
import { commitChanges } from "../../change/changeset.js";
import { commit } from "../../change/commit.js";
import { type LoadedFile, loadIfExists, loadTextFile } from "../../change/load.js";
import { exclusiveAll, serialized } from "../../change/lock.js";
import { ToolError } from "../../errors.js";
import { docToolError } from "../../formats/errors.js";
import type { MdEdit } from "../../formats/markdown-edit.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { type Document, hasFinalNewline, restyle } from "../../text/document.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, withSharedFields } from "../schemas.js";

const ACTIONS = [
  "replace_section",
  "insert_after_heading",
  "append_to_section",
  "move_section",
  "upsert_bullet",
  "table_append",
] as const;

const input = z.strictObject({
  action: z.enum(ACTIONS),
  path: z.string(),
  heading: z.string().describe('A heading, or a path: "Install > From source".'),
  text: z.string().optional(),
  line: z.number().int().min(1).optional().describe("If several headings match."),
  to: z.string().optional().describe("move_section: the new parent heading."),
  to_line: z.number().int().min(1).optional().describe("If several match."),
  to_path: z.string().optional().describe("move_section: another file."),
  bullet: z.string().optional(),
  row: z
    .array(z.union([z.string(), z.number(), z.boolean()]))
    .optional()
    .describe("table_append: the cells."),
  mode: modeSchema,
  force: forceSchema,
});

type Args = z.output<typeof input>;

/** `diff` holds both files' diffs for a move to another file. */
export interface MdResult extends ChangeResult {
  action: `md.${(typeof ACTIONS)[number]}`;
  file_hash: string;
  /** move_section to another file: that file. */
  dest_path?: string;
  dest_file_hash?: string;
}

function docWith(loaded: LoadedFile | undefined, lines: string[]): Document {
  if (!loaded) return restyle({ bom: false, lines: [], eols: [], eol: "\n" }, lines, true);
  const doc = loaded.doc;
  return restyle(doc, lines, hasFinalNewline(doc) || doc.lines.length === 0);
}

/** The Markdown engine, loaded (with markdown-it) by the first md call rather than with splice. */
async function markdownEngine() {
  const [parsing, editing, tables] = await Promise.all([
    import("../../formats/markdown.js"),
    import("../../formats/markdown-edit.js"),
    import("../../formats/markdown-table.js"),
  ]);
  return { ...parsing, ...editing, ...tables };
}

/** The section `heading` (and `line`) names, and `to` (and `to_line`) for a move. */
function refs(args: Args) {
  return {
    section: { heading: args.heading, line: args.line },
    to: args.to === undefined ? undefined : { heading: args.to, line: args.to_line },
  };
}

async function edit(args: Args, lines: string[], label: string): Promise<MdEdit> {
  const md = await markdownEngine();
  const parsed = md.parseMarkdown(lines);
  const { section, to } = refs(args);
  switch (args.action) {
    case "replace_section":
      return md.replaceSection(parsed, section, args.text, label);
    case "insert_after_heading":
      return md.insertAfterHeading(parsed, section, args.text, label);
    case "append_to_section":
      return md.appendToSection(parsed, section, args.text, label);
    case "upsert_bullet":
      return md.upsertBullet(parsed, section, args.bullet, label);
    case "table_append":
      return md.tableAppend(parsed, section, args.row, label);
    case "move_section": {
      const moved = md.moveSection({ parsed, label }, section, to);
      return { lines: moved.source, warnings: moved.warnings };
    }
  }
}

function result(
  args: Args,
  file: GuardedPath,
  outcome: Outcome,
  warnings: string[],
  extra: Partial<MdResult> = {},
): MdResult {
  if (outcome.validationNotice) warnings.push(outcome.validationNotice);
  if (!outcome.changed && warnings.length === 0)
    warnings.push("Nothing changed; the file was not written.");
  return {
    action: `md.${args.action}`,
    path: file.display,
    ...extra,
    changed: outcome.changed || extra.changed === true,
    diff: outcome.diff + (extra.diff ?? ""),
    file_hash: outcome.tag,
    header: outcome.header,
    applied: outcome.applied,
    ...(outcome.backup ? { backup_session: outcome.backup } : {}),
    ...(outcome.validation ? { validation: outcome.validation } : {}),
    warnings,
  };
}

async function inOneFile(context: ToolContext, args: Args): Promise<MdResult> {
  const file = context.guard.check(args.path, "write");
  const loaded = await loadTextFile(context, file);
  const change = await edit(args, loaded.doc.lines, file.display);
  const action = `md.${args.action}`;
  const doc = docWith(loaded, change.lines);
  const outcome = await commit(
    context,
    { kind: "write", file, before: loaded, doc, note: action, action },
    { mode: args.mode, force: args.force },
  );
  return result(args, file, outcome, change.warnings);
}

/** Both files change or neither: the destination is written first and put back if the source fails. */
async function toOtherFile(
  context: ToolContext,
  args: Args,
  source: GuardedPath,
  dest: GuardedPath,
): Promise<MdResult> {
  const from = await loadTextFile(context, source);
  const into = await loadIfExists(context, dest);
  const md = await markdownEngine();
  const { section, to } = refs(args);
  const moved = md.moveSection(
    { parsed: md.parseMarkdown(from.doc.lines), label: source.display },
    section,
    to,
    { parsed: md.parseMarkdown(into?.doc.lines ?? []), label: dest.display },
  );
  const action = "md.move_section";
  const mode: Mode = args.mode ?? "apply";
  const destDoc = docWith(into, moved.dest!);
  const sourceDoc = docWith(from, moved.source);
  const change = (file: GuardedPath, before: LoadedFile | undefined, doc: Document) =>
    ({ kind: "write", file, before, doc, note: action, action }) as const;
  const destChange = change(dest, into, destDoc);
  const sourceChange = change(source, from, sourceDoc);
  if (mode === "check") {
    // Report both files' diffs, not only the first one's.
    const a = await commit(context, destChange, { mode: "preview", force: args.force });
    const b = await commit(context, sourceChange, { mode: "preview", force: args.force });
    if (a.changed || b.changed) {
      throw new ToolError(
        "check_failed",
        `${source.display} and ${dest.display} would change (check mode writes nothing):\n${b.diff}${a.diff}`,
        { path: source.display, dest_path: dest.display, diff: b.diff + a.diff },
      );
    }
  }
  // Applied, the two files are one batch (commitChanges): all or nothing, across a crash too.
  const [destOutcome, sourceOutcome] =
    mode === "apply"
      ? ((await commitChanges(context, [destChange, sourceChange], { force: args.force })) as [
          Outcome,
          Outcome,
        ])
      : [
          await commit(context, destChange, { mode, force: args.force }),
          await commit(context, sourceChange, { mode, force: args.force }),
        ];
  return result(args, source, sourceOutcome, moved.warnings, {
    dest_path: dest.display,
    dest_file_hash: destOutcome.tag,
    changed: destOutcome.changed,
    diff: destOutcome.diff,
  });
}

async function md(context: ToolContext, args: Args): Promise<MdResult> {
  try {
    if (args.action === "move_section" && args.to_path !== undefined) {
      const source = context.guard.check(args.path, "write");
      const dest = context.guard.check(args.to_path, "write");
      if (dest.real !== source.real) {
        return await exclusiveAll(context, [args.path, args.to_path], () =>
          toOtherFile(context, args, source, dest),
        );
      }
    }
    return await serialized(context, args.path, () => inOneFile(context, args));
  } catch (error) {
    throw docToolError(error, args.path);
  }
}

export const mdTool = defineTool({
  name: "md",
  description: `Edit a Markdown file by heading: sections, bullets, table rows.
Example: {"action": "append_to_section", "path": "README.md", "heading": "Install", "text": "Needs Node 20."}`,
  manual: withSharedFields(manual("md/md.md"), "mode", "force"),
  example: {
    action: "append_to_section",
    path: "README.md",
    heading: "Install",
    text: "Run `npm ci`.",
  },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: true,
  footprint: (args) => ({
    reads: [],
    writes: args.to_path !== undefined ? [args.path, args.to_path] : [args.path],
  }),
  summarize: (args) => ({
    subject: args.path,
    summary: `md.${args.action} "${args.heading}" in ${args.path}${args.to_path ? ` to ${args.to_path}` : ""}`,
  }),
  preview: async (context, args) => (await md(context, { ...args, mode: "preview" })).diff,
  call: md,
});
