/**
 * ast_edit without `out`: find where the patterns match and write nothing,
 * like `ast-grep run -p`. Files are read, prefiltered and parsed the way a
 * rewrite plans them, so a find covers exactly the files a rewrite would.
 */

import type { ChangeContext } from "../../change/context.js";
import type { Language } from "../../code/languages.js";
import { parseInBatch } from "../../code/languages.js";
import { type PreparedOp, replacementsFor } from "../../code/rewrite.js";
import { containsAll, filesContaining, loadedIn, readRaw } from "../../codebase/code-bytes.js";
import type { CodeEditResult } from "../../codebase/code-edit.js";
import { type CodeFile, type CodeFiles, reportProgress } from "../../codebase/files.js";
import { normalizedText } from "../../text/document.js";
import { count } from "../../util/format.js";
import { mapLimit } from "../../util/map-limit.js";

export interface AstHit {
  path: string;
  /** 1-based lines the match starts and ends on. */
  line: number;
  end_line: number;
  /** The matched text, exactly. */
  text: string;
  /** The op (1-based) that matched. */
  op: number;
}

/**
 * A rewrite's result shape, so callers of ast_edit read one type: nothing
 * changed, `files` holds the matched files, `hits` every match. `content`
 * is a summary, then each match as `path:line:text`.
 */
export interface AstFindResult extends CodeEditResult {
  hits: AstHit[];
}

/** Lines of one match shown in `content`; the hit's `text` always has all of it. */
const MATCH_LINES_SHOWN = 3;

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line holding character `index` (binary search over the line starts). */
function lineAt(starts: readonly number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

async function hitsIn(
  language: Language,
  text: string,
  path: string,
  ops: readonly PreparedOp[],
  skip: (op: PreparedOp) => boolean,
): Promise<AstHit[]> {
  const wanted = ops.filter((o) => !skip(o) && o.words.every((w) => text.includes(w)));
  if (wanted.length === 0) return [];
  const root = (await parseInBatch(language, text)).root();
  const starts = lineStarts(text);
  const hits: AstHit[] = [];
  for (const o of wanted) {
    for (const r of replacementsFor(language, root, o, text)) {
      const line = lineAt(starts, r.start);
      const end = lineAt(starts, Math.max(r.start, r.end - 1));
      hits.push({ path, line, end_line: end, text: text.slice(r.start, r.end), op: o.index + 1 });
    }
  }
  return hits.sort((a, b) => a.line - b.line || a.op - b.op);
}

/** Every match of the ops in the files, in path then line order; nothing is written. */
export async function findMatches(
  context: ChangeContext,
  collected: CodeFiles,
  ops: readonly PreparedOp[],
  skip: (language: Language) => (op: PreparedOp) => boolean,
  words: string[] | undefined,
): Promise<{ hits: AstHit[]; files: CodeEditResult["files"]; skipped: string[] }> {
  const { files } = collected;
  const byFile = new Map<CodeFile, AstHit[]>();
  const skipped: string[] = [];
  let done = 0;
  const hits = words && (await filesContaining(context, files, words));
  await mapLimit(files, 16, async (code) => {
    const progress = () =>
      reportProgress(context, { phase: "scanning", done: ++done, total: files.length });
    if (hits && !hits.has(code.file.real)) return progress();
    const raw = await readRaw(context, code);
    progress();
    if ("skipped" in raw) {
      if (code.explicit) skipped.push(`${code.file.display} (${raw.skipped})`);
      return;
    }
    const live = ops.filter((o) => !skip(code.language)(o));
    if (!live.some((o) => containsAll(raw.bytes, o.words))) return;
    const loaded = await loadedIn(context, code.file, raw.bytes);
    if ("kind" in loaded) {
      if (code.explicit) skipped.push(`${code.file.display} (${loaded.reason})`);
      return;
    }
    const text = normalizedText(loaded.doc);
    const found = await hitsIn(code.language, text, code.file.display, ops, skip(code.language));
    if (found.length > 0) byFile.set(code, found);
  });
  const matched = files.filter((f) => byFile.has(f));
  return {
    hits: matched.flatMap((f) => byFile.get(f)!),
    files: matched.map((f) => ({
      path: f.file.display,
      matches: byFile.get(f)!.length,
      changed: false,
      applied: false,
      diff: "",
      warnings: [],
    })),
    skipped,
  };
}

/** A match as ripgrep prints a line: `path:line:text`, a long match cut after a few lines. */
function hitLines(hit: AstHit, source: string): string[] {
  const lines = source.split("\n");
  const shown = lines.slice(0, MATCH_LINES_SHOWN).map((l, i) => `${hit.path}:${hit.line + i}:${l}`);
  if (lines.length > MATCH_LINES_SHOWN) {
    shown.push(`[… ${count(lines.length - MATCH_LINES_SHOWN)} more line(s) of this match]`);
  }
  return shown;
}

export function renderFind(r: AstFindResult, what: string, maxLines: number): string {
  const matched = `${count(r.matches)} match${r.matches === 1 ? "" : "es"} in ${count(r.files_matched)} file${r.files_matched === 1 ? "" : "s"}`;
  const scanned = `${count(r.files_scanned)} file${r.files_scanned === 1 ? "" : "s"} scanned`;
  const out = [`ast_edit (find, ${what}): ${matched}, ${scanned}; nothing written.`];
  out.push(...r.warnings.map((w) => `[${w}]`));
  let hidden = 0;
  for (const hit of r.hits) {
    const block = hitLines(hit, hit.text);
    if (out.length + block.length > maxLines) hidden++;
    else out.push(...block);
  }
  if (hidden > 0) {
    out.push(`[${count(hidden)} more match(es) not shown here; the hits list has every one]`);
  }
  return out.join("\n");
}
