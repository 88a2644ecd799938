/**
 * An edit is planned first (what the file should become, and how the target
 * was found) and committed second, so an atomic batch can plan every target
 * before writing any, and a plain batch can plan and commit one at a time.
 */
import type { ChangeResult, CommitOptions, Outcome } from "../../change/change.js";
import { commit } from "../../change/commit.js";
import { encodedOrRefused, type LoadedFile } from "../../change/load.js";
import { checkEditAsync } from "../../code/syntax-check.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { firstChangedLine } from "../../text/diff.js";
import { type Document, documentToBytes } from "../../text/document.js";
import type { MatchMode } from "../../text/replace.js";
import { identify } from "../../util/hash.js";
import type { ToolContext } from "../define.js";

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

/** An edit planned: the write it makes (one Change of the pipeline) and how it found its target. */
export interface EditPlan {
  kind: "write";
  file: GuardedPath;
  /** The file as it is now; undefined when the edit creates it. */
  before: LoadedFile | undefined;
  doc: Document;
  action: "line_edit" | "replace" | "create";
  note: string;
  warnings: string[];
  match?: MatchReport;
}

/** The plan of an edit that turns `before` into `doc`. */
export function editPlan(
  file: GuardedPath,
  before: LoadedFile | undefined,
  doc: Document,
  action: EditPlan["action"],
  warnings: string[] = [],
  match?: MatchReport,
): EditPlan {
  const note = action === "line_edit" ? "edit" : action;
  return { kind: "write", file, before, doc, action, note, warnings, ...(match ? { match } : {}) };
}

export interface EditResult extends ChangeResult, Partial<MatchReport> {
  action: EditPlan["action"];
  file_hash: string;
  first_changed_line: number;
}

/** What the file will be once an earlier target of an atomic batch is written. */
export function plannedFile(plan: EditPlan): LoadedFile {
  const bytes = encodedOrRefused(plan.file.display, () => documentToBytes(plan.doc));
  const identity = identify(bytes, undefined, plan.doc.encoding);
  return { mode: plan.before?.mode ?? 0o644, bytes, doc: plan.doc, ...identity };
}

/** Commits an edit and reports it; `outcome` is what a failed batch needs to put it back. */
export async function commitEdit(
  context: ToolContext,
  plan: EditPlan,
  options: CommitOptions,
): Promise<{ result: EditResult; outcome: Outcome }> {
  const syntax = syntaxCheck(plan);
  const outcome = await commit(context, plan, options);
  return { result: await editResult(plan, outcome, syntax), outcome };
}

/** The syntax check of a planned edit, parsed on the thread pool while the file is written. */
export function syntaxCheck(plan: EditPlan): Promise<string | undefined> {
  return checkEditAsync(plan.file.display, plan.before?.doc, plan.doc).catch(() => undefined);
}

/** What an edit reports once it is committed (alone, or as a file of a batch). */
export async function editResult(
  plan: EditPlan,
  outcome: Outcome,
  syntax: Promise<string | undefined>,
): Promise<EditResult> {
  const { file, before, doc, warnings } = plan;
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
    first_changed_line: outcome.changed ? firstChangedLine(before?.doc.lines ?? [], doc.lines) : 0,
    diff: outcome.diff,
    ...(outcome.backup ? { backup_session: outcome.backup } : {}),
    warnings,
    ...(outcome.validation ? { validation: outcome.validation } : {}),
  };
}
