/**
 * Putting a backup session's files back (undo, a checkpoint's restore). Every file is checked before any is
 * written — the guard, its stored original, what is there now — so a refusal
 * changes nothing; a write that still fails midway is reported with exactly
 * which files were restored and which were not.
 */

import { join, relative, sep } from "node:path";
import { ToolError } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { type NetChange, UNDO_NOTE } from "../history/undo-state.js";
import type { EditValidation } from "../lsp/verdict.js";
import { changedLines } from "../text/changed-lines.js";
import type { Document } from "../text/document.js";
import type { Change, Mode } from "./change.js";
import { commitBatch, validateBatch } from "./commit-batch.js";
import type { ChangeContext } from "./context.js";
import { loadReplaced, type OpaqueContent, type Replaced, restorable } from "./load.js";
import { exclusiveAll } from "./lock.js";
import { reportCallProgress } from "./progress.js";
import { restoreFile, type Written } from "./restore.js";
import {
  conflictsOf,
  mergedWarning,
  planFileRevert,
  type Reverting,
  type RevertPlan,
} from "./revert.js";

export type { Conflicted, Reverting } from "./revert.js";

export interface UndoFile {
  path: string;
  action: "restore" | "delete" | "unchanged";
  file_hash: string | null;
  diff: string;
  warnings: string[];
  /** What the language server says about the restored content, as for any write. */
  validation?: EditValidation;
}

interface Step {
  rel: string;
  file: GuardedPath;
  change: NetChange;
  current: Replaced | undefined;
  /** What to write back; absent when the session created the file, which is then deleted. */
  content?: Document | OpaqueContent;
  /** The history note of the restore. */
  note: string;
  /** How the revert goes; absent for a wholesale restore. */
  plan?: RevertPlan;
}

export interface RestoreSessionOptions {
  /** What history records the restore as (default: undo's note, naming the session). */
  note?: string;
  revert?: Reverting;
}

/** The mode to put back with the content, when history kept it (journals before modes did not). */
const modeOf = (change: NetChange) =>
  change.first.before?.mode !== undefined ? { fileMode: change.first.before.mode } : {};

/** A root-relative path as a call's `path` names it (those resolve from `base`). */
export function argPath(context: ChangeContext, rel: string): string {
  const path = relative(context.guard.base, join(context.guard.root, rel)).split(sep).join("/");
  return path === "" ? "." : path;
}

/**
 * A guard refusal said for undo: the guard's own advice (use another path)
 * means nothing when the path is the one the session changed.
 */
function refusedHere(error: ToolError, rel: string): ToolError {
  const { reason, boundary } = error.details;
  const fence = boundary === "base" ? "the working folder this session is confined to" : "the root";
  const why =
    reason === "outside_root"
      ? `it lies outside ${fence}; ask the user to undo it from a session that is not confined there`
      : reason === "symlink_escape"
        ? `it is now a symbolic link, or lies under one, that leads out of ${fence}; remove the link if the file should come back`
        : reason === "link_loop"
          ? "it lies under symbolic links that form a loop; ask the user to fix them"
          : "the guard's rules do not let splice write it (see the allow and block lists)";
  return new ToolError("guard", `${rel} cannot be restored: ${why}.`, {
    ...error.details,
    path: rel,
  });
}

function guarded(context: ChangeContext, rel: string): GuardedPath {
  try {
    // History keys files by root-relative path; resolve from the root, not from `base`.
    return context.guard.check(join(context.guard.root, rel), "write");
  } catch (error) {
    throw error instanceof ToolError && error.code === "guard" ? refusedHere(error, rel) : error;
  }
}

async function planStep(
  context: ChangeContext,
  sessionId: string,
  rel: string,
  change: NetChange,
  revert: boolean,
): Promise<Step> {
  const file = guarded(context, rel);
  const before = change.first.before;
  const bytes = before && context.history.getBlob(before.sha);
  if (before && !bytes) {
    throw new ToolError(
      "not_found",
      `The original of ${rel} from session ${sessionId} is no longer stored (history was trimmed to its size limit), so it cannot be restored.`,
      { path: rel },
    );
  }
  const current = await loadReplaced(context, file);
  const content = bytes ? { content: restorable(bytes, current?.doc?.encoding) } : {};
  const step: Step = { rel, file, change, current, note: `${UNDO_NOTE}${sessionId}`, ...content };
  if (revert) step.plan = planFileRevert(context, change, step.content, current);
  return step;
}

/** What a step writes: the merge of a file changed since, else the before-version. */
function target(step: Step): {
  content: Document | OpaqueContent | undefined;
  expected: string | null;
  merged: boolean;
} {
  const { plan, current, change } = step;
  if (plan?.kind === "merged") return { content: plan.doc, expected: current!.sha, merged: true };
  if (plan?.kind === "nothing") {
    // Already what the revert gives: the swap writes nothing.
    return { content: step.content, expected: current?.sha ?? null, merged: false };
  }
  return { content: step.content, expected: change.last.after?.sha ?? null, merged: false };
}

