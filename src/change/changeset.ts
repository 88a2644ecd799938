/**
 * Several changes committed as one: writes and deletes, planned first, then
 * committed in order under the call's backup session. When a later one
 * fails, the earlier ones are put back (restore.ts), so the disk holds all of
 * the changes or none of them — except a file someone else changed in the
 * meantime, which keeps their version and is named. Run it under the writer
 * locks of every path (exclusiveAll).
 */
import { ToolError } from "../errors.js";
import type { Change, CommitOptions, Outcome } from "./change.js";
import { commit, RaceError } from "./commit.js";
import { commitBatch, validateBatch } from "./commit-batch.js";
import type { ChangeContext } from "./context.js";
import { refuseLinkRemoval } from "./refusals.js";
import { putBack, putBackNote, type Written } from "./restore.js";

export function asToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  return new ToolError("io", error instanceof Error ? error.message : String(error));
}

/** Writes, previews or checks every change; outcomes are in the order of `changes`. */
export async function commitChanges(
  context: ChangeContext,
  changes: readonly Change[],
  options: CommitOptions = {},
): Promise<Outcome[]> {
  const mode = options.mode ?? "apply";
  // Before anything is written: a link among the deletes refuses the whole change.
  for (const c of changes) if (c.kind === "delete") refuseLinkRemoval(c.file);
  if (mode !== "apply") {
    const shown = mode === "check" ? "preview" : mode;
    const outcomes: Outcome[] = [];
    for (const c of changes) outcomes.push(await commit(context, c, { ...options, mode: shown }));
    const changed = outcomes.filter((o) => o.changed);
    if (mode === "check" && changed.length > 0) {
      const diff = changed.map((o) => o.diff).join("");
      const paths = changes.filter((_, i) => outcomes[i]!.changed).map((c) => c.file.display);
      throw new ToolError(
        "check_failed",
        `${paths.join(", ")} would change (check mode writes nothing):\n${diff}`,
        { paths, diff },
      );
    }
    return outcomes;
  }
  // One batch: one history transaction, then the swaps, then one validation pass.
  const batch = await commitBatch(context, changes, options);
  const written: Written[] = [];
  for (const [i, outcome] of batch.outcomes.entries()) {
    if (outcome) written.push({ change: changes[i]!, outcome });
  }
  if (batch.failed) throw await failedBatch(context, batch.failed.error, written);
  await validateBatch(context, written, options.validate);
  return batch.outcomes.map((o) => o!);
}

/**
 * Puts back what a batch wrote before `error` stopped it, and returns the
 * error to throw: the cause, with a sentence on what was put back.
 */
export async function failedBatch(
  context: ChangeContext,
  error: unknown,
  written: readonly Written[],
): Promise<ToolError> {
  // Nothing written yet: the batch can run again (exclusiveAll retries a race).
  if (written.length === 0 && error instanceof RaceError) return error;
  const failed = asToolError(error);
  const back = await putBack(context, written, "restored after a failed write");
  return new ToolError(failed.code, `${failed.message}${putBackNote(back, context.backup)}`, {
    ...failed.details,
    ...(back.kept.length > 0 ? { kept: back.kept } : {}),
  });
}
