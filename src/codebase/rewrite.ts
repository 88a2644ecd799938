/**
 * The multi-file edit behind ast_edit and ast_rename: plan every file first
 * (read, prefilter, parse, rewrite), then preview, check or write. Writing
 * goes file by file through commit.ts under each file's writer lock, all in
 * one backup session; if a write fails, the files already written are put
 * back, so a call changes every planned file or none.
 */
import type { SgNode } from "@ast-grep/napi";
import { BatchError } from "../change/batch.js";
import type { Mode, WriteChange } from "../change/change.js";
import { asToolError } from "../change/changeset.js";
import { commit, RaceError } from "../change/commit.js";
import { commitBatch, validateBatch } from "../change/commit-batch.js";
import type { ChangeContext } from "../change/context.js";
import { type LoadedFile, loadTextFile } from "../change/load.js";
import { exclusiveAll } from "../change/lock.js";
import { atomicNote, putBack, type Written } from "../change/restore.js";
import type { Language } from "../code/languages.js";
import { checkEditAsync, SYNTAX_CHECK_MAX_CHARS, syntaxProblems } from "../code/syntax-check.js";
import { ToolError } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import type { ValidationPass } from "../lsp/validate.js";
import type { EditValidation } from "../lsp/verdict.js";
import { type Document, normalizedText, parseDocument, restyle } from "../text/document.js";
import { Ahead } from "../util/ahead.js";
import { mapLimit } from "../util/map-limit.js";
import type { CodeFile, CodeFiles } from "./files.js";
import { filesContaining, loadedFrom, readRaw, reportProgress } from "./files.js";

export interface Rewritten {
  text: string;
  matches: number;
  /** The parse of the original text, when the transform made one. */
  root?: SgNode;
  warnings: string[];
}

export interface Transform {
  /** A file without any of these words cannot match (undefined: no such test). */
  words?: string[];
  /** A cheap test on the raw bytes: false means the file cannot match. */
  candidate(bytes: Uint8Array, file: CodeFile): boolean;
  /** Parses large texts on the thread pool (parseInBatch), so files are rewritten side by side. */
  apply(language: Language, text: string, file: CodeFile): Promise<Rewritten>;
  /** Warnings for a file that was not parsed (the prefilter ruled it out). */
  unmatched(file: CodeFile): string[];
}

export interface CodeEditFile {
  path: string;
  matches: number;
  changed: boolean;
  applied: boolean;
  /** The tag of the result (written or previewed); the current tag when nothing changed. */
  file_hash?: string;
  header?: string;
  diff: string;
  warnings: string[];
  /** What the language server says about the written file. */
  validation?: EditValidation;
}

export interface CodeEditResult {
  /** What a model reads: a summary, then each changed file's header, diff and warnings. */
  content: string;
  mode: Mode;
  applied: boolean;
  files: CodeEditFile[];
  files_scanned: number;
  files_matched: number;
  files_changed: number;
  matches: number;
  /** More files matched the paths than max_files allowed. */
  capped: boolean;
  backup_session?: string;
  warnings: string[];
}

interface Planned {
  code: CodeFile;
  loaded: LoadedFile;
  next: Document;
  matches: number;
  warnings: string[];
  /** The syntax check's warning, on its way: it parses on the thread pool while the batch writes. */
  syntax: Promise<string | undefined>;
}

const count = (n: number) => n.toLocaleString("en-US");

/** A new version of `doc` with this text, keeping its BOM, line endings and final-newline state. */
export function withText(doc: Document, text: string): Document {
  const lines = parseDocument(text).lines;
  return restyle(doc, lines, text.endsWith("\n") || lines.length === 0);
}

