/**
 * Planning a text edit: each old_text -> new_text is found by the replace
 * engine (exact first, then the fuzzy ladder) on the evolving text of the
 * file, all or nothing for that file. A target that cannot be found is
 * refused with what the model needs to fix it in one step.
 */

import { type LoadedFile, loadIfExists } from "../../change/load.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { firstChangedLine, merge3 } from "../../text/diff.js";
import {
  type Document,
  documentFromBytes,
  hasFinalNewline,
  normalizedText,
  parseDocument,
  restyle,
  styleChange,
} from "../../text/document.js";
import { type MatchMode, type ReplaceOutcome, replaceText } from "../../text/replace.js";
import type { ToolContext } from "../define.js";
import { conflictError } from "./line-edit.js";
import { type EditPlan, editPlan, type MatchReport } from "./plan.js";

export interface TextEditArgs {
  old_text: string;
  new_text: string;
  replace_all?: boolean;
}

const LOOSENESS: MatchMode[] = ["exact", "fuzzy", "anchored", "delta"];

/** Says so when the file changed since this session last read it: the likely reason old_text is gone. */
function staleHint(context: ToolContext, file: GuardedPath, current: LoadedFile): string {
  const last = context.history.lastRead(file.rel);
  if (!last || last.sha === current.sha) return "";
  const lines = last.range ? `lines ${last.range[0]}..${last.range[1]}` : "the file";
  return ` ${file.display} changed since you read it at ${last.at} (tag ${last.tag}, now ${current.tag}); read ${lines} again and quote the current text.`;
}

function refusal(
  context: ToolContext,
  file: GuardedPath,
  current: LoadedFile,
  outcome: Extract<ReplaceOutcome, { ok: false }>,
  index: number,
  count: number,
): ToolError {
  const which =
    count > 1 ? ` (edit ${index + 1} of ${count}; none of this file's edits were applied)` : "";
  const hint = outcome.code === "not_found" ? staleHint(context, file, current) : "";
  return new ToolError(outcome.code, `${file.display}${which}: ${outcome.message}${hint}`, {
    path: file.display,
    edit_index: index,
    ...(outcome.lines ? { lines: outcome.lines } : {}),
    ...(outcome.candidates ? { candidates: outcome.candidates } : {}),
  });
}

function createPlan(file: GuardedPath, edits: TextEditArgs[]): EditPlan {
  if (edits.length !== 1) {
    throw new ToolError(
      "not_found",
      `${file.display} does not exist.`,
      { path: file.display },
      {
        tool: "write",
        args: { path: file.display },
        say: (v) =>
          `To create it, use ${v.tool("write")}, or one edit with an empty old text and the whole file as the new text.`,
      },
    );
  }
  // A new file has no style of its own to keep: its line endings and BOM are the text's, as with write.
  return editPlan(file, undefined, parseDocument(edits[0]!.new_text), "create", [], {
    match_count: 0,
    match_mode: "exact",
    matched_text: "",
  });
}

export async function planTextEdit(
  context: ToolContext,
  t: { path: string; edits: TextEditArgs[]; file?: GuardedPath },
  pending: Map<string, LoadedFile>,
): Promise<EditPlan> {
  // The path as the lock checked it, when the caller holds one: each target is checked once.
  const file = t.file ?? context.guard.check(t.path, "write");
  const current = pending.get(file.rel) ?? (await loadIfExists(context, file));
  const creates = t.edits.some((e) => e.old_text === "");
  if (!current) {
    if (creates) return createPlan(file, t.edits);
    throw new ToolError(
      "not_found",
      `${file.display} does not exist.`,
      { path: file.display },
      {
        tool: "write",
        args: { path: file.display },
        say: (v) =>
          `Check the path; to create it, use ${v.tool("write")}, or an empty old text with the whole file as the new text.`,
      },
    );
  }
  if (creates) {
    throw new ToolError(
      "exists",
      `${file.display} already exists, so an empty old text (which creates a file) is refused.`,
      { path: file.display },
      {
        tool: "write",
        say: (v) =>
          `Quote the text to replace, or use ${v.tool("write")} to replace the whole file.`,
      },
    );
  }
  const seen = seenVersion(context, file, current);
  if (seen && context.quoteBase === "current") {
    const now = applyEdits(normalizedText(current.doc), t.edits);
    if (now.ok && foundExactly(now.match, t.edits)) {
      const next = restyle(current.doc, linesOf(now.text), now.text.endsWith("\n"));
      return editPlan(file, current, next, "replace", now.warnings, now.match);
    }
  }
  if (seen) {
    // The file changed since this session saw it: edit the version the model
    // saw and merge, so an outside change to the same lines is never overwritten.
    const onSeen = applyEdits(normalizedText(seen.doc), t.edits);
    if (onSeen.ok) return mergePlan(context, file, current, seen, onSeen);
  }
  const applied = applyEdits(normalizedText(current.doc), t.edits);
  if (!applied.ok) {
    const { outcome, index } = applied;
    throw refusal(context, file, current, outcome, index, t.edits.length);
  }
  const next = restyle(current.doc, linesOf(applied.text), applied.text.endsWith("\n"));
  return editPlan(file, current, next, "replace", applied.warnings, applied.match);
}

