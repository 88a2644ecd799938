import { relative } from "node:path";
import { findLeftovers, type Leftover, removeLeftovers } from "../../workspace/leftovers.js";
import { defineCommand } from "../define.js";

export const gc = defineCommand({
  name: "gc",
  summary: "remove what killed splice processes left behind (temp files, dead locks)",
  usage: "[--dry-run]",
  description: `Removes crash leftovers under the project root: staged temp files
(.NAME.splice-*.tmp) whose writer is gone, history's own temp files and spare
inodes (.splice/spares) whose writer is gone, and writer locks in .splice/locks
whose holder is gone, with that holder's file.
A leftover of a process that still runs is kept. Each is named as it is removed;
--dry-run only lists them. Writes also sweep the folders they touch, so gc is
needed only for folders no write comes back to.`,
  flags: {
    "dry-run": { type: "boolean", description: "list the leftovers, remove nothing" },
  },
  examples: ["splice gc", "splice gc --dry-run"],
  async run({ root, flags, paint, rootLine }) {
    const found = findLeftovers(root);
    const dryRun = flags["dry-run"] === true;
    const done = dryRun ? found : removeLeftovers(root, found);
    const rel = (l: Leftover) => ({ kind: l.kind, path: relative(root, l.path) });
    const json = { root, dry_run: dryRun, [dryRun ? "found" : "removed"]: done.map(rel) };
    const verb = dryRun ? "would remove" : "removed";
    const lines = done.map((l) => `${paint("dim", verb)} ${rel(l).path}  ${paint("dim", l.kind)}`);
    lines.push(
      done.length === 0
        ? "No leftovers."
        : `${dryRun ? "Found" : "Removed"} ${done.length} leftover(s)${dryRun ? "; run splice gc to remove them" : ""}.`,
    );
    return { json, human: [paint("dim", rootLine), ...lines].join("\n") };
  },
});
