import { REWRITE_FLAGS } from "../code-view.js";
import { defineCommand } from "../define.js";
import { formatHashline, formatWarnings } from "../format.js";
import { positiveInt } from "../inputs.js";
import { withProgress } from "../progress.js";

export const outline = defineCommand({
  name: "outline",
  summary: "the definitions of a file or folder, with their line ranges",
  usage: "PATH [--lang L] [--max-files N]",
  description: `Lists what a file or folder defines (functions, classes, methods, types, ...)
with line ranges, nested by indentation. A folder is walked like list
(.gitignore respected), at most --max-files files (default 1000).`,
  args: [{ name: "PATH", description: "a file or a folder", path: true }],
  flags: {
    lang: REWRITE_FLAGS.lang,
    "max-files": {
      type: "string",
      valueName: "N",
      description: "outline at most N files of a folder (default 1000)",
    },
  },
  examples: ["splice outline src/parser.ts", "splice outline src --lang typescript"],
  async run({ splice, positionals, flags, paint }) {
    const [path] = positionals as [string];
    const maxFiles = positiveInt("max-files", flags["max-files"]);
    const json = await withProgress(splice, () =>
      splice.outline({
        path,
        ...(flags.lang ? { lang: flags.lang } : {}),
        ...(maxFiles ? { max_files: maxFiles } : {}),
      }),
    );
    const human = [
      formatHashline(json.content, paint).replaceAll("\n¶", "\n\n¶"),
      ...formatWarnings(json.warnings, paint),
    ].join("\n");
    return { json, human };
  },
});
