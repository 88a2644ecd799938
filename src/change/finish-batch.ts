/**
 * Finishing a batch a killed process left half-written. A batch of several
 * files journals its intent before the first rename and a done mark after
 * the last (history/batches.ts); an intent without a done mark whose process
 * is gone was stopped between two renames, so some files hold the batch's
 * version and the others the one before it.
 *
 * The first call after history opens finishes such a batch, under the writer
 * locks of its files: every file still at its version before is written
 * forward to the batch's version (each one's blob was stored before the
 * first rename), so the disk ends as the batch meant it — forward rather
 * than back, since what the killed call reported to nobody was an intent to
 * change them all, and both directions are one compare-and-swap per file.
 * Back is the fallback when a new version is missing from history (a power
 * loss can take a blob that was not synced): the files already written are
 * put back to their backups. A file that holds neither version was changed
 * by someone else since: it is left as it is, and named. The writes join the
 * batch's own backup session, so one undo still reverts the whole batch.
 */
import { join } from "node:path";
import type { GuardedPath } from "../guard/path-guard.js";
import type { BatchFile, BatchIntent } from "../history/batches.js";
import type { ChangeContext } from "./context.js";
import { loadReplaced, type Replaced, restorable } from "./load.js";
import { exclusiveAll } from "./lock.js";
import { restoreFile } from "./restore.js";

/** One file of the batch as found now. */
interface Found {
  spec: BatchFile;
  file?: GuardedPath;
  current?: Replaced | null;
  /** At the batch's version, at the one before it, or at neither (or not reachable). */
  state: "after" | "before" | "other";
}

/**
 * Finishes (or puts back) every interrupted batch of the history; returns a
 * sentence for each one that changed anything or could not be finished.
 */
export async function finishInterrupted(context: ChangeContext): Promise<string[]> {
  const notes: string[] = [];
  for (const intent of context.history.interruptedBatches?.() ?? []) {
    // The batch's own backup session: undo takes it back whole, finished part and all.
    const own: ChangeContext = { ...context, backup: intent.backup ?? context.backup };
    try {
      const note = await finishBatch(own, intent);
      if (note) notes.push(note);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      notes.push(
        `${opening(intent)} could not be finished (${why}): ${names(intent.files.map((f) => f.path))} may hold a mix of old and new versions; history has both. It is tried again when history next opens.`,
      );
    }
  }
  return notes;
}

async function finishBatch(
  context: ChangeContext,
  intent: BatchIntent,
): Promise<string | undefined> {
  const files = intent.files.map((spec) => ({ spec, file: reachable(context, spec.path) }));
  const locked = files.flatMap(({ file }) => (file ? [file] : []));
  return exclusiveAll(context, locked, async () => {
    // Another process may have finished it while this one waited for the locks.
    const still = context.history.interruptedBatches?.() ?? [];
    if (!still.some((b) => b.batch === intent.batch)) return undefined;
    const found: Found[] = [];
    for (const { spec, file } of files) found.push(await look(context, spec, file));
    const landed = found.filter((f) => f.state === "after");
    const others = found.filter((f) => f.state === "other").map((f) => f.spec.path);
    const ids = landed.map((f) => f.spec.event);
    if (landed.length === 0) {
      // Stopped before its first rename: nothing changed, nothing to finish.
      context.history.landedAll([], intent.batch);
      return undefined;
    }
    const behind = found.filter((f) => f.state === "before");
    const missing = behind.filter(
      (f) => f.spec.after !== null && !context.history.hasBlob(f.spec.after),
    );
    const note =
      missing.length === 0
        ? await forward(context, intent, landed, behind)
        : await back(context, intent, landed, missing);
    context.history.landedAll(ids, intent.batch);
    return others.length === 0
      ? note
      : `${note} Left as they are, changed by someone else since: ${names(others)}.`;
  });
}

