import { contentIn } from "../../errors.js";
import { CLI_VOICE } from "../advice.js";
import { defineCommand } from "../define.js";
import { globList, positiveInt } from "../inputs.js";
import { searchView } from "../views.js";

export const search = defineCommand({
  name: "search",
  summary: "find text in files, printed like ripgrep: path:line:text",
  usage: "PATTERN [PATH] [--regex] [-i] [-g G]... [-C N] [--limit N]",
  description: `Finds PATTERN (literal text unless --regex) under PATH (default: the whole
project), .gitignore respected, and prints each hit as path:line:text, with
-C N lines of context as path-line-text. Exits 1 when nothing matches, with an
empty stdout, as grep and ripgrep do (stderr says what to try).`,
  args: [
    { name: "PATTERN", description: "the text (or, with --regex, the expression) to find" },
    {
      name: "PATH",
      description: "a folder or file to search (default: the root)",
      optional: true,
      path: true,
    },
  ],
  flags: {
    regex: { type: "boolean", short: "e", description: "PATTERN is a regular expression" },
    "ignore-case": { type: "boolean", short: "i", description: "match regardless of case" },
    glob: {
      type: "string",
      short: "g",
      valueName: "G",
      multiple: true,
      description:
        'only files matching a glob, "!" to leave out: -g "*.ts" -g "!*.test.ts" (or "*.ts,!*.test.ts")',
    },
    context: {
      type: "string",
      short: "C",
      valueName: "N",
      description: "N lines before and after each hit",
    },
    limit: { type: "string", valueName: "N", description: "show at most N matches" },
  },
  examples: [
    "splice search parseConfig",
    "splice search 'TODO|FIXME' src --regex -C 2",
    "splice search fetch --glob '*.ts' -i",
    "splice search TODO -g 'src/**' -g '!*.test.ts'",
  ],
  async run({ splice, positionals, flags, paint, errPaint, say }) {
    const [pattern, path] = positionals as [string, string?];
    const context = flags.context === "0" ? 0 : positiveInt("context", flags.context);
    const limit = positiveInt("limit", flags.limit);
    const globs = globList(flags.glob);
    const json = await splice.search({
      pattern,
      ...(path !== undefined ? { path } : {}),
      // One glob goes as a string, so --json prints what `splice call` does for the same search.
      ...(globs !== undefined ? { glob: globs.length === 1 ? globs[0] : globs } : {}),
      ...(flags.regex ? { regex: true } : {}),
      ...(flags["ignore-case"] ? { ignore_case: true } : {}),
      ...(context !== undefined ? { context } : {}),
      ...(limit !== undefined ? { limit } : {}),
    });
    // No match is exit 1 and an empty stdout, as grep's; what to try goes to stderr.
    // The tool says its notices in a person's voice too (--glob, --limit); say() rephrases the rest.
    const view = { ...json, content: contentIn(json, CLI_VOICE) ?? json.content };
    return { json, ...searchView(view, paint, say, errPaint), refused: json.matches === 0 };
  },
});
