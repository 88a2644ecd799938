/**
 * Several file changes committed as one: writes and deletes, planned first,
 * then written in order under one backup session. When a later write fails,
 * the earlier ones are put back (created files removed, deleted ones
 * recreated), so the disk holds all of the changes or none. Run it under the
 * writer locks of every path (exclusiveAll).
 */
import { ToolError } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { type Document, documentFromBytes } from "../text/document.js";
import type { ToolContext } from "../tools/context.js";
import { type Mode, type Outcome, refuseLinkRemoval, settle, settleDelete } from "./commit.js";
import { identify, type LoadedFile } from "./load.js";

export type Change =
  | {
      kind: "write";
      file: GuardedPath;
      /** The file as it is now; undefined when the change creates it. */
      before: LoadedFile | undefined;
      doc: Document;
      fileMode?: number;
      action: string;
      note: string;
    }
  | { kind: "delete"; file: GuardedPath; before: LoadedFile; action: string; note: string };

function asToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  return new ToolError("io", error instanceof Error ? error.message : String(error));
}

/** Writes, previews or checks every change; outcomes are in the order of `changes`. */
export async function commitChanges(
  context: ToolContext,
  changes: readonly Change[],
  mode: Mode,
  backup: string,
): Promise<Outcome[]> {
  // Before anything is written: a link among the deletes refuses the whole change.
  for (const c of changes) if (c.kind === "delete") refuseLinkRemoval(c.file);
  if (mode !== "apply") {
    const shown = mode === "check" ? "preview" : mode;
    const outcomes: Outcome[] = [];
    for (const c of changes) outcomes.push(await commitOne(context, c, shown, backup));
    const changed = outcomes.filter((o) => o.changed);
    if (mode === "check" && changed.length > 0) {
      const diff = changed.map((o) => o.diff).join("");
      const paths = changes.filter((_, i) => outcomes[i]!.changed).map((c) => c.file.display);
      throw new ToolError(
        "check_failed",
        `${paths.join(", ")} would change (check mode writes nothing):\n${diff}`,
        { paths, diff },
      );
    }
    return outcomes;
  }
  const outcomes: Outcome[] = [];
  for (const c of changes) {
    try {
      outcomes.push(await commitOne(context, c, "apply", backup));
    } catch (error) {
      const failed = asToolError(error);
      const undone = await restoreChanges(context, changes.slice(0, outcomes.length), backup);
      const note =
        outcomes.length === 0
          ? " Nothing had been written."
          : undone.length === 0
            ? ` The ${outcomes.length} file(s) already written were put back.`
            : ` Putting back the files already written failed for ${undone.join(", ")}; undo backup session ${backup} to restore them.`;
      throw new ToolError(failed.code, `${failed.message}${note}`, failed.details);
    }
  }
  return outcomes;
}

function commitOne(context: ToolContext, c: Change, mode: Mode, backup: string): Promise<Outcome> {
  if (c.kind === "delete") {
    return settleDelete(context, c.file, c.before, { note: c.note, backup }, mode);
  }
  return settle(
    context,
    c.file,
    {
      kind: "write",
      before: c.before,
      doc: c.doc,
      note: c.note,
      action: c.action,
      backup,
      ...(c.fileMode !== undefined ? { fileMode: c.fileMode } : {}),
    },
    mode,
  );
}

/**
 * Puts back what `written` changed, newest first, recording each in history
 * under the same backup session. Returns the paths it could not restore.
 */
export async function restoreChanges(
  context: ToolContext,
  written: readonly Change[],
  backup: string,
): Promise<string[]> {
  const failed: string[] = [];
  for (const c of [...written].reverse()) {
    const { file } = c;
    try {
      const now = await context.workspace.readFile(file.real).catch(() => undefined);
      const nowDoc = now && documentFromBytes(now);
      const nowRef =
        now && nowDoc && !("kind" in nowDoc) ? { bytes: now, ...identify(now) } : undefined;
      const original = c.before;
      if (original) {
        context.history.recordWrite({
          kind: "rollback",
          path: file.rel,
          ...(nowRef ? { before: nowRef } : {}),
          after: { bytes: original.bytes, tag: original.tag, sha: original.sha },
          note: "restored after a failed write",
          backup,
        });
        await context.workspace.writeFile(file.real, original.bytes, { mode: original.mode });
      } else if (now) {
        if (nowRef) {
          context.history.recordWrite({
            kind: "delete",
            path: file.rel,
            before: nowRef,
            note: "restored after a failed write",
            backup,
          });
        }
        await context.workspace.remove(file.real);
      }
    } catch {
      failed.push(file.display);
    }
  }
  return failed;
}

/**
 * A document of `lines` in the style of `like` (BOM, dominant line ending),
 * LF without one; the last line ends with a newline when `finalNewline`.
 */
export function documentOf(lines: string[], finalNewline: boolean, like?: Document): Document {
  const eol = like?.eol ?? "\n";
  const eols: string[] = lines.map(() => eol);
  if (lines.length > 0 && !finalNewline) eols[lines.length - 1] = "";
  return { bom: like?.bom ?? false, lines, eols, eol };
}

/**
 * New lines for `before`, where `origin[i]` is the line of `before` that line
 * i is (or -1 for a new line): kept lines keep their own terminators, so a
 * mixed file stays mixed; new lines get the dominant one.
 */
export function documentFrom(
  before: Document,
  lines: string[],
  origin: readonly number[],
  finalNewline: boolean,
): Document {
  const eols = lines.map((_, i) => {
    const o = origin[i] ?? -1;
    return (o >= 0 ? before.eols[o] : undefined) || before.eol;
  });
  if (lines.length > 0 && !finalNewline) eols[lines.length - 1] = "";
  return { bom: before.bom, lines, eols, eol: before.eol };
}
