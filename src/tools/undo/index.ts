import { join } from "node:path";
import { z } from "zod";
import {
  isUndo,
  listSessions,
  readable,
  type State,
  state,
  versionOf,
} from "../../change/backup-list.js";
import type { SessionList } from "../../change/backup-summary.js";
import {
  argPath,
  type Conflicted,
  restoreSession,
  type UndoFile,
} from "../../change/restore-session.js";
import { ToolError, type Voice } from "../../errors.js";
import type { BackupSession } from "../../history/history.js";
import { changesNothing, netChanges, openPaths } from "../../history/undo-state.js";
import { identify } from "../../util/hash.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { modeSchema, withSharedFields } from "../schemas.js";
import { conflictError, explain, OUTSIDE_SESSION } from "./conflict.js";
import { undoView } from "./view.js";

const input = z.strictObject({
  backup_session: z.string().optional().describe("Default: your newest change."),
  path: z.string().optional().describe("Only this file."),
  list: z.boolean().optional().describe("List sessions instead."),
  limit: z.number().int().min(1).max(200).optional().describe("Default 10."),
  before: z.string().optional().describe("A list's next: older sessions."),
  all_sessions: z.boolean().optional().describe("Also other agents' changes."),
  force: z.boolean().optional().describe("Overwrite overlapping later changes."),
  mode: modeSchema,
});

export type { SessionList, SessionSummary } from "../../change/backup-summary.js";
export type { UndoFile } from "../../change/restore-session.js";

export interface UndoResult {
  undone: string;
  backup_session?: string;
  applied: boolean;
  files: UndoFile[];
  /** What the model reads (view.ts): the session undone, how to redo it, each file's changes. */
  content: string;
}

/**
 * Records what the session's files hold now, before undo picks what to undo.
 * A writer killed after its rename but before its journal's completion mark
 * left a change that counts as landed only once an event names the version
 * it wrote: this read is that event, so undo reaches that change and does
 * not go one further back.
 */
async function witness(context: ToolContext, session: BackupSession): Promise<void> {
  for (const rel of netChanges(session).keys()) {
    if (!readable(context, rel)) continue;
    try {
      const bytes = await context.workspace.readFile(join(context.guard.root, rel));
      const { sha, tag } = identify(bytes);
      context.history.recordRead(rel, bytes, tag, undefined, sha);
    } catch {
      // Gone or unreadable: restoring it reports that.
    }
  }
}

/** The session's files as `path` arguments, those this call may read. */
function changedPaths(context: ToolContext, session: BackupSession): string {
  const paths = [...netChanges(session).keys()].filter((rel) => readable(context, rel));
  return paths.map((rel) => argPath(context, rel)).join(", ") || "only files you may not read";
}

/**
 * The named session, or the newest one that made a change (a change or a
 * redo, not an undo) and still has files in effect.
 */
function pickSession(st: State, args: z.output<typeof input>): BackupSession {
  if (args.backup_session !== undefined) {
    const found = st.byId.get(args.backup_session);
    if (found) return found;
    throw new ToolError(
      "not_found",
      `There is no backup session "${args.backup_session}".`,
      {},
      {
        tool: "undo",
        args: { list: true },
        say: (v) => `${v.call("undo", { list: true })} to see the sessions you can undo.`,
      },
    );
  }
  // A change made outside splice (an editor's save the root's watch kept) is undone only by name.
  const newest = st.sessions.find(
    (b) =>
      b.session !== OUTSIDE_SESSION &&
      !isUndo(b, st.byId) &&
      !changesNothing(b) &&
      openPaths(b, st.undone).length > 0,
  );
  if (newest) return newest;
  throw new ToolError(
    "not_found",
    "There is nothing left to undo in this session.",
    {},
    {
      tool: "undo",
      args: { list: true, all_sessions: true },
      say: (v) =>
        `${v.call("undo", { list: true, all_sessions: true })} to see changes made by others.`,
    },
  );
}

function alreadyUndone(session: BackupSession, st: State): ToolError {
  const by = [...new Set(st.undone.get(session.id)?.values())];
  // "call undo with {…}" mid-sentence, "run splice undo …" for a person.
  const redo = (v: Voice) =>
    by.map((id) => v.call("undo", { backup_session: id }).replace(/^\w/, (c) => c.toLowerCase()));
  return new ToolError(
    "not_found",
    `Session ${session.id} is already undone (by ${by.join(", ")}).`,
    { backup_session: session.id, undone_by: by },
    {
      tool: "undo",
      args: { backup_session: by[0] },
      say: (v) =>
        `To redo it, ${redo(v).join(" and ")}; to restore one of its files again anyway, add its ${v.arg("path")}.`,
    },
  );
}

async function undo(
  context: ToolContext,
  args: z.output<typeof input>,
): Promise<UndoResult | SessionList> {
  if (args.list) return listSessions(context, args, { tool: "undo", args: { list: true } });
  await witness(context, pickSession(state(context, args.all_sessions), args));
  const st = state(context, args.all_sessions);
  const session = pickSession(st, args);
  let changes = [...netChanges(session)];
  if (args.path === undefined) {
    const open = new Set(openPaths(session, st.undone));
    if (open.size === 0) throw alreadyUndone(session, st);
    changes = changes.filter(([path]) => open.has(path));
  } else {
    const rel = context.guard.check(args.path, "write").rel;
    changes = changes.filter(([path]) => path === rel);
    if (changes.length === 0) {
      throw new ToolError(
        "not_found",
        `Session ${session.id} did not change ${args.path}; it changed: ${changedPaths(context, session)}.`,
      );
    }
  }
  // Restored newest change first, as the journal made them; reported in journal order.
  const read = (sha: string) => {
    const version = versionOf(context.history, sha);
    return "doc" in version ? version.doc?.lines : undefined;
  };
  const refuse = (conflicts: Conflicted[]) =>
    conflictError(explain(conflicts, session, st.all, st.undone, read), session, st.all, args.path);
  const { files, backup } = await restoreSession(
    context,
    session.id,
    changes.reverse(),
    args.mode ?? "apply",
    { revert: { force: args.force === true, refuse } },
  );
  const applied = (args.mode ?? "apply") === "apply";
  const wrote = applied && files.some((f) => f.action !== "unchanged");
  const done = {
    undone: session.id,
    ...(wrote ? { backup_session: backup } : {}),
    applied,
    files: files.reverse(),
  };
  return { ...done, content: undoView(done, context.resultDiff === "full") };
}

export const undoTool = defineTool({
  name: "undo",
  description: `Undo a whole earlier call by its backup_session, or list what can be undone.
Example: {"list": true}`,
  manual: withSharedFields(manual("undo/undo.md"), "mode"),
  example: { backup_session: "20261130-091650-a1b2c3" },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: (args) => !args.list,
  footprint: (args) => ({ reads: [], writes: args.list ? [] : args.path ? [args.path] : ["*"] }),
  summarize: (args) => {
    const what = args.list
      ? "list backup sessions"
      : `undo ${args.backup_session ?? "the newest change"}`;
    return {
      subject: args.backup_session ?? "",
      summary: args.path ? `${what} for ${args.path}` : what,
    };
  },
  preview: async (context, args) => {
    const result = await undo(context, { ...args, mode: "preview" });
    return "files" in result ? result.files.map((f) => f.diff).join("") : "";
  },
  call: undo,
});
