import { join } from "node:path";
import type { Splice } from "../../splice.js";
import { defineCommand, UsageError, VERDICT_FLAGS } from "../define.js";
import { changeView } from "../format.js";
import { textFrom } from "../inputs.js";
import { callWithProgress } from "../progress.js";

/**
 * An empty stdin (`</dev/null`, a generator that failed) would silently empty
 * the file: emptying one takes the explicit `--text ''`.
 */
async function refuseEmptying(splice: Splice, path: string): Promise<void> {
  const { workspace, guard } = splice.context;
  const stat = await workspace.stat(join(guard.root, path)).catch(() => undefined);
  if (stat?.kind === "file" && stat.size > 0) {
    throw new UsageError(
      `splice write: stdin was empty, and ${path} holds ${stat.size} byte${stat.size === 1 ? "" : "s"}; nothing was written. To empty it, pass --text ''`,
    );
  }
}

export const write = defineCommand({
  name: "write",
  summary: "replace or create a file with text from --text, --file or stdin",
  usage: "PATH [--text TEXT | --file FILE] [--force]",
  description: `Replaces PATH with the given text, or creates it (and its folders). Without
--text or --file the text is read from stdin; an empty stdin never empties a
file that has text (pass --text '' for that), and a terminal's stdin is a usage
error. --force writes even a lockfile or
a file marked @generated / DO NOT EDIT.`,
  args: [{ name: "PATH", description: "the file to replace or create", path: true }],
  flags: {
    ...VERDICT_FLAGS,
    text: { type: "string", valueName: "TEXT", description: "the new content" },
    file: { type: "string", valueName: "FILE", description: "take the new content from FILE" },
    force: {
      type: "boolean",
      description: "write even a lockfile or a file marked @generated / DO NOT EDIT",
    },
  },
  onInterrupt: "finish",
  examples: [
    "splice write notes.txt --text $'first line\\n'",
    "generate-config | splice write config.json",
  ],
  async run({ splice, positionals, flags, readStdin, paint, say }) {
    const [path] = positionals as [string];
    // A terminal's stdin is a usage error (readStdin): nobody is typing a file into it.
    const text = await textFrom(
      { flag: "text", value: flags.text },
      { flag: "file", value: flags.file },
      readStdin,
    );
    const fromStdin = flags.text === undefined && (flags.file === undefined || flags.file === "-");
    if (fromStdin && text === "") await refuseEmptying(splice, path);
    const json = await callWithProgress<Awaited<ReturnType<typeof splice.write>>>(
      splice,
      "write",
      { targets: [{ path, text, force: flags.force === true }] },
      "writing",
    );
    return { json, human: json.results.map((r) => changeView(r, paint, say)).join("\n\n") };
  },
});
