import { defineCommand, STRICT_FLAG } from "../define.js";
import { changeView } from "../format.js";
import { textFrom } from "../inputs.js";
import { callWithProgress } from "../progress.js";

export const write = defineCommand({
  name: "write",
  summary: "replace or create a file with text from --text, --file or stdin",
  usage: "PATH [--text TEXT | --file FILE] [--force]",
  description: `Replaces PATH with the given text, or creates it (and its folders). Without
--text or --file the text is read from stdin. --force writes even a lockfile or
a file marked @generated / DO NOT EDIT.`,
  args: [{ name: "PATH", description: "the file to replace or create", path: true }],
  flags: {
    ...STRICT_FLAG,
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
    const text = textFrom(
      { flag: "text", value: flags.text },
      { flag: "file", value: flags.file },
      readStdin,
    );
    const json = await callWithProgress<Awaited<ReturnType<typeof splice.write>>>(
      splice,
      "write",
      { targets: [{ path, text, force: flags.force === true }] },
      "writing",
    );
    return { json, human: json.results.map((r) => changeView(r, paint, say)).join("\n\n") };
  },
});
