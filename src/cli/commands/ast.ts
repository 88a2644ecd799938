import { editView, findView, REWRITE_FLAGS, rewriteArgs } from "../code-view.js";
import { defineCommand, STRICT_FLAG, UsageError } from "../define.js";
import { withProgress } from "../progress.js";

export const ast = defineCommand({
  name: "ast",
  summary: "find code by syntax; with --rewrite, rewrite it (preview; --apply writes)",
  usage: "PATTERN [--rewrite OUT [--apply]] PATHS... [--lang L] [--max-files N]",
  description: `Finds code by syntax with an ast-grep pattern: $NAME matches one node,
$$$NAME zero or more. PATHS are files, folders or globs (.gitignore
respected, at most --max-files, default 1000). Without --rewrite it prints
each match as path:line:text and exits 1 when nothing matched. With
--rewrite OUT (which puts back what the names captured) it shows each file's
diff and writes nothing unless --apply; with --apply every changed file is
written, all or none, in one backup session (splice undo reverts it). A
progress bar shows on a terminal when many files are covered.`,
  args: [
    { name: "PATTERN", description: "the ast-grep pattern to find" },
    { name: "PATHS", description: "files, folders or globs", variadic: true, path: true },
  ],
  flags: {
    ...STRICT_FLAG,
    rewrite: {
      type: "string",
      valueName: "OUT",
      description: "what each match becomes (without it, ast only finds)",
    },
    ...REWRITE_FLAGS,
  },
  onInterrupt: "finish",
  examples: [
    "splice ast 'console.log($$$A)' src",
    "splice ast 'console.log($$$A)' --rewrite 'logger.info($$$A)' src",
    "splice ast 'assertEquals($A, $B)' --rewrite 'assertEqual($A, $B)' tests --apply",
  ],
  async run({ splice, positionals, flags, paint }) {
    const [pattern, ...paths] = positionals as [string, ...string[]];
    if (flags.rewrite === undefined) {
      if (flags.apply) {
        throw new UsageError("splice ast: --apply writes a --rewrite; pass --rewrite OUT too");
      }
      const json = await withProgress(splice, () =>
        splice.astEdit({ ops: [{ pat: pattern }], paths, ...rewriteArgs(flags) }),
      );
      return { json, human: findView(json, paint), refused: json.matches === 0 };
    }
    const out = flags.rewrite;
    const json = await withProgress(splice, () =>
      splice.astEdit({ ops: [{ pat: pattern, out }], paths, ...rewriteArgs(flags) }),
    );
    return { json, human: editView(json, paint) };
  },
});