interface Applied {
  ok: true;
  text: string;
  warnings: string[];
  match: MatchReport;
}

/** Runs a target's edits in order on `text`: all of them, or the first refusal. */
function applyEdits(
  text: string,
  edits: TextEditArgs[],
): Applied | { ok: false; outcome: Extract<ReplaceOutcome, { ok: false }>; index: number } {
  const warnings: string[] = [];
  const matches: NonNullable<MatchReport["matches"]> = [];
  const matched: string[] = [];
  for (const [index, edit] of edits.entries()) {
    const outcome = replaceText(text, {
      oldText: edit.old_text,
      newText: edit.new_text,
      replaceAll: edit.replace_all,
    });
    if (!outcome.ok) return { ok: false, outcome, index };
    text = outcome.text;
    warnings.push(...outcome.warnings);
    matched.push(outcome.matchedText);
    matches.push({
      match_count: outcome.count,
      match_mode: outcome.mode,
      ...(outcome.mode === "exact" ? {} : { match_score: outcome.score }),
      lines: outcome.matchedLines,
    });
  }
  const loosest = matches.reduce((m, x) => Math.max(m, LOOSENESS.indexOf(x.match_mode)), 0);
  const scores = matches.flatMap((m) => (m.match_score === undefined ? [] : [m.match_score]));
  const match: MatchReport = {
    match_count: matches.reduce((n, m) => n + m.match_count, 0),
    match_mode: LOOSENESS[loosest]!,
    ...(scores.length > 0 ? { match_score: Math.min(...scores) } : {}),
    matched_text: matched.join("\n"),
    ...(matches.length > 1 ? { matches } : {}),
  };
  return { ok: true, text, warnings, match };
}

/** Every quote matched the text exactly, and once unless it asked for all. */
function foundExactly(match: MatchReport, edits: readonly TextEditArgs[]): boolean {
  const each = match.matches ?? [{ match_mode: match.match_mode, match_count: match.match_count }];
  return each.every(
    (m, i) => m.match_mode === "exact" && (edits[i]?.replace_all === true || m.match_count === 1),
  );
}

const linesOf = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));

/** The version this session last saw, when the file changed since; undefined when it did not. */
function seenVersion(
  context: ToolContext,
  file: GuardedPath,
  current: LoadedFile,
): { doc: Document; tag: string } | undefined {
  const seen = context.history.lastSeen(file.rel);
  if (!seen || seen.sha === current.sha) return undefined;
  const bytes = context.history.getBlob(seen.sha);
  const doc = bytes && documentFromBytes(bytes, current.doc.encoding);
  return doc && !("kind" in doc) ? { doc, tag: seen.tag } : undefined;
}

function mergePlan(
  context: ToolContext,
  file: GuardedPath,
  current: LoadedFile,
  seen: { doc: Document; tag: string },
  applied: Applied,
): EditPlan {
  const merged = merge3(seen.doc.lines, linesOf(applied.text), current.doc.lines);
  if (!merged.clean) {
    // A text edit carries no tag: it is redone by quoting what the file says now.
    throw conflictError(context, file, current, merged.conflicts, {
      since: `you last saw it (at ${seen.tag})`,
      redo: "Redo the edit with old_text quoted from these current lines.",
    });
  }
  const finalNewline = current.doc.lines.length === 0 || hasFinalNewline(current.doc);
  const next = restyle(current.doc, merged.lines, finalNewline);
  const at = firstChangedLine(current.doc.lines, next.lines);
  const where = at > 0 ? `, starting at line ${at}` : "";
  const style = styleChange(seen.doc, current.doc);
  const warnings = [
    ...applied.warnings,
    style
      ? `${file.display}'s ${style} changed since you last saw it (its text did not); your edit was applied to the current version${where}.`
      : `${file.display} changed since you last saw it (now ${current.tag}); your edit was made on the version you saw and merged into the current one${where}. Check the diff.`,
  ];
  return editPlan(file, current, next, "replace", warnings, applied.match);
}
