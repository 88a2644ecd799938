import { editView, REWRITE_FLAGS, rewriteArgs } from "../code-view.js";
import { defineCommand, VERDICT_FLAGS } from "../define.js";
import { withProgress } from "../progress.js";

export const rename = defineCommand({
  name: "rename",
  summary: "rename an identifier by syntax (preview; --apply writes)",
  usage: "OLD NEW PATHS... [--apply] [--lang L] [--max-files N]",
  description: `Renames the identifier OLD to NEW wherever it is a name in code - never inside
strings or comments, never a longer name that contains it. It reads tokens,
not scopes. Previews unless --apply.`,
  args: [
    { name: "OLD", description: "the identifier to rename" },
    { name: "NEW", description: "its new name" },
    { name: "PATHS", description: "files, folders or globs", variadic: true, path: true },
  ],
  flags: { ...REWRITE_FLAGS, ...VERDICT_FLAGS },
  onInterrupt: "finish",
  examples: [
    "splice rename parseConfig loadConfig src",
    "splice rename parseConfig loadConfig src --apply",
  ],
  async run({ splice, positionals, flags, paint }) {
    const [name, newName, ...paths] = positionals as [string, string, ...string[]];
    const json = await withProgress(splice, () =>
      splice.astRename({ name, new_name: newName, paths, ...rewriteArgs(flags) }),
    );
    return { json, human: editView(json, paint) };
  },
});
