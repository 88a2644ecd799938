/**
 * Planning a multi-file syntax edit: each file read (only those ripgrep says
 * hold a word of the edit), prefiltered, parsed and rewritten, its syntax
 * check started on the thread pool; nothing is written.
 */

import type { ChangeContext } from "../change/context.js";
import type { LoadedFile } from "../change/load.js";
import { checkEditAsync, SYNTAX_CHECK_MAX_CHARS, syntaxProblems } from "../code/syntax-check.js";
import { ToolError } from "../errors.js";
import { type Document, normalizedText, parseDocument, restyle } from "../text/document.js";
import { Ahead } from "../util/ahead.js";
import { mapLimit } from "../util/map-limit.js";
import { filesContaining, loadedIn, readRaw } from "./code-bytes.js";
import type { CodeEditFile, Transform } from "./code-edit.js";
import type { CodeFile } from "./files.js";
import { reportProgress } from "./files.js";

export interface Planned {
  code: CodeFile;
  loaded: LoadedFile;
  next: Document;
  matches: number;
  warnings: string[];
  /** The syntax check's warning, on its way: it parses on the thread pool while the batch writes. */
  syntax: Promise<string | undefined>;
}

/** A new version of `doc` with this text, keeping its BOM, line endings and final-newline state. */
export function withText(doc: Document, text: string): Document {
  const lines = parseDocument(text).lines;
  return restyle(doc, lines, text.endsWith("\n") || lines.length === 0);
}

export async function plan(
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

export async function planAll(
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
    const loaded = await loadedIn(context, code.file, raw.bytes);
    if ("kind" in loaded) {
      if (code.explicit) skipped.push(`${code.file.display} (${loaded.reason})`);
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
