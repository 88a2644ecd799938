/**
 * Planning a line-op edit: find the version the tag names (the current file
 * if this session saw it, else the snapshot in history), apply the ops there,
 * and 3-way-merge into the current file when the two differ.
 */

import { decodedFiles } from "../../change/decoded-cache.js";
import { type LoadedFile, loadTextFile } from "../../change/load.js";
import { blockResolver } from "../../code/blocks.js";
import { languageOf, unsupportedFile } from "../../code/languages.js";
import { clip, ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { firstChangedLine, merge3 } from "../../text/diff.js";
import {
  type Document,
  documentFromBytes,
  hasFinalNewline,
  restyle,
  styleChange,
} from "../../text/document.js";
import { header, parseTag } from "../../text/hashline.js";
import { applyOps, OpsError, parseOps } from "../../text/ops.js";
import type { ToolContext } from "../define.js";
import { type EditPlan, editPlan } from "./plan.js";

const CONFLICT_CONTEXT = 3;

function applyDsl(path: string, base: Document, dsl: string, warnings: string[]): Document {
  const language = languageOf(path);
  try {
    const parsed = parseOps(dsl);
    warnings.push(...parsed.warnings);
    const resolver = language && blockResolver(language, base.lines);
    return applyOps(base, parsed.ops, resolver).doc;
  } catch (error) {
    if (!(error instanceof OpsError)) throw error;
    const why = error.code === "needs_syntax" && !language ? ` (${unsupportedFile(path)})` : "";
    throw new ToolError("invalid_input", `Ops for ${path}: ${error.message}${why}`, {
      path,
      reason: error.code,
      ...(error.dslLine === undefined ? {} : { dsl_line: error.dslLine }),
    });
  }
}

/** The version the tag names, as this session saw it. */
function seenVersion(context: ToolContext, file: GuardedPath, current: LoadedFile, tag: string) {
  if (tag === current.tag && context.history.hasSeen(file.rel, current.sha)) return current.doc;
  for (const sha of context.history.seenShasForTag(file.rel, tag)) {
    const cached = decodedFiles.withSha(file.real, sha);
    if (cached) return cached.doc;
    const bytes = context.history.getBlob(sha);
    const doc = bytes && documentFromBytes(bytes, current.doc.encoding);
    if (doc && !("kind" in doc)) return doc;
  }
  throw new ToolError(
    "stale",
    `This session never read ${file.display} at tag ${tag}, so it cannot tell which lines you mean. Read the file first (its current tag is ${current.tag}), then edit with that tag.`,
    { path: file.display, current_hash: current.tag },
  );
}

/**
 * The file changed under an edit and the change overlaps it. `since` names
 * the version the edit was made on ("you read it (at 1A2B)"); `redo` says how
 * to redo it in the edit's own form (a tag for line ops, a quote for text).
 */
export function conflictError(
  context: ToolContext,
  file: GuardedPath,
  current: LoadedFile,
  ranges: [number, number][],
  how: { since: string; redo: string },
): ToolError {
  const lines = current.doc.lines;
  const first = Math.max(1, ranges[0]![0] - CONFLICT_CONTEXT);
  const last = Math.min(lines.length, ranges.at(-1)![1] + CONFLICT_CONTEXT);
  const shown = lines.slice(first - 1, last).map((text, i) => `${first + i}| ${text}`);
  context.history.recordRead(file.rel, current.bytes, current.tag, [first, last], current.sha);
  return new ToolError(
    "conflict",
    [
      `${file.display} changed since ${how.since}, and the change overlaps your edit, so nothing was written. The current lines ${first}..${last}:`,
      header(file.display, current.tag),
      ...shown,
      how.redo,
    ].join("\n"),
    { path: file.display, current_hash: current.tag, conflict_lines: ranges },
  );
}

export async function planLineEdit(
  context: ToolContext,
  t: { path: string; file_hash: string; ops: string; file?: GuardedPath },
  pending: Map<string, LoadedFile>,
): Promise<EditPlan> {
  // A caller that checked the path already (for its lock) passes what the check gave.
  const file = t.file ?? context.guard.check(t.path, "write");
  const tag = parseTag(t.file_hash);
  if (!tag) {
    throw new ToolError(
      "invalid_input",
      `file_hash "${clip(t.file_hash)}" is not a tag: use the 4 hex characters after # in the read header, e.g. "1A2B".`,
    );
  }
  const current = pending.get(file.rel) ?? (await loadTextFile(context, file));
  const base = seenVersion(context, file, current, tag);
  const warnings: string[] = [];
  const ours = applyDsl(file.display, base, t.ops, warnings);
  if (base === current.doc) return editPlan(file, current, ours, "line_edit", warnings);

  const merged = merge3(base.lines, ours.lines, current.doc.lines);
  if (!merged.clean) {
    throw conflictError(context, file, current, merged.conflicts, {
      since: `you read it (at ${tag})`,
      redo: `Redo the edit against the current version with file_hash "${current.tag}".`,
    });
  }
  const finalNewline = current.doc.lines.length === 0 || hasFinalNewline(current.doc);
  const next = restyle(current.doc, merged.lines, finalNewline);
  const at = firstChangedLine(current.doc.lines, next.lines);
  const where = at > 0 ? ` and starts at line ${at}` : "";
  const style = styleChange(base, current.doc);
  warnings.push(
    style
      ? `${file.display}'s ${style} changed since you read it at ${tag} (its text did not); your edit was applied to the current version${where}.`
      : `${file.display} changed since you read it at ${tag} (now ${current.tag}); your edit was merged into the current version${where}. Check the diff.`,
  );
  return editPlan(file, current, next, "line_edit", warnings);
}
