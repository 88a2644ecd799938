import { join } from "node:path";
import { z } from "zod";
import {
  argPath,
  type Conflicted,
  restoreSession,
  type UndoFile,
} from "../../change/restore-session.js";
import { ToolError, type Voice } from "../../errors.js";
import type { BackupSession, HistoryStore } from "../../history/history.js";
import {
  changesNothing,
  netChanges,
  openPaths,
  type UndoneFiles,
  undoneFiles,
  undoTarget,
} from "../../history/undo-state.js";
import { unifiedDiff } from "../../text/diff.js";
import { type Document, documentFromBytes } from "../../text/document.js";
import { identify } from "../../util/hash.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { modeSchema, withSharedFields } from "../schemas.js";
import { conflictError, explain, OUTSIDE_SESSION } from "./conflict.js";
import { revertsNow, type Seen } from "./reverts.js";
import type { SessionList, SessionSummary } from "./summary.js";
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

export type { UndoFile } from "../../change/restore-session.js";
export type { SessionList, SessionSummary } from "./summary.js";

export interface UndoResult {
  undone: string;
  backup_session?: string;
  applied: boolean;
  files: UndoFile[];
  /** What the model reads (view.ts): the session undone, how to redo it, each file's changes. */
  content: string;
}

/**
 * Whether undoing the session redoes something: true for an undo of a change,
 * false for a change and for a redo (an undo of an undo), and so on down the chain.
 */
function isUndo(session: BackupSession, byId: Map<string, BackupSession>): boolean {
  let undoing = false;
  const seen = new Set<string>();
  for (let s: BackupSession | undefined = session; s && !seen.has(s.id); ) {
    seen.add(s.id);
    const target = undoTarget(s);
    if (target === undefined) break;
    undoing = !undoing;
    s = byId.get(target);
  }
  return undoing;
}

/** Every backup session with what is undone of it; `sessions` are the ones this call may see. */
interface State {
  /** Every backup session, newest first. */
  all: BackupSession[];
  sessions: BackupSession[];
  byId: Map<string, BackupSession>;
  undone: UndoneFiles;
}

function state(context: ToolContext, all: boolean | undefined): State {
  const backups = context.history.backups();
  return {
    all: backups,
    sessions: all ? backups : backups.filter((b) => b.session === context.history.session),
    byId: new Map(backups.map((b) => [b.id, b])),
    // Undos by other agents count too: the files are shared.
    undone: undoneFiles(backups),
  };
}

/** A version as the list diffs it: no version (absent), its text, or why it is not shown. */
type Version = { doc?: Document } | { hidden: string };

function versionOf(history: HistoryStore, sha: string | undefined): Version {
  if (sha === undefined) return {};
  let bytes: Uint8Array | undefined;
  try {
    bytes = history.getBlob(sha);
  } catch (error) {
    return { hidden: `history could not read it (${(error as Error).message})` };
  }
  if (!bytes) return { hidden: "history no longer holds it" };
  const doc = documentFromBytes(bytes);
  return "kind" in doc ? { hidden: "it is not text" } : { doc };
}

/**
 * The diff a listed file shows. The list reads whatever history holds, so
 * a version that is gone, binary or too big to diff is named instead, and
 * one file never makes the list fail.
 */
function listedDiff(history: HistoryStore, path: string, from?: string, to?: string): string {
  const key = `${path}\0${from ?? ""}\0${to ?? ""}`;
  const known = LISTED.get(key);
  if (known !== undefined) return known;
  const diff = diffOf(history, path, from, to);
  // Only real diffs: a version history could not read may be readable next time.
  if (!diff.startsWith("[")) remember(key, diff);
  return diff;
}

/**
 * Diffs the list showed, by path and the two versions' SHA-256: the same
 * every time, and a list (the review page reloads it on every change) would
 * otherwise diff every session again; a 10,000-line change takes seconds.
 */
