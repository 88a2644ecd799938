import type { Splice } from "../../splice.js";
import { editView, findView, REWRITE_FLAGS, rewriteArgs } from "../code-view.js";
import { defineCommand, UsageError, VERDICT_FLAGS } from "../define.js";
import { withProgress } from "../progress.js";

/** The matched files' lines as they are now, for the whole line ast-grep prints. */
async function fileLines(
  splice: Splice,
  paths: readonly string[],
): Promise<(path: string) => string[] | undefined> {
  const files = new Map<string, string[]>();
  for (const path of new Set(paths)) {
    try {
      const text = new TextDecoder().decode(await splice.readRootFile(path));
      files.set(path, text.split(/\r?\n/));
    } catch {
      // Gone since the search: the matched text stands in for its lines.
    }
  }
  return (path) => files.get(path);
}

export const ast = defineCommand({
  name: "ast",
  summary: "find code by syntax; with --rewrite, rewrite it (preview; --apply writes)",
  usage: "PATTERN [--rewrite OUT [--apply]] [PATHS...] [--lang L] [--max-files N]",
  description: `Finds code by syntax with an ast-grep pattern: $NAME matches one node,
$$$NAME zero or more. PATHS are files, folders or globs (default: the
root; .gitignore respected, at most --max-files, default 1000). Without
--rewrite it prints each line that matched as ast-grep does, path:line: then
the whole line with the match marked (on a terminal), and exits 1 with an
empty stdout when nothing matched; a language the pattern does not parse in
is one warning on stderr. With
--rewrite OUT (which puts back what the names captured) it shows each file's
diff and writes nothing unless --apply; with --apply every changed file is
written, all or none, in one backup session (splice undo reverts it). A
progress bar shows on a terminal when many files are covered.`,
  args: [
    { name: "PATTERN", description: "the ast-grep pattern to find" },
    {
      name: "PATHS",
      description: "files, folders or globs (default: the root)",
      variadic: true,
      optional: true,
      path: true,
    },
  ],
  flags: {
    ...VERDICT_FLAGS,
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
    const [pattern, ...given] = positionals as [string, ...string[]];
    const paths = given.length > 0 ? given : ["."];
    if (flags.rewrite === undefined) {
      if (flags.apply) {
        throw new UsageError("splice ast: --apply writes a --rewrite; pass --rewrite OUT too");
      }
      const json = await withProgress(splice, () =>
        splice.astEdit({ ops: [{ pat: pattern }], paths, ...rewriteArgs(flags) }),
      );
      return {
        json,
        human: findView(
          json,
          paint,
          await fileLines(
            splice,
            (json.hits ?? []).map((h) => h.path),
          ),
        ),
        refused: json.matches === 0,
      };
    }
    const out = flags.rewrite;
    const json = await withProgress(splice, () =>
      splice.astEdit({ ops: [{ pat: pattern, out }], paths, ...rewriteArgs(flags) }),
    );
    return { json, human: editView(json, paint) };
  },
});
