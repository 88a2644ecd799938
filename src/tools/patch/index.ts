/**
 * The patch tool: a unified diff or a Codex patch, applied to every file it
 * names or to none. Every file is planned first against the tree before the
 * patch (patch-plan.ts; hunks placed by content, each uniquely or refused),
 * then all are written under one backup session, and files already written
 * are put back if a later write fails.
 */
import { z } from "zod";
import type { ChangeResult, Mode, Outcome } from "../../change/change.js";
import { commitChanges } from "../../change/changeset.js";
import { exclusiveAll } from "../../change/lock.js";
import { ToolError } from "../../errors.js";
import { HunkError, PatchParseError } from "../../patch/errors.js";
import { type HunkPlacement, type ParsedPatch, parsePatch } from "../../patch/parse.js";
import { pathList } from "../../text/names.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, validateSchema, withSharedFields } from "../schemas.js";
import { PatchPlanner, type Planned, sectionDiff } from "./plan.js";

const input = z.strictObject({
  patch: z.string(),
  format: z.enum(["auto", "unified", "codex"]).optional(),
  allow_overwrite: z.boolean().optional().describe("An added or renamed file may replace one."),
  mode: modeSchema,
  force: forceSchema,
  validate: validateSchema,
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

function parse(args: Args): ParsedPatch {
  try {
    return parsePatch(args.patch, args.format ?? "auto");
  } catch (error) {
    if (error instanceof PatchParseError) {
      throw error.toolError({ patch_line: error.line });
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
  return exclusiveAll(context, opPaths(parsed), async () => {
    const planner = new PatchPlanner(context, args.allow_overwrite === true);
    for (const op of parsed.files) {
      try {
        await planner.plan(op);
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
    planner.checkOverwrites();
    const changes = planner.changes();
    const outcomes = await commitChanges(context, changes, {
      mode,
      force: args.force,
      validate: args.validate,
    });
    const byRel = new Map<string, Outcome>();
    for (const [i, c] of changes.entries()) byRel.set(c.file.rel, outcomes[i]!);
    const results = planner.planned.map((p) => finish(p, byRel.get(p.target.file.rel)));
    if (results.length > 0) results[0]!.warnings.unshift(...parsed.warnings);
    const wrote = outcomes.some((o) => o.applied && o.changed);
    return {
      action: "patch",
      format: parsed.format,
      applied: mode === "apply",
      changed: results.some((r) => r.changed),
      diff: results.map((r) => r.diff).join(""),
      ...(wrote ? { backup_session: context.backup } : {}),
      results,
      warnings: parsed.warnings,
    };
  });
}

function finish(p: Planned, outcome: Outcome | undefined): PatchFileResult {
  const { diff, changed, warnings } = sectionDiff(p);
  const target = p.target;
  const out: PatchFileResult = {
    action: "patch",
    operation: p.operation,
    path: p.source.file.display,
    ...(p.operation === "rename" ? { dest_path: target.file.display } : {}),
    header: "",
    changed,
    applied: outcome?.applied ?? false,
    diff,
    warnings: [...warnings, ...p.warnings],
    ...(p.hunks ? { hunks: p.hunks } : {}),
  };
  if (!target.writtenBy) {
    out.header = `¶${target.file.display} (deleted)`;
  } else if (outcome?.header) {
    out.header = outcome.header;
    out.file_hash = outcome.tag;
  } else if (target.original) {
    out.header = `¶${target.file.display}#${target.original.tag}`;
    out.file_hash = target.original.tag;
  }
  if (outcome?.backup) out.backup_session = outcome.backup;
  if (outcome?.validationNotice) out.warnings.push(outcome.validationNotice);
  if (!changed) out.warnings.push(`${out.path}: the patch changes nothing here.`);
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
  description: `Apply a unified diff (as git diff prints) or a Codex patch (*** Begin Patch) to files: all change or none.
Example: {"patch": "--- a/src/a.ts\\n+++ b/src/a.ts\\n@@ -1 +1 @@\\n-let x = 1;\\n+let x = 2;\\n"}`,
  manual: withSharedFields(manual("patch/patch.md"), "mode", "force", "validate"),
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
