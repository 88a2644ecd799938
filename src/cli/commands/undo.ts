import { ToolError } from "../../errors.js";
import type { SessionSummary, UndoResult } from "../../index.js";
import { diffCounts } from "../../text/diff-counts.js";
import { defineCommand, UsageError, VERDICT_FLAGS } from "../define.js";
import { formatDiff, formatWarnings, type Paint } from "../format.js";
import { outputWidth, sessionDiff, sessionLines, statView } from "../history-view.js";
import { io } from "../io.js";
import { callWithProgress } from "../progress.js";

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

/** What is about to be reverted, said on stderr first: a plain undo picks the session itself. */
function aboutTo(r: UndoResult): string {
  const total = { added: 0, removed: 0 };
  const files = r.files.map((f) => {
    const c = diffCounts(f.diff);
    total.added += c.added;
    total.removed += c.removed;
    return `${f.path} +${c.added} -${c.removed}`;
  });
  const shown = files.slice(0, ABOUT_FILES).join(", ");
  const more = files.length > ABOUT_FILES ? ` and ${files.length - ABOUT_FILES} more` : "";
  const count = `${files.length} file${files.length === 1 ? "" : "s"}`;
  return `splice undo: reverting ${r.undone} (${count}, +${total.added} -${total.removed}): ${shown || "nothing to change"}${more}\n`;
}

/** Files the note before an undo names; the rest are counted. */
const ABOUT_FILES = 5;

export const undo = defineCommand({
  name: "undo",
  summary: "undo the newest change (or backup session ID); --list shows them",
  usage: "[BACKUP_SESSION] [--path PATH] [--force] [--list]",
  description: `Every call that writes files opens a backup session holding the originals.
Undo reverts that session's own change in the files as they are now, like
git revert: later changes (other sessions, an editor, a formatter, a branch
switch) are kept where they do not overlap its lines. Where they overlap,
nothing is undone and the error names the files, lines and later sessions:
undo those first, or pass --force to restore the originals wholesale (what
the files hold is backed up first). Without an id, undoes the newest change
not yet undone (by anyone on this root), never an older one instead; what it
is about to revert is said on stderr first. With --path, only that file.
Undo is itself a backup session, so it can be undone (a redo). --list shows
one line per session (id, time, who, files, lines added and removed, and
"(conflicts)" when undoing it now would be refused), newest first; --stat
adds each file's counts, and --diff ID shows one session's diffs. Nothing is
undone by those three.`,
  args: [
    {
      name: "BACKUP_SESSION",
      description: "the session to undo, as --list shows it (default: the newest change)",
      optional: true,
    },
  ],
  flags: {
    ...VERDICT_FLAGS,
    list: {
      type: "boolean",
      description: "one line per backup session, newest first; undo nothing",
    },
    stat: { type: "boolean", description: "with each session, its files and their +/- lines" },
    diff: {
      type: "string",
      valueName: "ID",
      description: "show the diffs of backup session ID; undo nothing",
    },
    path: { type: "string", valueName: "PATH", description: "restore only this file", path: true },
    force: {
      type: "boolean",
      description: "restore the originals wholesale, over later changes that overlap",
    },
  },
  onInterrupt: "finish",
  examples: [
    "splice undo --list",
    "splice undo --diff 20261130-091650-a1b2c3",
    "splice undo",
    "splice undo 20261130-091650-a1b2c3 --path src/main.ts",
    "splice undo 20261130-091650-a1b2c3 --force",
  ],
  async run({ splice, positionals, flags, paint }) {
    const [id] = positionals;
    const shows = [
      flags.list && "--list",
      flags.stat && "--stat",
      flags.diff !== undefined && "--diff",
    ];
    const asked = shows.filter(Boolean);
    if (asked.length > 1) throw new UsageError(`splice undo: pass one of ${asked.join(", ")}`);
    if (asked.length === 1) {
      if (id !== undefined || flags.path !== undefined || flags.force) {
        throw new UsageError(
          `splice undo: ${asked[0]} undoes nothing; drop the id, --path and --force`,
        );
      }
      const json = (await splice.call("undo", { list: true, all_sessions: true })) as {
        sessions: SessionSummary[];
      };
      const width = outputWidth(io().stdout);
      if (flags.diff === undefined) {
        const view = flags.stat ? statView : sessionLines;
        return { json, human: view(json.sessions, paint, width) };
      }
      const one = json.sessions.find((s) => s.backup_session === flags.diff);
      if (!one) {
        throw new ToolError(
          "not_found",
          `No backup session ${flags.diff}. Run splice undo --list for the ids.`,
        );
      }
      return { json: { sessions: [one] }, human: sessionDiff(one, paint, width) };
    }
    const args = {
      all_sessions: true,
      ...(id ? { backup_session: id } : {}),
      ...(flags.path !== undefined ? { path: flags.path } : {}),
      ...(flags.force ? { force: true } : {}),
    };
    // A preview first: it names the session a plain undo picks, and refuses a conflict before any write.
    const preview = (await splice.call("undo", { ...args, mode: "preview" })) as UndoResult;
    io().stderr.write(aboutTo(preview));
    const json = await callWithProgress<UndoResult>(
      splice,
      "undo",
      { ...args, backup_session: preview.undone },
      "undoing",
    );
    return { json, human: undoView(json, paint) };
  },
});
