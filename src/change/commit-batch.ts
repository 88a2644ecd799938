/**
 * Committing a batch of changes as one (mode "apply"; run it under
 * exclusiveAll): each result's refusals are checked first, then every old
 * version and journal line go to history in one transaction with one wait
 * for the disk, then each file is swapped in (a compare-and-swap, as a single
 * write does) and each deleted one removed (compared the same way), and
 * completion is marked as they land. Validation follows in one pass, once the
 * locks may go.
 */
import { setImmediate } from "node:timers/promises";
import type { ValidationPass } from "../lsp/validate.js";
import { SyncBarrier } from "../util/durable.js";
import { identify } from "../util/hash.js";
import { newBatchId } from "../util/ids.js";
import { afterWrite, emitChanged, landedOutcome, rememberWritten } from "./after-write.js";
import {
  type Change,
  type CommitOptions,
  type DeleteChange,
  encodingOfWrite,
  type Outcome,
  type WriteChange,
} from "./change.js";
import {
  adoptProjectEncoding,
  bytesOf,
  commit,
  deletedDiff,
  RaceError,
  stillHolds,
  versionBefore,
  writeFailure,
  writesNothing,
} from "./commit.js";
import type { ChangeContext } from "./context.js";
import { replacedDiff } from "./diffs.js";
import { keepDisplaced, keepDisplacedLate } from "./displaced.js";
import { reportCallProgress } from "./progress.js";
import { refuseLinkRemoval, refuseReadOnly, unreadableResult } from "./refusals.js";
import { textOf } from "./validation.js";

/** Files a batch swaps in between two turns of the event loop. */
const YIELD_EVERY = 8;

/** What a batch's writes did: the outcome of each change written (by index), and what stopped it. */
export interface BatchWrite {
  outcomes: (Outcome | undefined)[];
  failed?: { index: number; error: unknown };
}

type Failed = NonNullable<BatchWrite["failed"]>;

/** A write of the batch that passed its checks, with everything its result reports. */
interface Pending {
  index: number;
  change: WriteChange;
  bytes: Uint8Array;
  diff: string;
  identity: { sha: string; tag: string };
  /** The project's encoding, when the write took it. */
  notice?: string | undefined;
}

/**
 * Writes every change of a batch as one. It never throws: once a file is
 * written, the caller must put it back, so a failure is returned beside the
 * outcomes of what was written. Validation is `validateBatch`'s.
 */
export async function commitBatch(
  context: ChangeContext,
  changes: readonly Change[],
  { force, phase = "writing" }: CommitOptions & { phase?: string } = {},
): Promise<BatchWrite> {
  const outcomes: (Outcome | undefined)[] = changes.map(() => undefined);
  const planned = await checkWrites(context, changes, outcomes, force);
  if ("failed" in planned) return { outcomes, failed: planned.failed };
  const { pending, deletes } = planned;
  const recorded = await recordWrites(context, pending, deletes);
  if ("failed" in recorded) return { outcomes, failed: recorded.failed };
  const failed = await swapWrites(context, pending, deletes, recorded, outcomes, phase);
  if (failed) return { outcomes, failed };
  reportCallProgress(context, { phase, done: pending.length, total: pending.length });
  return { outcomes };
}

/**
 * Checks every write's refusals before anything moves; a write that changes
 * nothing is committed (recorded as seen) on the spot; a delete must still
 * find the version it removes.
 */
async function checkWrites(
  context: ChangeContext,
  changes: readonly Change[],
  outcomes: (Outcome | undefined)[],
  force: boolean | undefined,
): Promise<{ pending: Pending[]; deletes: PendingDelete[] } | { failed: Failed }> {
  const pending: Pending[] = [];
  const deletes: PendingDelete[] = [];
  for (const [index, change] of changes.entries()) {
    if (change.kind === "delete") {
      // Checked before anything is recorded, as a single delete is: a file changed since is a race.
      try {
        refuseLinkRemoval(change.file);
      } catch (error) {
        return { failed: { index, error } };
      }
      if (!(await stillHolds(context, change.file, change.before.sha))) {
        return { failed: { index, error: new RaceError(change.file.display) } };
      }
      deletes.push({ index, change, diff: deletedDiff(change) });
      continue;
    }
    try {
      const notice = await adoptProjectEncoding(context, change);
      const bytes = bytesOf(change);
      const { before, file } = change;
      if (writesNothing(change, bytes)) {
        outcomes[index] = await commit(context, change, { force, validate: false });
        continue;
      }
      const refused =
        !change.restores && unreadableResult(context, file, bytes, encodingOfWrite(change));
      if (refused) throw refused;
      if (!change.restores && !force) refuseReadOnly(file, before?.mode);
      const diff = replacedDiff(file.display, before, change.doc);
      const identity = identify(bytes, undefined, encodingOfWrite(change));
      pending.push({ index, change, bytes, diff, identity, notice });
    } catch (error) {
      return { failed: { index, error } };
    }
  }
  return { pending, deletes };
}

