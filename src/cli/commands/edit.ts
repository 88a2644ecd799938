import type { EditResult } from "../../index.js";
import type { Splice } from "../../splice.js";
import { defineCommand, UsageError, VERDICT_FLAGS } from "../define.js";
import { changeView } from "../format.js";
import { textFrom } from "../inputs.js";
import { callWithProgress } from "../progress.js";

/** The edit tool, with progress while a slow validation (a language server starting) runs. */
const editCall = (splice: Splice, args: Parameters<Splice["edit"]>[0]) =>
  callWithProgress<Awaited<ReturnType<Splice["edit"]>>>(splice, "edit", args, "editing");

export const edit = defineCommand({
  name: "edit",
  summary: "replace quoted text (--old/--new), or apply line ops against a tag",
  usage: "PATH (--old TEXT --new TEXT [--all] | --hash TAG [--ops OPS | --ops-file FILE])",
  description: `With --old and --new, replaces the text --old quotes with --new: an exact match
first, else a careful fuzzy one (indentation, whitespace, quotes), refused when
it is not certain; --all replaces every exact occurrence. No tag is needed: the
file as it is now is the truth, so a quote found exactly once applies even when
it changed since splice last saw it.

With --hash, applies line ops to PATH. TAG is the 4-hex tag from the read you edit against;
the line numbers in OPS refer to that version. Without --ops or --ops-file the
ops are read from stdin. Ops:

  replace 5..7:      then + lines      delete 10..12
  insert before 3:   insert after 15:  insert head:   insert tail:`,
  args: [{ name: "PATH", description: "the file to edit", path: true }],
  flags: {
    ...VERDICT_FLAGS,
    hash: {
      type: "string",
      valueName: "TAG",
      description: "the tag of the version the ops were written against (required)",
    },
    ops: { type: "string", valueName: "OPS", description: "the line ops" },
    "ops-file": { type: "string", valueName: "FILE", description: "take the line ops from FILE" },
    old: {
      type: "string",
      valueName: "TEXT",
      description: "the text to replace, quoted from the file",
    },
    new: { type: "string", valueName: "TEXT", description: "what --old becomes" },
    all: { type: "boolean", description: "with --old: replace every exact occurrence" },
  },
  onInterrupt: "finish",
  examples: [
    "splice edit src/main.ts --hash 1A2B --ops $'replace 3:\\n+const answer = 42;'",
    "splice edit src/main.ts --hash 1A2B < changes.ops",
    "splice edit src/main.ts --old 'retries = 3' --new 'retries = 5'",
  ],
  async run({ splice, positionals, flags, readStdin, paint, say }) {
    const [path] = positionals as [string];
    const { hash } = flags;
    const view = (json: { results: EditResult[] }) =>
      json.results.map((r) => changeView(r, paint, say)).join("\n\n");
    if (flags.old !== undefined || flags.new !== undefined) {
      if (flags.old === undefined || flags.new === undefined || hash !== undefined) {
        throw new UsageError(
          "splice edit: --old and --new go together, without --hash: splice edit src/a.ts --old 'x = 1' --new 'x = 2'",
        );
      }
      const edits = [
        { old_text: flags.old, new_text: flags.new, ...(flags.all ? { replace_all: true } : {}) },
      ];
      const json = await editCall(splice, { targets: [{ path, edits }] });
      return { json, human: view(json) };
    }
    if (hash === undefined) {
      throw new UsageError(
        "splice edit: say what to change: --old TEXT --new TEXT, or --hash TAG with --ops OPS (splice edit src/a.ts --hash 1A2B --ops 'delete 3')",
      );
    }
    const ops = await textFrom(
      { flag: "ops", value: flags.ops },
      { flag: "ops-file", value: flags["ops-file"] },
      readStdin,
    );
    const json = await editCall(splice, { targets: [{ path, file_hash: hash, ops }] });
    return { json, human: view(json) };
  },
});