/** Writes the batch's version into every file still at the one before. */
async function forward(
  context: ChangeContext,
  intent: BatchIntent,
  landed: Found[],
  behind: Found[],
): Promise<string> {
  const written: string[] = [];
  const removed: string[] = [];
  const failed: string[] = [];
  for (const f of behind) {
    // A file the batch deletes is removed; one it writes takes its new version.
    const bytes = f.spec.after === null ? undefined : context.history.getBlob(f.spec.after);
    const done =
      (f.spec.after === null || bytes !== undefined) &&
      (await put(context, f, bytes && restorable(bytes), f.spec.before, "finishing"));
    (done ? (f.spec.after === null ? removed : written) : failed).push(f.spec.path);
  }
  const before = landed.map((f) => f.spec.path);
  const now = [
    ...(written.length > 0 ? [`${names(written)} written now; `] : []),
    ...(removed.length > 0 ? [`${names(removed)} removed now; `] : []),
  ].join("");
  const stuck = failed.length > 0 ? ` Could not be written: ${names(failed)}.` : "";
  const undo = intent.backup
    ? ` Undo it whole with undo {"backup_session": "${intent.backup}"}.`
    : "";
  return `${opening(intent)} was finished: ${now}${names(before)} had been written before it stopped.${stuck}${undo}`;
}

/** Puts every file the batch had written back to its version before (a new version is not in history). */
async function back(
  context: ChangeContext,
  intent: BatchIntent,
  landed: Found[],
  missing: Found[],
): Promise<string> {
  const restored: string[] = [];
  const failed: string[] = [];
  for (const f of landed) {
    const bytes = f.spec.before === null ? undefined : context.history.getBlob(f.spec.before);
    const done =
      (f.spec.before === null || bytes !== undefined) &&
      (await put(context, f, bytes && restorable(bytes), f.spec.after, "rolling back"));
    (done ? restored : failed).push(f.spec.path);
  }
  const why = `the new version of ${names(missing.map((f) => f.spec.path))} is not in history`;
  const stuck = failed.length > 0 ? ` Could not be put back: ${names(failed)}.` : "";
  return `${opening(intent)} was rolled back, since ${why}: ${names(restored)} put back.${stuck}`;
}

/** One file to `content` (undefined: removed), while it still holds `expected`; false when it did not. */
async function put(
  context: ChangeContext,
  f: Found,
  content: Parameters<typeof restoreFile>[1]["content"],
  expected: string | null,
  why: "finishing" | "rolling back",
): Promise<boolean> {
  const restore = { file: f.file!, content, expected, current: f.current ?? null };
  const note = `${why} a batch whose process stopped between two of its files`;
  try {
    const done = await restoreFile(context, restore, {
      note,
      action: "restore",
      ifChanged: "keep",
      validate: false,
    });
    return done.action !== "kept";
  } catch {
    return false;
  }
}

/** What a file of the batch holds now. */
async function look(context: ChangeContext, spec: BatchFile, file?: GuardedPath): Promise<Found> {
  if (!file) return { spec, state: "other" };
  let current: Replaced | null;
  try {
    current = (await loadReplaced(context, file)) ?? null;
  } catch {
    return { spec, file, state: "other" }; // a folder now, or unreadable: someone else's
  }
  const sha = current?.sha ?? null;
  const state = sha === spec.after ? "after" : sha === spec.before ? "before" : "other";
  return { spec, file, current, state };
}

/** The file's path checked for writing, or undefined when it is refused now. */
function reachable(context: ChangeContext, rel: string): GuardedPath | undefined {
  try {
    // History keys files by root-relative path; resolve from the root, not from `base`.
    return context.guard.check(join(context.guard.root, rel), "write");
  } catch {
    return undefined;
  }
}

/** "the batch of 2 files … interrupted at 2025-01-02 12:03:04 UTC" */
function opening(intent: BatchIntent): string {
  return `A batch of ${intent.files.length} files interrupted at ${when(intent.at)} (its process stopped between two of them)`;
}

const when = (at: string) => `${at.replace("T", " ").slice(0, 19)} UTC`;

const names = (paths: readonly string[]) => paths.join(", ");
