/**
 * The line a host shows a person when files changed outside splice (the
 * root watch's `outside_changes` event): the MCP server's log message, the
 * terminal agent's notice.
 */
import type { SpliceEvent } from "../events.js";

/** One line for a person: what changed outside splice under `root`, and how to undo it. */
export function outsideLine(
  root: string,
  e: Extract<SpliceEvent, { type: "outside_changes" }>,
): string {
  const n = e.changes.length + e.more;
  const names = e.changes.slice(0, 3).map((c) => `${c.path} (${c.kind})`);
  const shown = `${names.join(", ")}${n > names.length ? `, and ${n - names.length} more` : ""}`;
  const kept = e.backupSession
    ? `; kept in history, undo backup session ${e.backupSession} to put them back`
    : e.recorded > 0
      ? "; kept in history"
      : "";
  const lost = e.lostTrack
    ? " (the watch lost track of some events and walked the root again)"
    : "";
  const skipped =
    e.notRecorded > 0 ? `; ${e.notRecorded} not kept (too large or past the rate cap)` : "";
  return `${n} file${n === 1 ? "" : "s"} changed outside splice in ${root}${lost}: ${shown}${kept}${skipped}`;
}
