/**
 * The patch tool: a unified diff or a Codex patch, applied to every file it
 * names or to none. Every file is planned first (hunks placed by content,
 * each uniquely or refused), then all are written under one backup session,
 * and files already written are put back if a later write fails.
 */
import { z } from "zod";
import { ToolError } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { applyHunks } from "../patch/apply.js";
import {
  type FileOp,
  HunkError,
  type HunkPlacement,
  type ParsedPatch,
  PatchParseError,
  parsePatch,
} from "../patch/parse.js";
import { unifiedDiff } from "../text/diff.js";
import { type Document, hasFinalNewline } from "../text/document.js";
import { type Change, commitChanges, documentFrom, documentOf } from "./changeset.js";
import {
  type ChangeResult,
  documentDiff,
  exclusiveAll,
  type Mode,
  modeSchema,
  newBackupId,
  type Outcome,
} from "./commit.js";
import type { ToolContext } from "./context.js";
import { CHANGES, defineTool, manual, pathList } from "./define.js";
import { type LoadedFile, loadIfExists } from "./files.js";

const input = z.strictObject({
  patch: z
    .string()
    .describe(
      "A unified diff (as git diff prints it) or a Codex patch (*** Begin Patch … *** End Patch).",
    ),
  format: z
    .enum(["auto", "unified", "codex"])
    .optional()
    .describe('"auto" (default) tells the two apart.'),
  allow_overwrite: z
    .boolean()
    .optional()
    .describe("Let an added or renamed file replace a file that already exists."),
  mode: modeSchema,
});

type Args = z.output<typeof input>;

export interface PatchFileResult extends ChangeResult {
  action: "patch";
  operation: "add" | "delete" | "update" | "rename";
  /** Where a renamed file went. */
  dest_path?: string;
  /** Where each hunk landed and how it was matched (updates). */
  hunks?: HunkPlacement[];
}

export interface PatchResult {
  action: "patch";
  format: ParsedPatch["format"];
  applied: boolean;
  changed: boolean;
  /** Every file's diff, in patch order. */
  diff: string;
  backup_session?: string;
  results: PatchFileResult[];
  warnings: string[];
}

/** One path as the plan sees it: what is on disk and what the patch makes of it. */
interface Entry {
  file: GuardedPath;
  original: LoadedFile | undefined;
  doc: Document | undefined;
  mode: number | undefined;
  touched: boolean;
}

interface Planned {
  op: FileOp;
  result: PatchFileResult;
  /** The entry whose final state the result reports (the destination of a rename). */
  target: Entry;
}

class PatchPlanner {
  readonly entries = new Map<string, Entry>();

  constructor(
    private readonly context: ToolContext,
    private readonly allowOverwrite: boolean,
  ) {}

  async entry(path: string): Promise<Entry> {
    const file = this.context.guard.check(path, "write");
    const known = this.entries.get(file.rel);
    if (known) return known;
    const stat = await this.context.workspace.stat(file.real);
    if (stat?.kind === "directory") {
      throw new ToolError("is_directory", `${file.display} is a folder, not a file.`, {
        path: file.display,
      });
    }
    const original = stat ? await loadIfExists(this.context, file) : undefined;
    const entry: Entry = {
      file,
      original,
      doc: original?.doc,
      mode: original?.mode,
      touched: false,
    };
    this.entries.set(file.rel, entry);
    return entry;
  }

  refuseExisting(entry: Entry, op: FileOp, what: string): void {
    if (entry.doc === undefined || this.allowOverwrite) return;
    throw new ToolError(
      "exists",
      `${entry.file.display} already exists, and the patch ${what} (patch line ${op.patchLine}). Nothing was applied. Patch the existing file with hunks instead, or pass allow_overwrite: true to replace it.`,
      { path: entry.file.display },
    );
  }

  async plan(op: FileOp): Promise<Planned> {
    const entry = await this.entry(op.path);
    const display = entry.file.display;
    const result = (operation: PatchFileResult["operation"], diff: string): PatchFileResult => ({
      action: "patch",
      operation,
      path: display,
      header: "",
      changed: diff !== "",
      applied: false,
      diff,
      warnings: [],
    });
    if (op.kind === "add") {
      this.refuseExisting(entry, op, "adds it");
      const doc = documentOf(op.lines, op.finalNewline, entry.doc);
      const diff = documentDiff(display, entry.doc, doc);
      this.set(entry, doc, op.fileMode ?? entry.mode);
      return { op, result: result("add", diff), target: entry };
    }
    const current = entry.doc;
    if (current === undefined) {
      const verb = op.kind === "delete" ? "deletes" : "changes";
      throw new ToolError(
        "not_found",
        `${display} does not exist, but the patch ${verb} it (patch line ${op.patchLine}). Nothing was applied. Check the path; to create a file, add it as a new file.`,
        { path: display },
      );
    }
    if (op.kind === "delete") {
      if (op.expected && !sameLines(op.expected, current.lines)) {
        throw new ToolError(
          "conflict",
          `${display} is not what the patch deletes (patch line ${op.patchLine}): its content changed. Nothing was applied. Read it again; delete it with a patch whose removed lines match, or with the file tool.`,
          { path: display },
        );
      }
      const diff = unifiedDiff(current.lines, [], {
        path: display,
        oldFinalNewline: hasFinalNewline(current),
      });
      this.set(entry, undefined, undefined);
      return { op, result: result("delete", diff), target: entry };
    }
    const applied = applyHunks(
      {
        lines: current.lines,
        finalNewline: current.lines.length === 0 || hasFinalNewline(current),
      },
      op.hunks,
      display,
    );
    const doc = documentFrom(current, applied.lines, applied.origin, applied.finalNewline);
    let target = entry;
    const mode = op.fileMode ?? entry.mode;
    if (op.moveTo !== undefined) {
      const dest = await this.entry(op.moveTo);
      if (dest !== entry) {
        this.refuseExisting(dest, op, `renames ${display} to it`);
        this.set(entry, undefined, undefined);
        target = dest;
      }
    }
    this.set(target, doc, mode);
    const diff = documentDiff(target.file.display, current, doc);
    const r = result(target === entry ? "update" : "rename", diff);
    if (target !== entry) {
      r.dest_path = target.file.display;
      r.changed = true;
      r.warnings.push(`Renamed ${display} to ${target.file.display}.`);
    }
    if (mode !== entry.mode) r.changed = true;
    r.hunks = applied.hunks;
    r.warnings.push(...applied.warnings);
    return { op, result: r, target };
  }