/** A delete of the batch, removed after its writes (a move writes the new path first). */
interface PendingDelete {
  index: number;
  change: DeleteChange;
  diff: string;
}

/** The journal's side of a batch's writes: each one's pending event, and the batch's id. */
interface Recorded {
  /** The writes' ids, then the deletes'. */
  ids: (string | undefined)[];
  /** Set for two files or more: an intent was journaled, and a done mark ends it. */
  batch?: string;
}

/**
 * One transaction: every backup and journal line, synced side by side,
 * before any file moves. Two files or more also journal the batch's intent
 * (history/batches.ts), so a process killed between two renames leaves a
 * batch the next open can finish.
 */
async function recordWrites(
  context: ChangeContext,
  pending: readonly Pending[],
  deletes: readonly PendingDelete[],
): Promise<Recorded | { failed: Failed }> {
  if (pending.length + deletes.length === 0) return { ids: [] };
  const batch = pending.length + deletes.length > 1 ? newBatchId() : undefined;
  try {
    const barrier = new SyncBarrier();
    const writes = pending.map(({ change, bytes, identity: { sha, tag } }) => {
      const { before } = change;
      return {
        pending: true,
        kind: change.restores ? ("rollback" as const) : ("write" as const),
        path: change.file.rel,
        before: before && versionBefore(before),
        after: { bytes, tag, sha },
        note: change.note,
        backup: context.backup,
      };
    });
    const removals = deletes.map(({ change }) => ({
      pending: true,
      kind: "delete" as const,
      path: change.file.rel,
      before: versionBefore(change.before),
      note: change.note,
      backup: context.backup,
    }));
    const records = [...writes, ...removals];
    const ids = context.history.recordWrites(records, barrier, batch).map((r) => r.id);
    await barrier.flush();
    return { ids, ...(batch === undefined ? {} : { batch }) };
  } catch (error) {
    const first = pending[0] ?? deletes[0]!;
    return {
      failed: { index: first.index, error: writeFailure(context, first.change.file, error) },
    };
  }
}

/**
 * Swaps each recorded write in, in order, then removes each delete; the first
 * that fails stops the rest. Whatever happens, the batch's done mark goes
 * with the last landed marks: from there on the caller puts back what a
 * failure left.
 */
async function swapWrites(
  context: ChangeContext,
  pending: readonly Pending[],
  deletes: readonly PendingDelete[],
  { ids, batch }: Recorded,
  outcomes: (Outcome | undefined)[],
  phase: string,
): Promise<Failed | undefined> {
  let landed: string[] = [];
  const markLanded = (end?: string) => {
    const done = landed;
    landed = [];
    if (done.length > 0 || end !== undefined) {
      afterWrite(() => context.history.landedAll(done, end));
    }
  };
  const steps = [
    ...pending.map((write) => ({ index: write.index, run: () => swapOne(context, write) })),
    ...deletes.map((d) => ({ index: d.index, run: () => removeOne(context, d) })),
  ];
  try {
    for (const [k, step] of steps.entries()) {
      reportCallProgress(context, { phase, done: k, total: steps.length });
      if (k % YIELD_EVERY === YIELD_EVERY - 1) {
        // What has landed is marked so, in case the process stops here; and a
        // local swap rarely leaves the event loop, so it gets a turn now and
        // then: a progress bar draws and a second Ctrl-C is heard mid-batch.
        markLanded();
        await setImmediate();
      }
      const swapped = await step.run();
      if ("failed" in swapped) return swapped.failed;
      const id = ids[k];
      if (id !== undefined) landed.push(id);
      outcomes[step.index] = swapped.outcome;
      if (batch !== undefined) testKillAfterRenames(k + 1);
    }
    return undefined;
  } finally {
    markLanded(batch);
  }
}

