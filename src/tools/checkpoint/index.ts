import { z } from "zod";
import { fileView, restoreSession, type UndoFile } from "../../change/restore-session.js";
import { type CheckpointChange, createCheckpoint, diffCheckpoint } from "../../checkpoint/named.js";
import { capped, type NotRestorable } from "../../checkpoint/record.js";
import { ToolError, type Voice, voiced } from "../../errors.js";
import { isCheckpointName } from "../../history/checkpoints.js";
import type { BackupChange } from "../../history/types.js";
import type { NetChange } from "../../history/undo-state.js";
import { count } from "../../util/format.js";
import { CHANGES, defineTool, EVERYTHING, manual, type ToolContext } from "../define.js";

const ACTIONS = ["create", "diff", "restore", "list"] as const;

const input = z.strictObject({
  action: z.enum(ACTIONS),
  name: z.string().optional(),
  apply: z.boolean().optional().describe("restore: write; default preview."),
});

type Args = z.output<typeof input>;

/** `key` and `key_more` for a capped list, left out when empty. */
function fields<T>(key: string, items: T[]): Record<string, T[] | number> {
  const { list, more } = capped(items);
  return {
    ...(list.length > 0 ? { [key]: list } : {}),
    ...(more > 0 ? { [`${key}_more`]: more } : {}),
  };
}

function nameOf(args: Args): string {
  const name = args.name;
  if (name !== undefined && isCheckpointName(name)) return name;
  throw new ToolError(
    "invalid_input",
    name === undefined
      ? `checkpoint ${args.action} needs a name.`
      : `"${name}" cannot name a checkpoint: use letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit).`,
    {},
    {
      tool: "checkpoint",
      args: { action: args.action, name: "before-refactor" },
      say: (v) => `Pass a ${v.arg("name")} such as "before-refactor".`,
    },
  );
}

function localOnly(context: ToolContext): void {
  if (!context.workspace.capabilities?.statWalk) {
    throw new ToolError(
      "invalid_input",
      "Checkpoints are taken of local roots only: a remote root's files are not walked. On the remote host, use git there (git stash, git diff) or run splice on it.",
      {},
    );
  }
  if (context.history.unavailable) throw context.history.unavailable;
}

const plural = (n: number, what: string) => `${count(n)} ${what}${n === 1 ? "" : "s"}`;

function changeLine(c: CheckpointChange): string {
  const what = c.mode_only ? "mode only" : `+${c.added} -${c.removed}`;
  return `${c.kind} ${c.path} (${what})`;
}

function counts(changes: CheckpointChange[]) {
  const out = { created: 0, changed: 0, deleted: 0 };
  for (const c of changes) out[c.kind]++;
  return out;
}

const listed = (c: CheckpointChange) => ({
  path: c.path,
  kind: c.kind,
  added: c.added,
  removed: c.removed,
  ...(c.mode_only ? { mode_only: true } : {}),
});

async function diff(context: ToolContext, name: string) {
  const { checkpoint, changes, not_restorable } = await diffCheckpoint(context, name);
  const c = counts(changes);
  const lines = [
    changes.length === 0
      ? `Nothing changed since checkpoint ${name} (${checkpoint.at}).`
      : `Since checkpoint ${name} (${checkpoint.at}): ${plural(changes.length, "file")} changed (${c.created} created, ${c.changed} changed, ${c.deleted} deleted).`,
    ...capped(changes).list.map(changeLine),
  ];
  const more = capped(changes).more;
  if (more > 0) lines.push(`[… and ${plural(more, "more file")}]`);
  if (not_restorable.length > 0) {
    lines.push(
      `[${plural(not_restorable.length, "file")} of them cannot be restored: see not_restorable]`,
    );
  }
  return {
    name,
    at: checkpoint.at,
    changed_counts: c,
    ...fields("changed_files", changes.map(listed)),
    ...fields("not_restorable", not_restorable),
    content: lines.join("\n"),
  };
}

/** The change restoring `c` undoes, as undo's restore path takes it. */
function asNetChange(context: ToolContext, c: CheckpointChange): NetChange {
  const change: BackupChange = { path: c.path, kind: c.kind === "deleted" ? "delete" : "write" };
  if (c.before) {
    // A version from git (or one whose blob is gone) enters history here, as undo reads it there.
    const kept = c.was?.sha && context.history.hasBlob(c.was.sha) ? c.was.sha : undefined;
    const sha = kept ?? context.history.keepBlob(c.before);
    change.before = { sha, tag: "", size: c.before.length, ...(c.was ? { mode: c.was.mode } : {}) };
  }
  if (c.now) change.after = { sha: c.now, tag: "", size: 0 };
  return { first: change, last: change };
}