function asToolError(error: unknown, rel: string): ToolError {
  if (error instanceof ToolError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError("io", `${rel} cannot be read: ${reason}.`, { path: rel });
}

/** Checks every file; throws, naming each file that cannot be restored, before anything is written. */
async function planSteps(
  context: ChangeContext,
  sessionId: string,
  entries: [string, NetChange][],
  revert: boolean,
): Promise<Step[]> {
  const steps: Step[] = [];
  const problems: ToolError[] = [];
  for (const [i, [rel, change]] of entries.entries()) {
    reportCallProgress(context, { phase: "checking", done: i, total: entries.length });
    try {
      steps.push(await planStep(context, sessionId, rel, change, revert));
    } catch (error) {
      problems.push(asToolError(error, rel));
    }
  }
  if (problems.length === 0) return steps;
  const others = steps.map(
    (s) => `{"backup_session": "${sessionId}", "path": "${argPath(context, s.rel)}"}`,
  );
  const next =
    others.length === 0
      ? ""
      : ` To undo the session's other ${others.length === 1 ? "file" : `${others.length} files`}, undo ${others.length === 1 ? "it" : "each"} on its own: ${others.join(", ")}.`;
  throw new ToolError(
    problems[0]!.code,
    `Nothing was undone: ${problems.map((p) => p.message).join(" ")}${next}`,
    { backup_session: sessionId, refused: problems.map((p) => ({ code: p.code, ...p.details })) },
  );
}

async function applyStep(
  context: ChangeContext,
  step: Step,
  sessionId: string,
  mode: Mode,
): Promise<UndoFile> {
  const { file, current, change } = step;
  const { content, expected, merged } = target(step);
  const restored = await restoreFile(
    context,
    {
      file,
      content,
      ...(merged ? {} : modeOf(change)),
      expected,
      current: current ?? null,
    },
    { note: step.note, action: "undo", ifChanged: "replace", mode },
  );
  const { outcome, changedSince } = restored;
  const warnings: string[] = merged ? [mergedWarning(file.display, sessionId)] : [];
  if (changedSince !== undefined) {
    warnings.push(
      changedSince
        ? `${file.display} changed after session ${sessionId}; its current content is backed up in ${context.backup} before it is replaced.`
        : `${file.display} was deleted after session ${sessionId}; it is recreated.`,
    );
  }
  if (outcome?.validationNotice) warnings.push(outcome.validationNotice);
  const deleted = restored.action === "delete";
  return {
    path: file.display,
    action: restored.action === "kept" ? "unchanged" : restored.action,
    file_hash: deleted || !outcome ? null : outcome.tag,
    diff: outcome?.diff ?? "",
    warnings,
    ...(outcome?.validation ? { validation: outcome.validation } : {}),
  };
}

/** The error for a write that failed after other files were already restored. */
function stoppedMidway(
  context: ChangeContext,
  cause: ToolError,
  sessionId: string,
  backup: string,
  done: UndoFile[],
  rest: Step[],
): ToolError {
  const restored = done.filter((f) => f.action !== "unchanged").map((f) => f.path);
  const left = rest.map((s) => s.file.display);
  return new ToolError(
    cause.code,
    `${cause.message} The undo of session ${sessionId} stopped at ${left[0]}: ${restored.join(", ")} ${restored.length === 1 ? "was" : "were"} already restored (backup session ${backup}; undo it to put ${restored.length === 1 ? "that file" : "them"} back), and ${left.join(", ")} ${left.length === 1 ? "was" : "were"} not. Once the cause is fixed, call undo with {"backup_session": "${sessionId}"} to restore the rest.`,
    {
      ...cause.details,
      backup_session: backup,
      restored,
      not_restored: left.map((_, i) => argPath(context, rest[i]!.rel)),
    },
  );
}

/**
 * Restores `entries` (root-relative path -> its net change) under the writer
 * locks of all of them. Runs again when a program outside splice changed a
 * file before anything was written. `note` (default: undo's, naming the
 * session) is what history records the restore as.
 */
export async function restoreSession(
  context: ChangeContext,
  sessionId: string,
  entries: [string, NetChange][],
  mode: Mode,
  options: RestoreSessionOptions = {},
): Promise<{ files: UndoFile[]; backup: string }> {
  const { note, revert } = options;
  const reverting = revert !== undefined && !revert.force;
  const paths = entries.map(([rel]) => join(context.guard.root, rel));
  // What it restores is the call's own backup session, so it can be undone in turn (a
  // RootSet gives the undo of one session in several roots one id, so it redoes as one).
  // exclusiveAll runs it again after a race, when nothing was written yet.
  const backup = context.backup;
  const own = { ...context, backup };
  const done = await exclusiveAll(own, paths, async () => {
    const steps = await planSteps(own, sessionId, entries, reverting);
    if (revert && reverting) {
      const refused = await conflictsOf(own, steps);
      if (refused.length > 0) throw revert.refuse(refused);
    }
    if (note !== undefined) for (const step of steps) step.note = note;
    if (mode === "apply") return restoreBatch(own, steps, sessionId);
    const files: UndoFile[] = [];
    for (const [i, step] of steps.entries()) {
      reportCallProgress(context, { phase: "restoring", done: i, total: steps.length });
      files.push(await applyStep(own, step, sessionId, mode));
    }
    return { files, written: [] };
  });
  // One validation pass for every restored file, once the locks are let go.
  await validateBatch(own, done.written, undefined);
  for (const { change, outcome } of done.written) {
    const file = done.files.find((f) => f.path === change.file.display);
    if (!file) continue;
    if (outcome.validation) file.validation = outcome.validation;
    if (outcome.validationNotice) file.warnings.push(outcome.validationNotice);
  }
  return { files: done.files, backup };
}

/** What undo warns of a file that changed after the session being undone. */
function changedSinceWarning(context: ChangeContext, step: Step, sessionId: string): string[] {
  const { file, current, change, plan } = step;
  if (plan?.kind === "merged") return [mergedWarning(file.display, sessionId)];
  if (plan?.kind === "nothing") return [];
  if ((current?.sha ?? null) === (change.last.after?.sha ?? null)) return [];
  return [
    current
      ? `${file.display} changed after session ${sessionId}; its current content is backed up in ${context.backup} before it is replaced.`
      : `${file.display} was deleted after session ${sessionId}; it is recreated.`,
  ];
}

/**
 * Restores every file of the session as one batch (commitBatch: one history
 * transaction, then the swaps); a write that fails stops it, reported with
 * what was restored and what was not, as one file at a time did.
 */
async function restoreBatch(
  context: ChangeContext,
  steps: Step[],
  sessionId: string,
): Promise<{ files: UndoFile[]; written: Written[] }> {
  const changes: Change[] = [];
  const owners: Step[] = [];
  const files: UndoFile[] = [];
  for (const step of steps) {
    const { file, current, note } = step;
    const { content, merged } = target(step);
    if (!content && !current) {
      files.push({
        path: file.display,
        action: "unchanged",
        file_hash: null,
        diff: "",
        warnings: changedSinceWarning(context, step, sessionId),
      });
      continue;
    }
    changes.push(
      content
        ? {
            kind: "write",
            file,
            before: current,
            doc: content,
            note,
            action: "undo",
            restores: true,
            ...(merged ? {} : modeOf(step.change)),
          }
        : { kind: "delete", file, before: current!, note, action: "undo" },
    );
    owners.push(step);
  }
  const batch = await commitBatch(context, changes, { phase: "restoring" });
  const written: Written[] = [];
  const restored: UndoFile[] = [];
  batch.outcomes.forEach((outcome, i) => {
    if (!outcome) return;
    const change = changes[i]!;
    written.push({ change, outcome });
    const deleted = change.kind === "delete";
    restored.push({
      path: change.file.display,
      action: deleted ? "delete" : outcome.changed ? "restore" : "unchanged",
      file_hash: deleted ? null : outcome.tag,
      diff: outcome.diff,
      warnings: changedSinceWarning(context, owners[i]!, sessionId),
    });
  });
  if (batch.failed) {
    const step = owners[batch.failed.index]!;
    const wrote = written.some((w) => w.outcome.changed);
    if (!wrote) throw batch.failed.error;
    const rest = owners.filter((_, i) => !batch.outcomes[i]);
    const cause = asToolError(batch.failed.error, step.rel);
    throw stoppedMidway(context, cause, sessionId, context.backup, [...files, ...restored], rest);
  }
  // In the session's order, as one file at a time gave them.
  const byPath = new Map([...files, ...restored].map((f) => [f.path, f]));
  return { files: steps.flatMap((s) => byPath.get(s.file.display) ?? []), written };
}

/** A restored file as the model reads it: the header with the new tag, the changed lines, warnings. */
export function fileView(f: UndoFile, full: boolean): string {
  const notices = f.warnings.map((w) => `[${w}]`);
  if (f.action === "delete") return [`¶${f.path} (deleted)`, ...notices].join("\n");
  const header = `¶${f.path}${f.file_hash ? `#${f.file_hash}` : ""}`;
  if (f.action === "unchanged") return [`${header} (unchanged)`, ...notices].join("\n");
  const diff = full ? f.diff.trimEnd() : changedLines(f.diff);
  return [header, diff, ...notices].filter(Boolean).join("\n");
}
