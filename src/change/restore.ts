/**
 * Putting files back: the one restore path, shared by a failed batch, a
 * plan's rollback and undo. A restore is itself a change: it backs up what
 * is there, goes through the same compare-and-swap as every write, and is
 * journaled in the current backup session.
 *
 * A file that is no longer what this call left there was changed by someone
 * else since. A batch or plan putting itself back keeps such a file as they
 * left it and names it ("keep"); undo, asked for by a person or a model,
 * replaces it after backing it up ("replace").
 */
import type { GuardedPath } from "../guard/path-guard.js";
import type { Document } from "../text/document.js";
import type { Change, Mode, Outcome } from "./change.js";
import { commit, RaceError } from "./commit.js";
import type { ChangeContext } from "./context.js";
import { loadReplaced, type OpaqueContent, type Replaced } from "./load.js";

export interface Restore {
  file: GuardedPath;
  /** What the file should hold again; undefined when it should not exist. */
  content: Document | OpaqueContent | undefined;
  /** Permission bits to put back with the content. */
  fileMode?: number;
  /** SHA-256 of what the file held when this call last touched it; null: no file. */
  expected: string | null;
  /** What the file holds now, when the caller has just loaded it (null: no file). */
  current?: Replaced | null;
}

export interface RestoreOptions {
  note: string;
  action: string;
  ifChanged: "keep" | "replace";
  mode?: Mode;
  validate?: boolean;
}

export interface Restored {
  path: string;
  /** "kept": changed by someone else since, and left as they left it. */
  action: "restore" | "delete" | "unchanged" | "kept";
  /** What was there before the restore; set when someone else had changed it. */
  changedSince?: Replaced | null;
  outcome?: Outcome;
}

/** Restores one file; run it under the file's writer lock. */
export async function restoreFile(
  context: ChangeContext,
  restore: Restore,
  options: RestoreOptions,
): Promise<Restored> {
  const { file, content } = restore;
  const current =
    restore.current === undefined
      ? await loadReplaced(context, file)
      : (restore.current ?? undefined);
  const changed = (current?.sha ?? null) !== restore.expected;
  const since = changed ? { changedSince: current ?? null } : {};
  if (changed && options.ifChanged === "keep") {
    return { path: file.display, action: "kept", ...since };
  }
  const { note, action, mode, validate } = options;
  let change: Change;
  if (!content) {
    if (!current) return { path: file.display, action: "unchanged", ...since };
    change = { kind: "delete", file, before: current, note, action };
  } else {
    change = {
      kind: "write",
      file,
      before: current,
      doc: content,
      note,
      action,
      restores: true,
      ...(restore.fileMode !== undefined ? { fileMode: restore.fileMode } : {}),
    };
  }
  try {
    const outcome = await commit(context, change, { mode, validate });
    const done = !content ? "delete" : outcome.changed ? "restore" : "unchanged";
    return { path: file.display, action: done, outcome, ...since };
  } catch (error) {
    // Someone wrote between the look above and the swap: theirs stands.
    if (error instanceof RaceError && options.ifChanged === "keep") {
      return { path: file.display, action: "kept", changedSince: null };
    }
    throw error;
  }
}

/** A change this call committed, and what committing it left in the file. */
export interface Written {
  change: Change;
  outcome: Outcome;
}

export interface PutBack {
  restored: string[];
  /** Changed by someone else after this call wrote them; left as they are. */
  kept: string[];
  /** Could not be restored (an I/O error); the backup session still holds them. */
  failed: string[];
}

/**
 * Puts back what a failed batch already wrote, newest first: every file
 * returns to the version it had before the call, unless someone else changed
 * it since. Run it under the writer locks of every path.
 */
export async function putBack(
  context: ChangeContext,
  written: readonly Written[],
  note: string,
): Promise<PutBack> {
  const out: PutBack = { restored: [], kept: [], failed: [] };
  for (const { change, outcome } of [...written].reverse()) {
    if (!outcome.applied || !outcome.changed) continue;
    const { before } = change;
    try {
      const restored = await restoreFile(
        context,
        {
          file: change.file,
          content: before && (before.doc ?? { bytes: before.bytes, opaque: before.opaque ?? "" }),
          ...(before ? { fileMode: before.mode } : {}),
          expected: outcome.sha ?? null,
        },
        { note, action: "restore", ifChanged: "keep", validate: false },
      );
      (restored.action === "kept" ? out.kept : out.restored).push(change.file.display);
    } catch {
      out.failed.push(change.file.display);
    }
  }
  return out;
}

/** What an atomic batch that failed says of the files it had written. */
export function atomicNote(back: PutBack, backup: string): string {
  if (back.kept.length === 0 && back.failed.length === 0) {
    return "Atomic batch: no file was changed.";
  }
  return `Atomic batch:${putBackNote(back, backup)}`;
}

/** The sentence a failed batch adds about what it put back. */
export function putBackNote(back: PutBack, backup: string): string {
  const parts: string[] = [];
  if (back.restored.length === 0 && back.kept.length === 0 && back.failed.length === 0) {
    return " Nothing had been written.";
  }
  if (back.restored.length > 0) {
    parts.push(` The ${back.restored.length} file(s) already written were put back.`);
  }
  if (back.kept.length > 0) {
    parts.push(
      ` ${back.kept.join(", ")} ${back.kept.length === 1 ? "was" : "were"} changed by another program after this call wrote ${back.kept.length === 1 ? "it" : "them"}, so ${back.kept.length === 1 ? "it was" : "they were"} kept as that program left ${back.kept.length === 1 ? "it" : "them"}; undo backup session ${backup} to return to the version before this call.`,
    );
  }
  if (back.failed.length > 0) {
    parts.push(
      ` Putting back the files already written failed for ${back.failed.join(", ")}; undo backup session ${backup} to restore them.`,
    );
  }
  return parts.join("");
}
