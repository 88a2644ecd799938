import { defineCommand, VERDICT_FLAGS } from "../define.js";
import { changeView } from "../format.js";
import { callWithProgress } from "../progress.js";

export const rollback = defineCommand({
  name: "rollback",
  summary: "restore an earlier version (default: the one before the current)",
  usage: "PATH [TAG]",
  description: `Restores the version named by TAG from history, or, without TAG, the version
before the current one. A deleted file is recreated. The replaced content is
backed up too, so a rollback can be rolled back.`,
  args: [
    { name: "PATH", description: "the file to restore", path: true },
    {
      name: "TAG",
      description: "the version to restore (see splice history PATH)",
      optional: true,
    },
  ],
  flags: {
    ...VERDICT_FLAGS,
  },
  onInterrupt: "finish",
  examples: ["splice rollback src/main.ts", "splice rollback src/main.ts 1A2B"],
  async run({ splice, positionals, paint, say }) {
    const [path, hash = ""] = positionals as [string, string?];
    const json = await callWithProgress<Awaited<ReturnType<typeof splice.rollback>>>(
      splice,
      "rollback",
      { path, hash },
      "rolling back",
    );
    const note = paint(
      "dim",
      `(replaced ${json.replaced_hash ?? "nothing: the file was missing"})`,
    );
    return { json, human: `${changeView(json, paint, say)}\n${note}` };
  },
});
