/**
 * The multi-file edit behind ast_edit and ast_rename: plan every file first
 * (rewrite-plan.ts: read, prefilter, parse, rewrite), then preview, check or
 * write (rewrite-write.ts). Writing goes through one batch under every
 * file's writer lock, in one backup session; if a write fails, the files
 * already written are put back, so a call changes every planned file or none.
 */
import { validateBatch } from "../change/commit-batch.js";
import type { ChangeContext } from "../change/context.js";
import type { ValidationPass } from "../lsp/validate.js";
import { count } from "../util/format.js";
import type { CodeEditFile, CodeEditRequest, CodeEditResult, Transform } from "./code-edit.js";
import type { CodeFiles } from "./files.js";
import { reportProgress } from "./files.js";
import { planAll } from "./rewrite-plan.js";
import { preview, writeAll } from "./rewrite-write.js";

/** Plans every file, then previews, checks or writes the changed ones. */
export async function runCodeEdit(
  context: ChangeContext,
  collected: CodeFiles,
  transform: Transform,
  request: CodeEditRequest,
  /** Warnings about the whole call, asked for once every file is planned. */
  callWarnings: () => string[] = () => [],
): Promise<CodeEditResult> {
  const { planned, reports, warnings } = await planAll(
    context,
    collected.files,
    transform,
    request.mode === "apply",
  );
  const results: CodeEditFile[] = [...reports];
  const backup = request.mode === "apply" ? context.backup : undefined;
  let validation: ValidationPass | undefined;
  if (request.mode === "apply") {
    reportProgress(context, { phase: "writing", done: 0, total: planned.length });
    const { results: wrote, written } = await writeAll(context, planned, transform, request);
    results.push(...wrote);
    // One validation pass for the whole change, after the locks are let go.
    validation = await validateBatch(context, written, request.validate);
    const notices = new Map<string, string>();
    for (const w of written) {
      if (w.outcome.validationNotice)
        notices.set(w.change.file.display, w.outcome.validationNotice);
      const r = results.find((x) => x.path === w.change.file.display);
      if (r && w.outcome.validation) r.validation = w.outcome.validation;
    }
    for (const r of results) {
      const notice = notices.get(r.path);
      if (notice) r.warnings.push(notice);
    }
  } else {
    for (const p of planned) results.push(await preview(context, p, request));
  }
  results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const all = [...collected.warnings, ...warnings, ...callWarnings()];
  const changed = results.filter((r) => r.changed);
  const result: CodeEditResult = {
    content: "",
    mode: request.mode,
    applied: request.mode === "apply" && changed.length > 0,
    files: results,
    files_scanned: collected.files.length,
    files_matched: results.filter((r) => r.matches > 0).length,
    files_changed: changed.length,
    matches: results.reduce((n, r) => n + r.matches, 0),
    capped: collected.capped,
    ...(backup && changed.length > 0 ? { backup_session: backup } : {}),
    ...(validation ? { validation } : {}),
    warnings: all,
  };
  result.content = renderContent(result, request, context.limits.maxLines);
  return result;
}

function summary(r: CodeEditResult, request: CodeEditRequest): string {
  const scanned = `${count(r.files_scanned)} file${r.files_scanned === 1 ? "" : "s"} scanned`;
  const matched = `${count(r.matches)} match${r.matches === 1 ? "" : "es"} in ${count(r.files_matched)} file${r.files_matched === 1 ? "" : "s"}`;
  const head = `${request.action} (${request.what}): ${matched}, ${scanned}`;
  if (r.files_changed === 0) return `${head}; nothing to change.`;
  if (r.mode === "apply") {
    return `${head}; wrote ${count(r.files_changed)} file${r.files_changed === 1 ? "" : "s"}. Undo them all with the undo tool (backup_session "${r.backup_session}").`;
  }
  return `${head}; ${count(r.files_changed)} file${r.files_changed === 1 ? "" : "s"} would change (${r.mode}: nothing written). Run again with mode "apply" to write.`;
}

function renderContent(r: CodeEditResult, request: CodeEditRequest, maxLines: number): string {
  const out = [summary(r, request), ...r.warnings.map((w) => `[${w}]`)];
  let hidden = 0;
  for (const f of r.files) {
    const block = [
      f.header ?? `¶${f.path}`,
      ...(f.diff ? [f.diff.trimEnd()] : []),
      ...f.warnings.map((w) => `[${w}]`),
    ].join("\n");
    const lines = block.split("\n").length;
    if (out.length + lines > maxLines) {
      hidden++;
      continue;
    }
    out.push(block);
  }
  if (hidden > 0) {
    out.push(
      `[${count(hidden)} more file(s) not shown here to keep this short; the files list has every diff]`,
    );
  }
  return out.join("\n");
}
