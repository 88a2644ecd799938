/**
 * The backup sessions a call may undo, as undo's list (and history's,
 * without a path) gives them: newest first, a page at a time, each with its
 * files' diffs and whether undoing it now would revert cleanly. Read-only:
 * it looks at history and the files, and writes nothing.
 */
import { join } from "node:path";
import { ToolError } from "../errors.js";
import type { BackupSession, HistoryStore } from "../history/history.js";
import { netChanges, type UndoneFiles, undoneFiles, undoTarget } from "../history/undo-state.js";
import { unifiedDiff } from "../text/diff.js";
import { type Document, documentFromBytes } from "../text/document.js";
import type { SessionList, SessionSummary } from "./backup-summary.js";
import type { ChangeContext } from "./context.js";
import { revertsNow, type Seen } from "./reverts-now.js";

/**
 * Whether undoing the session redoes something: true for an undo of a change,
 * false for a change and for a redo (an undo of an undo), and so on down the chain.
 */
export function isUndo(session: BackupSession, byId: Map<string, BackupSession>): boolean {
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
export interface State {
  /** Every backup session, newest first. */
  all: BackupSession[];
  sessions: BackupSession[];
  byId: Map<string, BackupSession>;
  undone: UndoneFiles;
}

export function state(context: ChangeContext, all: boolean | undefined): State {
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

export function versionOf(history: HistoryStore, sha: string | undefined): Version {
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
export function readable(context: ChangeContext, rel: string): boolean {
  try {
    context.guard.check(join(context.guard.root, rel), "read");
    return true;
  } catch {
    return false;
  }
}

async function summarize(
  context: ChangeContext,
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

/** Which page of the list, and whose sessions. */
export interface ListArgs {
  before?: string | undefined;
  limit?: number | undefined;
  all_sessions?: boolean | undefined;
}

/** One page of the backup sessions; `via` is the tool and arguments that list from the newest again. */
export async function listSessions(
  context: ChangeContext,
  args: ListArgs,
  via: { tool: string; args: Record<string, unknown> },
): Promise<SessionList> {
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
          ...via,
          say: (v) => `${v.call(via.tool, via.args)} to list from the newest again.`,
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
