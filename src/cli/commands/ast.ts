import { editView, REWRITE_FLAGS, rewriteArgs } from "../code-view.js";
import { defineCommand, invalid } from "../define.js";
import { withProgress } from "../progress.js";

export const ast = defineCommand({
  name: "ast",
  summary: "rewrite code by syntax (preview; --apply writes)",
  usage: "PATTERN --rewrite OUT PATHS... [--apply] [--lang L] [--max-files N]",
  description: `Rewrites code by syntax with an ast-grep pattern: $NAME matches one node,
$$$NAME zero or more; OUT puts back what they captured. PATHS are files,
folders or globs (.gitignore respected, at most --max-files, default 1000).
Shows each file's diff and writes nothing unless --apply; with --apply every
changed file is written, all or none, in one backup session (splice undo
reverts it). A progress bar shows on a terminal when many files are covered.`,
  args: [
    { name: "PATTERN", description: "the ast-grep pattern to find" },
    { name: "PATHS", description: "files, folders or globs", variadic: true, path: true },
  ],
  flags: {
    rewrite: {
      type: "string",
      valueName: "OUT",
      description: "what each match becomes (required)",
    },
    ...REWRITE_FLAGS,
  },
  onInterrupt: "finish",
  examples: [
    "splice ast 'console.log($$$A)' --rewrite 'logger.info($$$A)' src",
    "splice ast 'assertEquals($A, $B)' --rewrite 'assertEqual($A, $B)' tests --apply",
  ],
  async run({ splice, positionals, flags, paint }) {
    const [pattern, ...paths] = positionals as [string, ...string[]];
    if (flags.rewrite === undefined) {
      invalid(
        "ast needs a PATTERN, --rewrite OUT and PATHS: splice ast 'console.log($$$A)' --rewrite 'logger.info($$$A)' src [--apply]",
      );
    }
    const out = flags.rewrite;
    const json = await withProgress(splice, () =>
      splice.astEdit({ ops: [{ pat: pattern, out }], paths, ...rewriteArgs(flags) }),
    );
    return { json, human: editView(json, paint) };
  },
});
