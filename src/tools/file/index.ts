/**
 * The file tool: create, append, prepend, rename/move and delete, each
 * through history so undo restores it. A rename writes the new path and
 * deletes the old one in one backup session (new first: a crash in between
 * leaves two copies, never none).
 */
import { posix } from "node:path";
import { z } from "zod";
import type { Change, ChangeResult, Mode, Outcome } from "../../change/change.js";
import { commitChanges } from "../../change/changeset.js";
import { documentDiff } from "../../change/diffs.js";
import { type LoadedFile, loadIfExists, loadTextFile } from "../../change/load.js";
import { exclusiveAll } from "../../change/lock.js";
import { refuseLinkRemoval } from "../../change/refusals.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { documentFrom, documentOf } from "../../text/compose.js";
import { hasFinalNewline, parseDocument } from "../../text/document.js";
import { looksLikeHashline } from "../../text/hashline.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, withSharedFields } from "../schemas.js";

const ACTIONS = ["create", "append", "prepend", "rename", "move", "delete"] as const;

const input = z.strictObject({
  action: z.enum(ACTIONS),
  path: z.string(),
  text: z.string().optional().describe("create, append, prepend: the text."),
  to: z.string().optional().describe('rename: the new path; ending in "/" keeps the name.'),
  overwrite: z.boolean().optional().describe("rename: replace a file at to."),
  mode: modeSchema,
  force: forceSchema,
});

type Args = z.output<typeof input>;

/** `header` names `dest_path` after a rename. */
export interface FileOpResult extends ChangeResult {
  action: `file.${(typeof ACTIONS)[number]}`;
  /** rename/move: where the file went. */
  dest_path?: string;
  /** delete: how many files were removed (0 or 1). */
  removed?: number;
}

function textLines(text: string): { lines: string[]; finalNewline: boolean } {
  const doc = parseDocument(text.replace(/\r\n/g, "\n"));
  return { lines: doc.lines, finalNewline: text.endsWith("\n") };
}

function result(
  args: Args,
  file: GuardedPath,
  outcome: Outcome,
  diff: string,
  warnings: string[],
): FileOpResult {
  return {
    action: `file.${args.action}`,
    path: file.display,
    header: outcome.header,
    ...(outcome.tag ? { file_hash: outcome.tag } : {}),
    changed: outcome.changed,
    applied: outcome.applied,
    diff,
    ...(outcome.backup ? { backup_session: outcome.backup } : {}),
    warnings: outcome.validationNotice ? [...warnings, outcome.validationNotice] : warnings,
  };
}

async function existing(
  context: ToolContext,
  file: GuardedPath,
  verb: string,
): Promise<LoadedFile> {
  const stat = await context.workspace.stat(file.real);
  if (!stat) {
    throw new ToolError(
      "not_found",
      `${file.display} does not exist, so there is nothing to ${verb}. Check the path${verb === "append to" || verb === "prepend to" ? ', or use action "create"' : ""}.`,
      { path: file.display },
    );
  }
  if (stat.kind === "directory") {
    throw new ToolError(
      "is_directory",
      `${file.display} is a folder; splice moves and deletes files only.`,
      { path: file.display },
      {
        tool: "run",
        say: (v) => `Use ${v.tool("run")} (for example "git mv" or "mv") for folders.`,
      },
    );
  }
  return loadTextFile(context, file);
}

async function one(
  context: ToolContext,
  change: Change,
  mode: Mode,
  force?: boolean,
): Promise<Outcome> {
  const [outcome] = await commitChanges(context, [change], { mode, force });
  return outcome!;
}

async function create(context: ToolContext, args: Args, mode: Mode): Promise<FileOpResult> {
  const file = context.guard.check(args.path, "write");
  const text = args.text ?? "";
  if (await context.workspace.stat(file.real)) {
    throw new ToolError(
      "exists",
      `${file.display} already exists; create never replaces a file. Use append or prepend to add to it, or write to replace it.`,
      { path: file.display },
    );
  }
  if (looksLikeHashline(text)) {
    throw new ToolError(
      "invalid_input",
      `The text for ${file.display} looks like read output (a "¶path#TAG" header and "N| " prefixes). Send the file's plain text.`,
      { path: file.display },
    );
  }
  const warnings: string[] = [];
  const doc = parseDocument(text);
  const fileMode = text.startsWith("#!") ? 0o755 : 0o644;
  if (fileMode === 0o755) warnings.push(`Made ${file.display} executable (it starts with #!).`);
  const change: Change = {
    kind: "write",
    file,
    before: undefined,
    doc,
    fileMode,
    action: "create",
    note: "file.create",
  };
  const outcome = await one(context, change, mode, args.force);
  return result(args, file, outcome, outcome.diff, warnings);
}

async function addText(context: ToolContext, args: Args, mode: Mode): Promise<FileOpResult> {
  const file = context.guard.check(args.path, "write");
  const verb = `${args.action} to`;
  const current = await existing(context, file, verb);
  if (!args.text) {
    throw new ToolError("invalid_input", `${args.action} needs "text": the lines to add.`, {
      path: file.display,
    });
  }
  const add = textLines(args.text);
  const doc = current.doc;
  const warnings: string[] = [];
  const kept = doc.lines.map((_, i) => i);
  const fresh = add.lines.map(() => -1);
  let next: ReturnType<typeof documentOf>;
  if (doc.lines.length === 0) {
    next = documentOf(add.lines, add.finalNewline, doc);
  } else if (args.action === "append") {
    if (!hasFinalNewline(doc)) {
      warnings.push(
        `${file.display} did not end with a line break; one was added so the text starts on its own line.`,
      );
    }
    const finalNewline = add.finalNewline || hasFinalNewline(doc);
    next = documentFrom(doc, [...doc.lines, ...add.lines], [...kept, ...fresh], finalNewline);
  } else {
    next = documentFrom(
      doc,
      [...add.lines, ...doc.lines],
      [...fresh, ...kept],
      hasFinalNewline(doc),
    );
  }
  const change: Change = {
    kind: "write",
    file,
    before: current,
    doc: next,
    action: args.action,
    note: `file.${args.action}`,
  };
  const outcome = await one(context, change, mode, args.force);
  return result(args, file, outcome, outcome.diff, warnings);
}

