import { defineCommand, VERDICT_FLAGS } from "../define.js";
import { changeView, formatWarnings, writtenFooter } from "../format.js";
import { TIDY_MODE_FLAGS, tidyModeOf } from "../modes.js";

export const tidy = defineCommand({
  name: "tidy",
  summary: "fix trailing whitespace, final newlines, mixed line endings and tabs per .editorconfig",
  usage: "PATHS... [--preview | --check]",
  description: `Fixes what .editorconfig asks for (else safe defaults): trailing whitespace, a
missing or doubled final newline, mixed line endings, indentation. Folders
cover every file .gitignore keeps. Strings whose whitespace is their value are
left alone. --check writes nothing and exits 1 when a file is not tidy.`,
  args: [{ name: "PATHS", description: "files or folders", variadic: true, path: true }],
  flags: { ...TIDY_MODE_FLAGS, ...VERDICT_FLAGS },
  onInterrupt: "finish",
  examples: ["splice tidy src", "splice tidy . --check"],
  async run({ splice, positionals, flags, paint }) {
    const json = await splice.tidy({ paths: positionals, mode: tidyModeOf(flags) });
    const lines = json.results.map((r) => changeView(r, paint));
    lines.push(...formatWarnings(json.warnings, paint));
    lines.push(paint(json.changed ? "green" : "dim", json.content.split("\n", 1)[0]!));
    lines.push(...writtenFooter(json, paint));
    return { json, human: lines.join("\n") };
  },
});
