/**
 * What a command changed, for undo: a checkpoint before it runs and the
 * backup session after (checkpoint/). A remote root keeps none; the result
 * says so (docs/remote.md, "run on a remote root", says why).
 */
import { type CheckpointReport, recordCommand } from "../../checkpoint/record.js";
import { type Snapshot, takeSnapshot } from "../../checkpoint/snapshot.js";
import { count } from "../../util/format.js";
import type { ToolContext } from "../define.js";
import { oneLine } from "./render.js";

/**
 * The root's state before a command, so what it changes can be undone:
 * local roots with a working history only. A remote root's files are not
 * walked (docs/remote.md says why): the result says its changes are not recorded.
 */
export async function beforeCommand(
  context: ToolContext,
): Promise<{ snapshot?: Snapshot; notice?: string }> {
  if (context.workspace.shell) return { notice: REMOTE_UNRECORDED };
  if (!context.workspace.capabilities?.statWalk) return {};
  if (context.history.unavailable) {
    return {
      notice:
        "[no checkpoint: history is unavailable, so what the command changes cannot be undone]",
    };
  }
  try {
    // With the root watch running, its table stands in for the walk.
    return { snapshot: await takeSnapshot(context, true, await context.rootWatch?.before()) };
  } catch (error) {
    return {
      notice: `[no checkpoint: ${(error as Error).message}; what the command changes cannot be undone]`,
    };
  }
}

export const REMOTE_UNRECORDED =
  "[no checkpoint: this root is on another machine, where splice does not record what a command changes, so undo cannot take it back]";

/** Records what the command changed as one backup session and says so in `notices`. */
export async function afterCommand(
  context: ToolContext,
  before: Snapshot,
  command: string,
  notices: string[],
): Promise<CheckpointReport | undefined> {
  let report: CheckpointReport | undefined;
  try {
    const after = await takeSnapshot(context, false, await context.rootWatch?.after());
    report = await recordCommand(
      context,
      before,
      after,
      () => context.backup,
      `run: ${oneLine(command)}`,
    );
  } catch (error) {
    notices.push(
      `[the command's changes could not be recorded for undo: ${(error as Error).message}]`,
    );
    return undefined;
  }
  if (!report) return undefined;
  const n = report.changed_files.length + (report.changed_files_more ?? 0);
  const c = report.changed_counts;
  const undo = report.backup_session
    ? `; to put them back, undo backup session ${report.backup_session}`
    : "";
  notices.push(
    `[the command changed ${count(n)} file${n === 1 ? "" : "s"} (${c.created} created, ${c.changed} changed, ${c.deleted} deleted)${undo}]`,
  );
  const refused = (report.not_restorable?.length ?? 0) + (report.not_restorable_more ?? 0);
  if (refused > 0) {
    notices.push(`[${count(refused)} of them cannot be restored by undo: see not_restorable]`);
  }
  return report;
}