/**
 * TEST ONLY. With SPLICE_TEST_KILL_AFTER_RENAMES=N, a batch's process kills
 * itself (SIGKILL) once N of its files are renamed into place or removed: the
 * batch is interrupted between two of them, with no landed or done mark
 * written.
 */
function testKillAfterRenames(renamed: number): void {
  const after = process.env.SPLICE_TEST_KILL_AFTER_RENAMES;
  if (after !== undefined && Number(after) === renamed) process.kill(process.pid, "SIGKILL");
}

/** One file of the batch: the compare-and-swap, then what follows a write that landed. */
async function swapOne(
  context: ChangeContext,
  { index, change, bytes, diff, identity: { sha, tag }, notice }: Pending,
): Promise<{ outcome: Outcome } | { failed: Failed }> {
  const { file, before } = change;
  let displaced: string | undefined;
  let written: boolean;
  try {
    written = await context.workspace.writeIf(file.real, bytes, before?.sha ?? null, {
      mode: change.fileMode ?? before?.mode,
      onDisplaced: (outside) => {
        displaced = keepDisplaced(context, file, outside);
      },
      onDisplacedLate: (outside) => keepDisplacedLate(context, file, outside),
    });
  } catch (error) {
    return { failed: { index, error: writeFailure(context, file, error) } };
  }
  if (!written) return { failed: { index, error: new RaceError(file.display) } };
  afterWrite(() => rememberWritten(change, bytes, tag, sha));
  // Each file is announced as it lands, as a single write is: a host shows progress.
  emitChanged(context, file, change.action, diff);
  return {
    outcome: {
      ...landedOutcome(context, file, tag, sha, diff),
      ...(notice || displaced
        ? { validationNotice: [notice, displaced].filter(Boolean).join(" ") }
        : {}),
    },
  };
}

/**
 * One delete of the batch: removed only while it holds the version recorded
 * (removeIf moves it aside and compares the very bytes, as commit.ts does).
 */
async function removeOne(
  context: ChangeContext,
  { index, change, diff }: PendingDelete,
): Promise<{ outcome: Outcome } | { failed: Failed }> {
  const { file, before } = change;
  let removed: boolean;
  try {
    removed = await context.workspace.removeIf(file.real, before.sha);
  } catch (error) {
    return { failed: { index, error: writeFailure(context, file, error, "delete") } };
  }
  if (!removed) return { failed: { index, error: new RaceError(file.display) } };
  emitChanged(context, file, change.action, diff);
  const outcome = { tag: "", header: "", diff, changed: true, applied: true, sha: null };
  return { outcome: { ...outcome, backup: context.backup } };
}

/**
 * Validates the written changes of a batch in one pass with one total budget
 * (the validator's timeout), adding each file's verdict to its outcome; a
 * validator that fails is a notice on every file, as the writes stand.
 * Returns how the pass went, or undefined when no file went to a server.
 */
export async function validateBatch(
  context: ChangeContext,
  written: readonly { change: Change; outcome: Outcome }[],
  requested: boolean | undefined,
): Promise<ValidationPass | undefined> {
  if (!context.validator || requested === false) return undefined;
  const checked = written.flatMap(({ change, outcome }) =>
    change.kind === "write" && !("opaque" in change.doc) && outcome.applied && outcome.changed
      ? [{ change, outcome, doc: change.doc }]
      : [],
  );
  if (checked.length === 0) return undefined;
  reportCallProgress(context, { phase: `validating ${checked.length} files`, done: 0 });
  try {
    const { outcomes, pass } = await context.validator.validateAll(
      checked.map(({ change, doc }) => ({
        path: change.file.real,
        display: change.file.display,
        before: change.before?.doc && textOf(change.before.doc),
        after: textOf(doc),
        requested,
        inMemory: false,
      })),
    );
    checked.forEach(({ outcome }, i) => {
      const v = outcomes[i];
      if (!v) return;
      outcome.validation = v.validation;
      if (v.notice) {
        outcome.validationNotice = [outcome.validationNotice, v.notice].filter(Boolean).join(" ");
      }
    });
    return pass;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    for (const { change, outcome } of checked) {
      outcome.validationNotice = `${change.file.display} was written, but validating it failed (${reason}); run the project's own checker.`;
    }
    return undefined;
  }
}
