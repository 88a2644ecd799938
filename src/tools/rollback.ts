import { z } from "zod";
import { ToolError } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { documentFromBytes } from "../text/document.js";
import { header, parseTag } from "../text/hashline.js";
import type { ToolContext } from "./context.js";
import { defineTool, manual } from "./define.js";
import { commitDocument, type LoadedFile, loadIfExists } from "./files.js";

const input = z.strictObject({
  path: z.string().describe("File path, relative to the root."),
  hash: z
    .string()
    .describe('Tag of the version to restore; "" for the version before the current one.'),
});

export interface RollbackResult {
  path: string;
  file_hash: string;
  header: string;
  replaced_hash: string | null;
  changed: boolean;
  diff: string;
  warnings: string[];
}

function pickVersion(
  context: ToolContext,
  file: GuardedPath,
  current: LoadedFile | undefined,
  hash: string,
) {
  const { history } = context;
  if (hash.trim() === "") {
    const version = current
      ? history.versionBefore(file.rel, current.sha)
      : history.versions(file.rel)[0];
    if (!version) {
      throw new ToolError(
        "not_found",
        `splice has no earlier version of ${file.display} to go back to. Call history with {"path": "${file.display}"} to see what it knows.`,
        { path: file.display },
      );
    }
    return version;
  }
  const tag = parseTag(hash);
  if (!tag) {
    throw new ToolError(
      "invalid_input",
      `hash "${hash}" is not a tag: use 4 hex characters such as "1A2B", or "" for the previous version.`,
    );
  }
  const version = history.findByTag(file.rel, tag)[0];
  if (!version) {
    throw new ToolError(
      "not_found",
      `splice's history has no version ${tag} of ${file.display}. Call history with {"path": "${file.display}"} to list the versions it has.`,
      { path: file.display },
    );
  }
  return version;
}

export const rollbackTool = defineTool({
  name: "rollback",
  description: manual("rollback"),
  example: { path: "src/main.ts", hash: "" },
  input,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  footprint: (args) => ({ reads: [], writes: [args.path] }),
  async call(context, args): Promise<RollbackResult> {
    const file = context.guard.check(args.path, "write");
    const current = await loadIfExists(context, file);
    const version = pickVersion(context, file, current, args.hash);
    const bytes = context.history.getBlob(version.sha);
    const doc = bytes && documentFromBytes(bytes);
    if (!doc || "kind" in doc) {
      throw new ToolError(
        "not_found",
        `Version ${version.tag} of ${file.display} is no longer stored (history was trimmed to its size limit).`,
        { path: file.display },
      );
    }
    const warnings: string[] = [];
    if (current && context.history.latestKnown(file.rel) !== current.sha) {
      warnings.push(
        `${file.display} was modified outside splice since splice last saw it; that content was backed up as ${current.tag} before the rollback.`,
      );
    }
    if (!current) warnings.push(`${file.display} did not exist; it was recreated.`);
    if (current && current.sha === version.sha) {
      warnings.push(`${file.display} is already at version ${version.tag}; nothing was written.`);
      context.history.recordRead(file.rel, current.bytes, current.tag);
      return {
        path: file.display,
        file_hash: current.tag,
        header: header(file.display, current.tag),
        replaced_hash: current.tag,
        changed: false,
        diff: "",
        warnings,
      };
    }
    const committed = await commitDocument(context, file, {
      kind: "rollback",
      before: current,
      doc,
      note: `rollback to ${version.tag}`,
      action: "rollback",
    });
    return {
      path: file.display,
      file_hash: committed.tag,
      header: committed.header,
      replaced_hash: current?.tag ?? null,
      changed: true,
      diff: committed.diff,
      warnings,
    };
  },
});
