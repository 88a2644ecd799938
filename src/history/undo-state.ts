/**
 * What is undone now, file by file. An undo journals each file it restores
 * with the note "undo <session>"; one file of a session can be undone alone,
 * and an undo can itself be undone, which puts the files it restored back.
 */
import type { BackupChange, BackupSession } from "./history.js";

export const UNDO_NOTE = "undo ";

/** A path's first and last change in one session: its content before and after it. */
export interface NetChange {
  first: BackupChange;
  last: BackupChange;
}

/** Per path: the content before the session's first change and after its last. */
export function netChanges(session: BackupSession): Map<string, NetChange> {
  const out = new Map<string, NetChange>();
  for (const c of session.changes) {
    const seen = out.get(c.path);
    out.set(c.path, { first: seen?.first ?? c, last: c });
  }
  return out;
}

function undid(change: BackupChange): string | undefined {
  return change.note?.startsWith(UNDO_NOTE) ? change.note.slice(UNDO_NOTE.length) : undefined;
}

/** Session id -> its undone paths, each with the undo session that undid it. */
export type UndoneFiles = Map<string, Map<string, string>>;

/**
 * From backups newest first: every undo of a session is newer than the
 * session, so by the time an undo is reached it is known which of its own
 * files were undone since; only the others still count.
 */
export function undoneFiles(backups: readonly BackupSession[]): UndoneFiles {
  const undone: UndoneFiles = new Map();
  for (const b of backups) {
    const own = undone.get(b.id);
    for (const change of b.changes) {
      const target = undid(change);
      if (target === undefined || own?.has(change.path)) continue;
      const files = undone.get(target) ?? new Map<string, string>();
      if (!files.has(change.path)) files.set(change.path, b.id);
      undone.set(target, files);
    }
  }
  return undone;
}

/** Whether every file ends the session as it began it (an atomic batch that was put back). */
export function changesNothing(session: BackupSession): boolean {
  for (const { first, last } of netChanges(session).values()) {
    if (first.before?.sha !== last.after?.sha) return false;
  }
  return true;
}

/** The session's paths that are not undone now, in journal order. */
export function openPaths(session: BackupSession, undone: UndoneFiles): string[] {
  const closed = undone.get(session.id);
  return [...netChanges(session).keys()].filter((path) => !closed?.has(path));
}

/** The session an undo session undid; undefined for any other session. */
export function undoTarget(session: BackupSession): string | undefined {
  const target = session.changes[0] && undid(session.changes[0]);
  return target !== undefined && session.changes.every((c) => undid(c) === target)
    ? target
    : undefined;
}