async function remove(context: ToolContext, args: Args, mode: Mode): Promise<FileOpResult> {
  const file = context.guard.check(args.path, "write");
  const current = await existing(context, file, "delete");
  const change: Change = {
    kind: "delete",
    file,
    before: current,
    action: "delete",
    note: "file.delete",
  };
  const outcome = await one(context, change, mode, args.force);
  const out = result(args, file, outcome, outcome.diff, []);
  out.header = `¶${file.display} (deleted)`;
  out.removed = outcome.applied ? 1 : 0;
  return out;
}

/** `to` as a file path: into a folder (existing, or written with a trailing "/") keeps the name. */
async function destination(
  context: ToolContext,
  src: GuardedPath,
  to: string,
): Promise<GuardedPath> {
  const name = posix.basename(src.display);
  if (/[/\\]$/.test(to)) return context.guard.check(`${to}${name}`, "write");
  const dest = context.guard.check(to, "write");
  const stat = await context.workspace.stat(dest.real);
  return stat?.kind === "directory" ? context.guard.check(posix.join(to, name), "write") : dest;
}

async function rename(context: ToolContext, args: Args, mode: Mode): Promise<FileOpResult> {
  if (!args.to) {
    throw new ToolError("invalid_input", `${args.action} needs "to": the new path.`, {
      path: args.path,
    });
  }
  const src = context.guard.check(args.path, "write");
  refuseLinkRemoval(src, "move");
  const dest = await destination(context, src, args.to);
  return exclusiveAll(context, [src.real, dest.real], async () => {
    const current = await existing(context, src, args.action);
    if (dest.real === src.real) {
      const outcome: Outcome = {
        tag: current.tag,
        header: `¶${src.display}#${current.tag}`,
        diff: "",
        applied: mode === "apply",
        changed: false,
      };
      return result(args, src, outcome, "", [
        `${src.display} is already there; nothing was moved.`,
      ]);
    }
    const destStat = await context.workspace.stat(dest.real);
    if (destStat?.kind === "directory") {
      throw new ToolError("is_directory", `${dest.display} is a folder.`, { path: dest.display });
    }
    const replaced = destStat ? await loadIfExists(context, dest) : undefined;
    if (replaced && !args.overwrite) {
      throw new ToolError(
        "exists",
        `${dest.display} already exists, so ${src.display} was not moved.`,
        { path: src.display, dest_path: dest.display },
        {
          tool: "file",
          say: (v) =>
            `Pass ${v.option("overwrite", true)} to replace it (it is backed up), or pick another name.`,
        },
      );
    }
    const changes: Change[] = [
      {
        kind: "write",
        file: dest,
        before: replaced,
        doc: current.doc,
        fileMode: current.mode,
        action: args.action,
        note: `file.${args.action} from ${src.rel}`,
      },
      {
        kind: "delete",
        file: src,
        before: current,
        action: "delete",
        note: `file.${args.action} to ${dest.rel}`,
      },
    ];
    const [written] = await commitChanges(context, changes, { mode, force: args.force });
    const renameHeader = `diff --git a/${src.display} b/${dest.display}\nrename from ${src.display}\nrename to ${dest.display}\n`;
    const diff =
      renameHeader + (replaced ? documentDiff(dest.display, replaced.doc, current.doc) : "");
    const warnings = replaced ? [`Replaced ${dest.display}; undo brings it back.`] : [];
    const out = result(args, src, { ...written!, changed: true }, diff, warnings);
    out.dest_path = dest.display;
    return out;
  });
}

function fileOp(context: ToolContext, args: Args): Promise<FileOpResult> {
  const mode: Mode = args.mode ?? "apply";
  switch (args.action) {
    case "create":
      return exclusiveAll(context, [args.path], () => create(context, args, mode));
    case "append":
    case "prepend":
      return exclusiveAll(context, [args.path], () => addText(context, args, mode));
    case "delete":
      return exclusiveAll(context, [args.path], () => remove(context, args, mode));
    default:
      return rename(context, args, mode);
  }
}

export const fileTool = defineTool({
  name: "file",
  description: `Create a file, add lines to its end or start, rename (move) or delete it.
Example: {"action": "rename", "path": "src/old.ts", "to": "src/new.ts"}`,
  manual: withSharedFields(manual("file/file.md"), "mode", "force"),
  example: { action: "rename", path: "src/old-name.ts", to: "src/new-name.ts" },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: true,
  footprint: (args) => ({ reads: [], writes: args.to ? [args.path, args.to] : [args.path] }),
  summarize: (args) => ({
    subject: args.path,
    summary: args.to ? `${args.action} ${args.path} to ${args.to}` : `${args.action} ${args.path}`,
  }),
  preview: async (context, args) => (await fileOp(context, { ...args, mode: "preview" })).diff,
  call: fileOp,
});
