import { defineCommand, VERDICT_FLAGS } from "../define.js";
import { changeView, writtenFooter } from "../format.js";
import { checked, WRITE_MODE_FLAGS, writeModeOf } from "../modes.js";

export const rm = defineCommand({
  name: "rm",
  summary: "delete a file, keeping it in history (undoable)",
  usage: "PATH",
  description: "Deletes the file PATH after storing it in history, so splice undo brings it back.",
  args: [{ name: "PATH", description: "the file to delete", path: true }],
  flags: { ...WRITE_MODE_FLAGS, ...VERDICT_FLAGS },
  onInterrupt: "finish",
  examples: ["splice rm src/old.ts"],
  async run({ splice, positionals, flags, paint }) {
    const [path] = positionals as [string];
    const json = await splice.file({ action: "delete", path, mode: writeModeOf(flags) });
    return checked(flags, {
      json,
      human: [changeView(json, paint), ...writtenFooter(json, paint)].join("\n"),
    });
  },
});
