import { z } from "zod";
import { type ChangeResult, changeResult } from "../../change/change.js";
import { commit } from "../../change/commit.js";
import { loadReplaced, type Replaced, restorable } from "../../change/load.js";
import { serialized } from "../../change/lock.js";
import { clip, type NextStep, ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import type { VersionInfo, VersionRef } from "../../history/history.js";
import { netChanges } from "../../history/undo-state.js";
import { parseTag } from "../../text/hashline.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { modeSchema, validateSchema, withSharedFields } from "../schemas.js";

const input = z.strictObject({
  path: z.string(),
  hash: z.string().describe('A tag; "" is the previous version.'),
  mode: modeSchema,
  validate: validateSchema,
});

export interface RollbackResult extends ChangeResult {
  file_hash: string;
  replaced_hash: string | null;
}

/** Advice to look at a file's history first: `Call history with {"path": …} to …`. */
function historyOf(path: string, why: string): NextStep {
  const args = { path };
  return { tool: "history", args, say: (v) => `${v.call("history", args)} ${why}.` };
}

function pickVersion(
  context: ToolContext,
  file: GuardedPath,
  current: Replaced | undefined,
  hash: string,
): { version: VersionRef; warnings: string[] } {
  const { history } = context;
  if (hash.trim() === "") {
    const version = current
      ? history.versionBefore(file.rel, current.sha)
      : history.versions(file.rel)[0];
    if (!version) {
      throw new ToolError(
        "not_found",
        `splice has no earlier version of ${file.display} to go back to.`,
        { path: file.display },
        historyOf(file.display, "to see what it knows"),
      );
    }
    return { version, warnings: [] };
  }
  const tag = parseTag(hash);
  if (!tag) {
    throw new ToolError(
      "invalid_input",
      `hash "${clip(hash)}" is not a tag: use 4 hex characters such as "1A2B", or "" for the previous version.`,
    );
  }
  const [version, ...others] = history.findByTag(file.rel, tag);
  if (!version) {
    throw new ToolError(
      "not_found",
      `splice's history has no version ${tag} of ${file.display}.`,
      { path: file.display },
      historyOf(file.display, "to list the versions it has"),
    );
  }
  return { version, warnings: others.map((other) => sameTag(context, file, version, other)) };
}

/**
 * A 4-hex tag can name two versions; the newest is restored, and this says how
 * to reach the other: undo the backup session that replaced it, for this file.
 */
function sameTag(
  context: ToolContext,
  file: GuardedPath,
  chosen: VersionInfo,
  other: VersionInfo,
): string {
  const replacedBy = context.history
    .backups()
    .find((b) => netChanges(b).get(file.rel)?.first.before?.sha === other.sha);
  const how = replacedBy
    ? `call undo with {"backup_session": "${replacedBy.id}", "path": "${file.display}"}`
    : "restore it by hand: no backup session holds it";
  return `Tag ${chosen.tag} also names an older, different version of ${file.display} (${other.size} bytes, ${other.kind} at ${other.at}); this restored the newest (${chosen.size} bytes, ${chosen.kind} at ${chosen.at}). If you meant the older one, ${how}.`;
}

async function rollback(
  context: ToolContext,
  args: z.output<typeof input>,
): Promise<RollbackResult> {
  const file = context.guard.check(args.path, "write");
  const current = await loadReplaced(context, file);
  const { version, warnings } = pickVersion(context, file, current, args.hash);
  const bytes = context.history.getBlob(version.sha);
  if (!bytes) {
    throw new ToolError(
      "not_found",
      `Version ${version.tag} of ${file.display} is no longer stored (history was trimmed to its size limit).`,
      { path: file.display },
    );
  }
  if (current && context.history.latestKnown(file.rel) !== current.sha) {
    warnings.push(
      `${file.display} was modified outside splice since splice last saw it; that content (${current.tag}) is backed up before the rollback replaces it.`,
    );
  }
  if (!current) warnings.push(`${file.display} did not exist; the rollback recreates it.`);
  const outcome = await commit(
    context,
    {
      kind: "write",
      file,
      before: current,
      doc: restorable(bytes),
      note: `rollback to ${version.tag}`,
      action: "rollback",
      restores: true,
    },
    { mode: args.mode, validate: args.validate },
  );
  if (!outcome.changed) {
    warnings.push(`${file.display} is already at version ${version.tag}; nothing was written.`);
  }
  if (outcome.validationNotice) warnings.push(outcome.validationNotice);
  return changeResult(file.display, outcome, warnings, { replaced_hash: current?.tag ?? null });
}

export const rollbackTool = defineTool({
  name: "rollback",
  description: `Restore a file's earlier version by its tag from history.
Example: {"path": "src/a.ts", "hash": ""}`,
  manual: withSharedFields(manual("rollback/rollback.md"), "mode", "validate"),
  example: { path: "src/main.ts", hash: "" },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: true,
  footprint: (args) => ({ reads: [], writes: [args.path] }),
  summarize: (args) => ({
    subject: args.path,
    summary: `rollback ${args.path} to ${args.hash || "the previous version"}`,
  }),
  preview: async (context, args) => (await rollback(context, { ...args, mode: "preview" })).diff,
  call: (context, args) => serialized(context, args.path, () => rollback(context, args)),
});
