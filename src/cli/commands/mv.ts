import { defineCommand, VERDICT_FLAGS } from "../define.js";
import { changeView, writtenFooter } from "../format.js";
import { checked, WRITE_MODE_FLAGS, writeModeOf } from "../modes.js";

export const mv = defineCommand({
  name: "mv",
  summary: "move or rename a file (undoable)",
  usage: "FROM TO [--overwrite]",
  description: `Moves FROM to TO; a folder TO (or one ending in "/") keeps the name. Refuses to
replace an existing file unless --overwrite. Undo puts it back.`,
  args: [
    { name: "FROM", description: "the file to move", path: true },
    { name: "TO", description: "its new path, or a folder", path: true },
  ],
  flags: {
    ...VERDICT_FLAGS,
    overwrite: { type: "boolean", description: "replace a file already at TO" },
    ...WRITE_MODE_FLAGS,
  },
  onInterrupt: "finish",
  examples: ["splice mv src/util.ts src/lib/", "splice mv a.ts b.ts --overwrite"],
  async run({ splice, positionals, flags, paint }) {
    const [path, to] = positionals as [string, string];
    const json = await splice.file({
      action: "move",
      path,
      to,
      ...(flags.overwrite ? { overwrite: true } : {}),
      mode: writeModeOf(flags),
    });
    return checked(flags, {
      json,
      human: [changeView(json, paint), ...writtenFooter(json, paint)].join("\n"),
    });
  },
});