async function plan(
  code: CodeFile,
  loaded: LoadedFile,
  transform: Transform,
): Promise<{ planned?: Planned; report?: CodeEditFile }> {
  const text = normalizedText(loaded.doc);
  const result = await transform.apply(code.language, text, code);
  const warnings = [...result.warnings];
  const display = code.file.display;
  if (result.text === text) {
    const report = code.explicit || warnings.length > 0 || result.matches > 0;
    if (!report) return {};
    return {
      report: {
        path: display,
        matches: result.matches,
        changed: false,
        applied: false,
        file_hash: loaded.tag,
        diff: "",
        warnings,
      },
    };
  }
  const next = withText(loaded.doc, result.text);
  const root = result.root;
  const before =
    root && text.length <= SYNTAX_CHECK_MAX_CHARS ? () => syntaxProblems(root) : undefined;
  // The new version parses on the thread pool while the batch goes on to lock and write.
  const syntax = checkEditAsync(display, loaded.doc, next, before).catch(
    (error: unknown) =>
      `Syntax check (${code.language.name}) did not run (${error instanceof Error ? error.message : String(error)}); check the diff yourself.`,
  );
  return { planned: { code, loaded, next, matches: result.matches, warnings, syntax } };
}

/**
 * The text the syntax checks still parsing may hold while the plan goes on
 * (their trees take several times that). A bound by count instead (16 or 32
 * checks ahead) made the 120-file bulk benchmark 30-45% slower.
 */
const CHECKS_AHEAD_BYTES = 4 * 1024 * 1024;

async function planAll(
  context: ChangeContext,
  files: readonly CodeFile[],
  transform: Transform,
  writing: boolean,
): Promise<{ planned: Planned[]; reports: CodeEditFile[]; warnings: string[] }> {
  const planned: Planned[] = [];
  const reports: CodeEditFile[] = [];
  const skipped: string[] = [];
  let done = 0;
  const checking = new Ahead(CHECKS_AHEAD_BYTES);
  const unmatched = (code: CodeFile) => {
    const warnings = transform.unmatched(code);
    if (code.explicit || warnings.length > 0) {
      reports.push({
        path: code.file.display,
        matches: 0,
        changed: false,
        applied: false,
        diff: "",
        warnings,
      });
    }
  };
  // ripgrep finds the files that hold a word of some op; only those are read here.
  const hits = transform.words && (await filesContaining(context, files, transform.words));
  // The files that may be written are known now: the workspace prepares while they are planned.
  if (writing) context.workspace.expectWrites?.(hits ? hits.size : files.length);
  await mapLimit(files, 16, async (code) => {
    if (hits && !hits.has(code.file.real)) {
      reportProgress(context, { phase: "scanning", done: ++done, total: files.length });
      unmatched(code);
      return;
    }
    const raw = await readRaw(context, code);
    reportProgress(context, { phase: "scanning", done: ++done, total: files.length });
    if ("skipped" in raw) {
      if (code.explicit) skipped.push(`${code.file.display} (${raw.skipped})`);
      return;
    }
    if (!transform.candidate(raw.bytes, code)) {
      unmatched(code);
      return;
    }
    const loaded = loadedFrom(raw.bytes);
    if (!loaded) {
      if (code.explicit) skipped.push(`${code.file.display} (not UTF-8 text)`);
      return;
    }
    let outcome: Awaited<ReturnType<typeof plan>>;
    try {
      outcome = await plan(code, loaded, transform);
    } catch (error) {
      // A bad pattern fails every file alike (a ToolError); anything else is this file's
      // (its size, its shape), and must not abort the rest of the tree.
      if (error instanceof ToolError) throw error;
      skipped.push(
        `${code.file.display} (${error instanceof Error ? error.message : String(error)})`,
      );
      return;
    }
    const { planned: p, report } = outcome;
    if (report) reports.push(report);
    if (!p) return;
    planned.push(p);
    // A check holds two parse trees until it is done: the plan runs only so far ahead of them.
    await checking.admit(p.syntax, p.loaded.bytes.length);
  });
  const byPath = (a: { path: string }, b: { path: string }) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  planned.sort((a, b) => byPath({ path: a.code.file.display }, { path: b.code.file.display }));
  reports.sort(byPath);
  const warnings = skipped.length > 0 ? [`Skipped ${skipped.join(", ")}.`] : [];
  return { planned, reports, warnings };
}

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
async function writeAll(
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

async function preview(
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

export interface CodeEditRequest {
  /** "ast_edit": names the writes in history and events. */
  action: string;
  /** What the call does, for the summary: `1 op`, `rename foo -> bar`. */
  what: string;
  mode: Mode;
  /** Write read-only files too. */
  force?: boolean;
  /** The call's `validate`: false skips the validation pass, true forces it. */
  validate?: boolean;
}

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
