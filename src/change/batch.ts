import { isToolError, ToolError } from "../errors.js";

/**
 * A batch stopped at a failing target. The message names the fresh tags of
 * the files already changed, so a model can go on without reading again.
 */
export class BatchError extends ToolError {
  constructor(
    readonly failedPath: string,
    override readonly cause: ToolError,
    readonly applied: { path: string; file_hash?: string }[],
    readonly skipped: string[],
    /** Set for an atomic batch: the sentence on what was put back (see restore.ts). */
    atomic?: string,
  ) {
    const done = applied.map((r) => `${r.path}#${r.file_hash}`).join(", ");
    const parts = [`${failedPath} failed: ${cause.message}`];
    if (applied.length > 0) parts.push(`Already applied (fresh tags): ${done}.`);
    if (atomic) parts.push(atomic);
    else if (skipped.length > 0) parts.push(`Not attempted: ${skipped.join(", ")}.`);
    super("batch_failed", parts.join(" "), {
      failed_path: failedPath,
      cause: { code: cause.code, message: cause.message },
      applied,
      skipped,
    });
    this.name = "EditBatchError";
  }
}

/** Runs targets in order; the first failure stops the batch. */
export async function runBatch<T extends { path: string }, R extends { path: string }>(
  targets: T[],
  run: (target: T) => Promise<R>,
): Promise<{ results: R[] }> {
  const results: R[] = [];
  for (let i = 0; i < targets.length; i++) {
    const target = targets[i]!;
    try {
      results.push(await run(target));
    } catch (error) {
      if (!isToolError(error)) throw error;
      if (targets.length === 1) throw error;
      const skipped = targets.slice(i + 1).map((t) => t.path);
      throw new BatchError(target.path, error, results, skipped);
    }
  }
  return { results };
}
