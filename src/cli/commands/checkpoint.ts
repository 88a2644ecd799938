import { contentIn } from "../../errors.js";
import type { UndoFile } from "../../index.js";
import { CLI_VOICE } from "../advice.js";
import { defineCommand, UsageError } from "../define.js";
import { formatDiff, formatWarnings } from "../format.js";
import { callWithProgress } from "../progress.js";

const ACTIONS = ["create", "diff", "restore", "list"];

export const checkpoint = defineCommand({
  name: "checkpoint",
  summary: "note the project's files under a name; diff or restore them later",
  usage: "ACTION [NAME] [--apply]",
  description: `ACTION is one of: create NAME, diff NAME, restore NAME [--apply], list.
create NAME notes every file list shows and keeps their bytes in history
(.splice/checkpoints). diff NAME lists what changed since, by any means (an
editor, a command, git): created, changed, deleted, with lines added and
removed. restore NAME shows the diff putting it back would write; with --apply
it writes it, as one backup session (splice undo puts back what was there).
Files noted without a copy (over the size limits) are named, never skipped.`,
  args: [
    { name: "ACTION", description: "create, diff, restore or list" },
    { name: "NAME", description: "the checkpoint (not for list)", optional: true },
  ],
  flags: {
    apply: { type: "boolean", description: "restore: write it (default: show the diff only)" },
  },
  onInterrupt: "finish",
  examples: [
    "splice checkpoint create before-upgrade",
    "splice checkpoint diff before-upgrade",
    "splice checkpoint restore before-upgrade --apply",
  ],
  async run({ splice, positionals, flags, paint, say }) {
    const [action, name, ...rest] = positionals;
    if (!action || !ACTIONS.includes(action)) {
      throw new UsageError(`splice checkpoint: say ${ACTIONS.join(", ")}`);
    }
    if (rest.length > 0) throw new UsageError("splice checkpoint: one NAME at most");
    if (flags.apply && action !== "restore") {
      throw new UsageError("splice checkpoint: --apply goes with restore");
    }
    const args = {
      action,
      ...(name !== undefined ? { name } : {}),
      ...(flags.apply ? { apply: true } : {}),
    };
    const json = await callWithProgress<{ content: string; files?: UndoFile[] }>(
      splice,
      "checkpoint",
      args,
      action === "restore" ? "restoring" : "checking",
    );
    // The tool says its advice in a person's voice too; say() rephrases the rest.
    const content = contentIn(json, CLI_VOICE) ?? json.content;
    if (!json.files) return { json, human: say(content) };
    // A restore: its first line, then each file with its diff in colour.
    const lines = [say(content.split("\n")[0]!)];
    for (const f of json.files) {
      lines.push(
        `${f.action.padEnd(9)} ${f.path}`,
        ...(f.diff ? [formatDiff(f.diff, paint)] : []),
        ...formatWarnings(f.warnings, paint),
      );
    }
    const tail = content
      .split("\n")
      .filter((l) => l.startsWith("[") && l.includes("cannot be restored"))
      .map((l) => say(l));
    return { json, human: [...lines, ...tail].join("\n") };
  },
});
