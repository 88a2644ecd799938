/**
 * Writing a planned multi-file syntax edit: every file checked again under
 * the batch's locks and written as one batch (all or none), or previewed.
 */
import { BatchError } from "../change/batch.js";
import type { WriteChange } from "../change/change.js";
import { asToolError } from "../change/changeset.js";
import { commit, RaceError } from "../change/commit.js";
import { commitBatch } from "../change/commit-batch.js";
import type { ChangeContext } from "../change/context.js";
import { loadTextFile } from "../change/load.js";
import { exclusiveAll } from "../change/lock.js";
import { atomicNote, putBack, type Written } from "../change/restore.js";
import type { GuardedPath } from "../guard/path-guard.js";
import type { CodeEditFile, CodeEditRequest, Transform } from "./code-edit.js";
import { type Planned, plan } from "./rewrite-plan.js";

/**
 * A planned file again, under the batch's locks: a file changed since
 * planning is rewritten from its new text (or reported when that has no match).
 */
async function recheck(
  context: ChangeContext,
  p: Planned,
  transform: Transform,
  { action }: CodeEditRequest,
): Promise<
  | { change: WriteChange; report: CodeEditFile; syntax: Planned["syntax"] }
  | { change?: undefined; report: CodeEditFile }
> {
  const file: GuardedPath = context.guard.check(p.code.file.real, "write");
  const current = await loadTextFile(context, file);
  let next = p.next;
  let matches = p.matches;
  let syntax = p.syntax;
  const warnings = [...p.warnings];
  if (current.sha !== p.loaded.sha) {
    const again = await plan(p.code, current, transform);
    if (!again.planned) {
      return {
        report: {
          path: file.display,
          matches: again.report?.matches ?? 0,
          changed: false,
          applied: false,
          file_hash: current.tag,
          diff: "",
          warnings: ["The file changed while this call ran, and the new version has no match."],
        },
      };
    }
    ({ next, matches, syntax } = again.planned);
    warnings.splice(0, warnings.length, ...again.planned.warnings);
    warnings.push(
      "The file changed while this call ran; the rewrite was applied to its new version.",
    );
  }
  const change = { kind: "write", file, before: current, doc: next, note: action, action } as const;
  return {
    change,
    report: { path: file.display, matches, changed: false, applied: false, diff: "", warnings },
    syntax,
  };
}

/**
 * Writes every planned file as one batch under one lock set (commitBatch):
 * all of them or none; a failure puts back what was written. The syntax
 * checks finish after the locks are let go.
 */
export async function writeAll(
  context: ChangeContext,
  planned: Planned[],
  transform: Transform,
  request: CodeEditRequest,
): Promise<{ results: CodeEditFile[]; written: Written[] }> {
  const paths = planned.map((p) => p.code.file.real);
  const { results, written, checks } = await exclusiveAll(context, paths, async () => {
    const results: CodeEditFile[] = [];
    const changes: WriteChange[] = [];
    const reports: { report: CodeEditFile; syntax: Planned["syntax"] }[] = [];
    for (const p of planned) {
      const checked = await recheck(context, p, transform, request);
      if (checked.change) {
        changes.push(checked.change);
        reports.push(checked);
      } else results.push(checked.report);
    }
    const batch = await commitBatch(context, changes, { force: request.force });
    const written: Written[] = [];
    for (const [i, outcome] of batch.outcomes.entries()) {
      if (outcome) written.push({ change: changes[i]!, outcome });
    }
    if (batch.failed) {
      // Nothing written: the batch may run again (exclusiveAll retries a race).
      if (written.length === 0 && batch.failed.error instanceof RaceError) throw batch.failed.error;
      const back = await putBack(context, written, "atomic batch failed");
      const failed = changes[batch.failed.index]!.file.display;
      const others = planned.map((o) => o.code.file.display).filter((d) => d !== failed);
      const note = atomicNote(back, context.backup);
      throw new BatchError(failed, asToolError(batch.failed.error), [], others, note);
    }
    const checks = batch.outcomes.map((outcome, i) => {
      const { report, syntax } = reports[i]!;
      const result: CodeEditFile = {
        ...report,
        changed: outcome!.changed,
        applied: outcome!.applied,
        file_hash: outcome!.tag,
        header: outcome!.header,
        diff: outcome!.diff,
      };
      results.push(result);
      return { result, syntax };
    });
    return { results, written, checks };
  });
  for (const { result, syntax } of checks) {
    const warning = await syntax;
    if (warning) result.warnings.push(warning);
  }
  return { results, written };
}

export async function preview(
  context: ChangeContext,
  p: Planned,
  { mode, action, force }: CodeEditRequest,
): Promise<CodeEditFile> {
  const file = p.code.file;
  const change = {
    kind: "write",
    file,
    before: p.loaded,
    doc: p.next,
    note: action,
    action,
  } as const;
  const outcome = await commit(context, change, { mode, force });
  const warnings = [...p.warnings];
  const syntax = await p.syntax;
  if (syntax) warnings.push(syntax);
  if (outcome.validationNotice) warnings.push(outcome.validationNotice);
  return {
    path: file.display,
    matches: p.matches,
    changed: outcome.changed,
    applied: false,
    file_hash: outcome.tag,
    header: outcome.header,
    diff: outcome.diff,
    warnings,
  };
}