const LISTED = new Map<string, string>();
const LISTED_MAX_CHARS = 32 * 1024 * 1024;
let listedChars = 0;

function remember(key: string, diff: string): void {
  LISTED.set(key, diff);
  listedChars += diff.length;
  for (const [old, text] of LISTED) {
    if (listedChars <= LISTED_MAX_CHARS) break;
    LISTED.delete(old);
    listedChars -= text.length;
  }
}

function diffOf(history: HistoryStore, path: string, from?: string, to?: string): string {
  const before = versionOf(history, from);
  const after = versionOf(history, to);
  const hidden = [
    "hidden" in before ? `the old version: ${before.hidden}` : "",
    "hidden" in after ? `the new version: ${after.hidden}` : "",
  ].filter(Boolean);
  if (hidden.length > 0) return `[the diff of ${path} is not shown; ${hidden.join("; ")}]\n`;
  try {
    const old = "doc" in before ? before.doc : undefined;
    const next = "doc" in after ? after.doc : undefined;
    return unifiedDiff(old?.lines ?? [], next?.lines ?? [], { path });
  } catch (error) {
    return `[the diff of ${path} is not shown: ${(error as Error).message}]\n`;
  }
}

/** Whether the guard lets this call read the file: the list shows no more than a read would. */
function readable(context: ToolContext, rel: string): boolean {
  try {
    context.guard.check(join(context.guard.root, rel), "read");
    return true;
  } catch {
    return false;
  }
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

async function summarize(
  context: ToolContext,
  b: BackupSession,
  st: State,
  seen: Seen,
): Promise<SessionSummary> {
  const closed = st.undone.get(b.id);
  const changes = [...netChanges(b)];
  const shown = changes.filter(([path]) => readable(context, path));
  const files = shown.map(([path, { first, last }]) => {
    const action = !first.before ? "created" : !last.after ? "deleted" : "modified";
    const diff = listedDiff(context.history, path, first.before?.sha, last.after?.sha);
    return { path, action, diff, undone: closed?.has(path) ?? false } as const;
  });
  const undoes = undoTarget(b);
  const note = b.changes.find((c) => c.note !== undefined)?.note;
  const open = shown.filter(([path]) => !closed?.has(path));
  const reverts = await revertsNow(context, open, seen);
  return {
    backup_session: b.id,
    at: b.at,
    session: b.session,
    ...(b.client !== undefined ? { client: b.client } : {}),
    ...(b.tool !== undefined ? { tool: b.tool } : {}),
    undone: changes.every(([path]) => closed?.has(path)),
    reverts,
    is_undo: isUndo(b, st.byId),
    ...(undoes !== undefined ? { undoes } : {}),
    ...(note !== undefined ? { note } : {}),
    files,
    ...(shown.length < changes.length ? { hidden_files: changes.length - shown.length } : {}),
  };
}

async function list(context: ToolContext, args: z.output<typeof input>): Promise<SessionList> {
  const st = state(context, args.all_sessions);
  let from = 0;
  if (args.before !== undefined) {
    from = st.sessions.findIndex((b) => b.id === args.before) + 1;
    if (from === 0) {
      throw new ToolError(
        "not_found",
        `There is no backup session "${args.before}" to list on from (history may have dropped it).`,
        { before: args.before },
        {
          tool: "undo",
          args: { list: true },
          say: (v) => `${v.call("undo", { list: true })} to list from the newest again.`,
        },
      );
    }
  }
  const page = st.sessions.slice(from, from + (args.limit ?? 10));
  const last = page.at(-1);
  const more = last !== undefined && from + page.length < st.sessions.length;
  const seen: Seen = new Map();
  const sessions: SessionSummary[] = [];
  for (const b of page) sessions.push(await summarize(context, b, st, seen));
  return {
    sessions,
    ...(more ? { next: last.id } : {}),
  };
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
  if (args.list) return list(context, args);
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
