/**
 * What the model reads of an undo: which session it undid, the call that
 * redoes it (the model needs that id, so it comes first), then each file
 * as an edit shows it: the header with the new tag and the changed lines.
 * The JSON result keeps every file's whole diff for code.
 */
import { fileView, type UndoFile } from "../../change/restore-session.js";

interface Undone {
  undone: string;
  backup_session?: string;
  applied: boolean;
  files: UndoFile[];
}

function firstLine(r: Undone): string {
  if (!r.applied) return `Undo of ${r.undone} previewed: nothing was written.`;
  if (r.backup_session === undefined) {
    return `Undid ${r.undone}: every file already held its earlier content, so nothing was written.`;
  }
  return `Undid ${r.undone}; undo {"backup_session": "${r.backup_session}"} redoes it.`;
}

/** The model's view of an undo; `full` shows each file's whole diff. */
export function undoView(result: Undone, full: boolean): string {
  return [firstLine(result), ...result.files.map((f) => fileView(f, full))].join("\n");
}