  private set(entry: Entry, doc: Document | undefined, mode: number | undefined): void {
    entry.doc = doc;
    entry.mode = mode;
    entry.touched = true;
  }

  /** What to write: every touched path that ends up different, writes before deletes. */
  changes(): Change[] {
    const writes: Change[] = [];
    const deletes: Change[] = [];
    for (const e of this.entries.values()) {
      if (!e.touched) continue;
      if (e.doc === undefined) {
        if (e.original) {
          deletes.push({
            kind: "delete",
            file: e.file,
            before: e.original,
            action: "delete",
            note: "patch",
          });
        }
        continue;
      }
      writes.push({
        kind: "write",
        file: e.file,
        before: e.original,
        doc: e.doc,
        ...(e.mode !== undefined ? { fileMode: e.mode } : {}),
        action: e.original ? "patch" : "create",
        note: "patch",
      });
    }
    return [...writes, ...deletes];
  }
}

/** Lines the patch says it deletes match the file, ignoring trailing whitespace. */
function sameLines(expected: string[], actual: string[]): boolean {
  return (
    expected.length === actual.length &&
    expected.every((l, i) => l.trimEnd() === actual[i]!.trimEnd())
  );
}

function parse(args: Args): ParsedPatch {
  try {
    return parsePatch(args.patch, args.format ?? "auto");
  } catch (error) {
    if (error instanceof PatchParseError) {
      throw new ToolError("invalid_input", `The patch could not be read: ${error.message}`, {
        patch_line: error.line,
      });
    }
    throw error;
  }
}

function opPaths(parsed: ParsedPatch): string[] {
  return parsed.files.flatMap((f) =>
    f.kind === "update" && f.moveTo ? [f.path, f.moveTo] : [f.path],
  );
}

async function applyPatch(context: ToolContext, args: Args): Promise<PatchResult> {
  const parsed = parse(args);
  const mode: Mode = args.mode ?? "apply";
  const backup = context.backup ?? newBackupId();
  return exclusiveAll(context, opPaths(parsed), async () => {
    const planner = new PatchPlanner(context, args.allow_overwrite === true);
    const planned: Planned[] = [];
    for (const op of parsed.files) {
      try {
        planned.push(await planner.plan(op));
      } catch (error) {
        if (error instanceof HunkError) {
          throw new ToolError(error.code, error.message, {
            path: op.path,
            hunk: error.hunk,
            ...(error.lines ? { lines: error.lines } : {}),
            ...(error.candidates ? { candidates: error.candidates } : {}),
          });
        }
        throw error;
      }
    }
    const changes = planner.changes();
    const outcomes = await commitChanges(context, changes, mode, backup);
    const byRel = new Map<string, Outcome>();
    for (const [i, c] of changes.entries()) byRel.set(c.file.rel, outcomes[i]!);
    const results = planned.map(({ result, target }) =>
      finish(result, target, byRel.get(target.file.rel)),
    );
    if (results.length > 0) results[0]!.warnings.unshift(...parsed.warnings);
    const wrote = outcomes.some((o) => o.applied && o.changed);
    return {
      action: "patch",
      format: parsed.format,
      applied: mode === "apply",
      changed: results.some((r) => r.changed),
      diff: results.map((r) => r.diff).join(""),
      ...(wrote ? { backup_session: backup } : {}),
      results,
      warnings: parsed.warnings,
    };
  });
}

function finish(r: PatchFileResult, target: Entry, outcome: Outcome | undefined): PatchFileResult {
  const deleted = target.doc === undefined;
  const out: PatchFileResult = { ...r };
  if (deleted) {
    out.header = `¶${target.file.display} (deleted)`;
  } else if (outcome?.header) {
    out.header = outcome.header;
    out.file_hash = outcome.tag;
  } else if (target.original) {
    out.header = `¶${target.file.display}#${target.original.tag}`;
    out.file_hash = target.original.tag;
  }
  out.applied = outcome?.applied ?? false;
  if (outcome?.backup) out.backup_session = outcome.backup;
  if (outcome?.validationNotice) out.warnings.push(outcome.validationNotice);
  if (!r.changed) out.warnings.push(`${r.path}: the patch changes nothing here.`);
  return out;
}

function paths(args: Args): string[] {
  try {
    return opPaths(parse(args));
  } catch {
    return [];
  }
}

export const patchTool = defineTool({
  name: "patch",
  description: manual("patch"),
  example: {
    patch:
      "*** Begin Patch\n*** Update File: src/main.ts\n@@ function main() {\n-  const answer = 41;\n+  const answer = 42;\n*** End Patch\n",
  },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: true,
  footprint: (args) => ({ reads: [], writes: paths(args) }),
  summarize: (args) => {
    const subject = pathList(paths(args));
    return { subject, summary: `patch ${subject}` };
  },
  preview: async (context, args) => (await applyPatch(context, { ...args, mode: "preview" })).diff,
  call: applyPatch,
});
