import type { SessionSummary, UndoResult } from "../../index.js";
import { defineCommand } from "../define.js";
import { formatDiff, formatWarnings, type Paint } from "../format.js";

function listView(sessions: SessionSummary[], paint: Paint): string {
  const human = sessions
    .map((s) => {
      const mark = s.undone ? paint("dim", " (undone)") : s.is_undo ? paint("dim", " (undo)") : "";
      const files = s.files.map((f) => {
        const undone = f.undone && !s.undone ? paint("dim", " (undone)") : "";
        return `  ${f.action.padEnd(8)} ${f.path}${undone}\n${formatDiff(f.diff, paint)}`;
      });
      return [
        `${paint("bold", s.backup_session)}  ${s.at}  ${paint("dim", s.session)}${mark}`,
        ...files,
      ].join("\n");
    })
    .join("\n\n");
  return human || "No backup sessions yet.";
}

function undoView(r: UndoResult, paint: Paint): string {
  const again = r.backup_session ? ` (undo it with: splice undo ${r.backup_session})` : "";
  const lines = [`Undid ${paint("bold", r.undone)}${again}`];
  for (const f of r.files) {
    lines.push(
      `${f.action.padEnd(9)} ${f.path}`,
      ...(f.diff ? [formatDiff(f.diff, paint)] : []),
      ...formatWarnings(f.warnings, paint),
    );
  }
  return lines.join("\n");
}

export const undo = defineCommand({
  name: "undo",
  summary: "undo the newest change (or backup session ID); --list shows them",
  usage: "[BACKUP_SESSION] [--path PATH] [--list]",
  description: `Every call that writes files opens a backup session holding the originals.
Without an id, undoes the newest change not yet undone (by anyone on this
root); with --path, restores only that file. Undo is itself a backup session,
so it can be undone. --list shows the sessions, their files and diffs.`,
  args: [
    {
      name: "BACKUP_SESSION",
      description: "the session to undo, as --list shows it (default: the newest change)",
      optional: true,
    },
  ],
  flags: {
    list: {
      type: "boolean",
      description: "show the backup sessions, their files and diffs; undo nothing",
    },
    path: { type: "string", valueName: "PATH", description: "restore only this file", path: true },
  },
  examples: [
    "splice undo --list",
    "splice undo",
    "splice undo 20261130-091650-a1b2c3 --path src/main.ts",
  ],
  async run({ splice, positionals, flags, paint }) {
    if (flags.list) {
      const json = (await splice.call("undo", { list: true, all_sessions: true })) as {
        sessions: SessionSummary[];
      };
      return { json, human: listView(json.sessions, paint) };
    }
    const [id] = positionals;
    const json = (await splice.call("undo", {
      all_sessions: true,
      ...(id ? { backup_session: id } : {}),
      ...(flags.path !== undefined ? { path: flags.path } : {}),
    })) as UndoResult;
    return { json, human: undoView(json, paint) };
  },
});
