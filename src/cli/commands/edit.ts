import { defineCommand, invalid } from "../define.js";
import { changeView } from "../format.js";
import { textFrom } from "../inputs.js";

export const edit = defineCommand({
  name: "edit",
  summary: "apply line ops (from --ops, --ops-file or stdin) against a tag",
  usage: "PATH --hash TAG [--ops OPS | --ops-file FILE]",
  description: `Applies line ops to PATH. TAG is the 4-hex tag from the read you edit against;
the line numbers in OPS refer to that version. Without --ops or --ops-file the
ops are read from stdin. Ops:

  replace 5..7:      then + lines      delete 10..12
  insert before 3:   insert after 15:  insert head:   insert tail:`,
  args: [{ name: "PATH", description: "the file to edit", path: true }],
  flags: {
    hash: {
      type: "string",
      valueName: "TAG",
      description: "the tag of the version the ops were written against (required)",
    },
    ops: { type: "string", valueName: "OPS", description: "the line ops" },
    "ops-file": { type: "string", valueName: "FILE", description: "take the line ops from FILE" },
  },
  examples: [
    "splice edit src/main.ts --hash 1A2B --ops $'replace 3:\\n+const answer = 42;'",
    "splice edit src/main.ts --hash 1A2B < changes.ops",
  ],
  async run({ splice, positionals, flags, readStdin, paint }) {
    const [path] = positionals as [string];
    const { hash } = flags;
    if (hash === undefined) {
      invalid(
        "edit needs a PATH and --hash TAG: splice edit src/a.ts --hash 1A2B --ops 'delete 3'",
      );
    }
    const ops = textFrom(
      { flag: "ops", value: flags.ops },
      { flag: "ops-file", value: flags["ops-file"] },
      readStdin,
    );
    const json = await splice.edit({ targets: [{ path, file_hash: hash, ops }] });
    return { json, human: json.results.map((r) => changeView(r, paint)).join("\n\n") };
  },
});