async function restore(context: ToolContext, name: string, apply: boolean) {
  const { changes, not_restorable } = await diffCheckpoint(context, name);
  const refused = new Set(not_restorable.map((r) => r.path));
  const entries: [string, NetChange][] = changes
    .filter((c) => !refused.has(c.path))
    .map((c) => [c.path, asNetChange(context, c)]);
  let files: UndoFile[] = [];
  let backup: string | undefined;
  if (entries.length > 0) {
    const done = await restoreSession(
      context,
      `checkpoint ${name}`,
      entries,
      apply ? "apply" : "preview",
      { note: `restore checkpoint ${name}` },
    );
    files = done.files;
    if (apply && files.some((f) => f.action !== "unchanged")) backup = done.backup;
  }
  const header = (v: Voice) =>
    !apply
      ? entries.length === 0
        ? `Restoring checkpoint ${name} would change nothing.`
        : `Restoring checkpoint ${name} would write what follows (nothing was written). ${v.call("checkpoint", { action: "restore", name, apply: true })} to write it.`
      : backup
        ? `Restored checkpoint ${name}. ${v.call("undo", { backup_session: backup })} to put back what was there.`
        : `Checkpoint ${name}: every file already held its content, so nothing was written.`;
  const body = files.map((f) => fileView(f, context.resultDiff === "full"));
  const notice =
    not_restorable.length > 0
      ? [`[${plural(not_restorable.length, "file")} cannot be restored: see not_restorable]`]
      : [];
  const restored = {
    name,
    applied: apply,
    ...(backup ? { backup_session: backup } : {}),
    files,
    ...fields("not_restorable", not_restorable as NotRestorable[]),
  };
  return voiced(restored, (v) => [header(v), ...body, ...notice].join("\n"));
}

async function call(context: ToolContext, args: Args) {
  localOnly(context);
  if (args.action === "list") {
    const kept = context.history.checkpoints().map((c) => ({
      name: c.name,
      at: c.at,
      files: Object.keys(c.files).length,
    }));
    const lines = kept.map((c) => `${c.name} ${c.at} (${plural(c.files, "file")})`);
    return {
      checkpoints: kept,
      content: kept.length === 0 ? "No checkpoints are kept." : lines.join("\n"),
    };
  }
  const name = nameOf(args);
  if (args.action === "diff") return diff(context, name);
  if (args.action === "restore") return restore(context, name, args.apply === true);
  const made = await createCheckpoint(context, name);
  const lines = (v: Voice) => [
    `Checkpoint ${name} taken: ${plural(made.files, "file")} noted. ${v.call("checkpoint", { action: "diff", name })} to see what changed since.`,
    ...(made.uncaptured.length > 0
      ? [
          `[${plural(made.uncaptured.length, "file")} noted without a copy (over the size limits or unreadable): a change to them can be listed, not restored]`,
        ]
      : []),
  ];
  const taken = {
    name,
    at: made.at,
    noted: made.files,
    ...fields("uncaptured", made.uncaptured),
    ...fields("unwatched", made.unwatched),
  };
  return voiced(taken, (v) => lines(v).join("\n"));
}

export const checkpointTool = defineTool({
  name: "checkpoint",
  description: `Note all files under a name; later diff what changed since by any means, or restore them.
Example: {"action": "create", "name": "pre"}`,
  manual: manual("checkpoint/checkpoint.md"),
  example: { action: "diff", name: "before-refactor" },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: (args) => args.action === "restore" && args.apply === true,
  footprint: (args) => ({
    reads: [EVERYTHING],
    writes: args.action === "restore" && args.apply === true ? [EVERYTHING] : [],
  }),
  summarize: (args) => ({
    subject: args.name ?? "",
    summary: `checkpoint ${args.action}${args.name ? ` ${args.name}` : ""}${args.action === "restore" && !args.apply ? " (preview)" : ""}`,
  }),
  preview: async (context, args) => {
    if (args.action !== "restore") return `checkpoint ${args.action} ${args.name ?? ""}`.trim();
    const result = await restore(context, nameOf(args), false);
    return result.files.map((f) => f.diff).join("");
  },
  call,
});
