/**
 * An edit is planned first (what the file should become, and how the target
 * was found) and committed second, so an atomic batch can plan every target
 * before writing any, and a plain batch can plan and commit one at a time.
 */
import { checkEditAsync } from "../code/syntax-check.js";
import type { GuardedPath } from "../guard/path-guard.js";
import type { EditValidation } from "../lsp/verdict.js";
import { firstChangedLine } from "../text/diff.js";
import { type Document, documentToBytes } from "../text/document.js";
import type { MatchMode } from "../text/replace.js";
import type { ToolContext } from "../tools/context.js";
import { type Mode, settle } from "./commit.js";
import { identify, type LoadedFile } from "./load.js";

/** How a text edit found its target: the honest part of the result. */
export interface MatchReport {
  match_count: number;
  match_mode: MatchMode;
  /** Present for non-exact matches: the similarity that was accepted (0..1). */
  match_score?: number;
  /** The text of the file that was actually replaced (each edit's, in order). */
  matched_text: string;
  /** Per edit of the target, in order, when there were several. */
  matches?: {
    match_count: number;
    match_mode: MatchMode;
    match_score?: number;
    lines: [number, number][];
  }[];
}

export interface Plan {
  file: GuardedPath;
  /** The file as it is now; undefined when the edit creates it. */
  current: LoadedFile | undefined;
  next: Document;
  action: "line_edit" | "replace" | "create";
  warnings: string[];
  match?: MatchReport;
}

export interface EditResult extends Partial<MatchReport> {
  path: string;
  action: Plan["action"];
  file_hash: string;
  header: string;
  applied: boolean;
  changed: boolean;
  first_changed_line: number;
  diff: string;
  /** The backup session holding the original (undo restores it); set when written. */
  backup_session?: string;
  warnings: string[];
  /** What the language server said about the edit (see docs/tools.md). */
  validation?: EditValidation;
}

/** What the file will be once an earlier target of an atomic batch is written. */
export function plannedFile(plan: Plan): LoadedFile {
  const bytes = documentToBytes(plan.next);
  return {
    mode: plan.current?.mode ?? 0o644,
    bytes,
    doc: plan.next,
    ...identify(bytes),
  };
}

export async function commitPlan(
  context: ToolContext,
  plan: Plan,
  mode: Mode | undefined,
  backup: string,
  validate?: boolean,
): Promise<EditResult> {
  const { file, current, next, warnings } = plan;
  const note = plan.action === "line_edit" ? "edit" : plan.action;
  // The syntax check parses on the thread pool while the file is written and validated.
  const syntax = checkEditAsync(file.display, current?.doc, next).catch(() => undefined);
  const outcome = await settle(
    context,
    file,
    { kind: "write", before: current, doc: next, note, action: plan.action, backup, validate },
    mode,
  );
  if (!outcome.changed) warnings.push("The edit changes nothing; the file was not written.");
  const syntaxWarning = outcome.changed ? await syntax : undefined;
  if (syntaxWarning) warnings.push(syntaxWarning);
  if (outcome.validationNotice) warnings.push(outcome.validationNotice);
  return {
    path: file.display,
    action: plan.action,
    file_hash: outcome.tag,
    header: outcome.header,
    applied: outcome.applied,
    changed: outcome.changed,
    ...plan.match,
    first_changed_line: outcome.changed
      ? firstChangedLine(current?.doc.lines ?? [], next.lines)
      : 0,
    diff: outcome.diff,
    ...(outcome.backup ? { backup_session: outcome.backup } : {}),
    warnings,
    ...(outcome.validation ? { validation: outcome.validation } : {}),
  };
}

/** Puts back what atomic targets already wrote, newest first (a created file is removed). */
export async function restore(
  context: ToolContext,
  written: Plan[],
  backup: string,
): Promise<void> {
  for (const plan of [...written].reverse()) {
    const now = plannedFile(plan);
    const { current, file } = plan;
    context.history.recordWrite({
      kind: current ? "rollback" : "delete",
      path: file.rel,
      before: { bytes: now.bytes, tag: now.tag, sha: now.sha },
      ...(current ? { after: { bytes: current.bytes, tag: current.tag, sha: current.sha } } : {}),
      note: "atomic batch failed",
      backup,
    });
    if (current)
      await context.workspace.writeFile(file.real, current.bytes, { mode: current.mode });
    else await context.workspace.remove(file.real);
  }
}
