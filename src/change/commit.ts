/**
 * Committing one change the safe way: under the file's writer lock (see
 * lock.ts), only if the file is still the version the change was computed
 * from, with both versions in history before the bytes move — or, in
 * preview/check mode, not at all. The backup session is the call's
 * (`context.backup`, opened once per call by the toolkit). A batch of
 * changes commits through commit-batch.ts.
 */
import { isAscii } from "node:buffer";
import { ToolError } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { historyFailure } from "../history/failure.js";
import { unifiedDiff } from "../text/diff.js";
import { documentToBytes, hasFinalNewline } from "../text/document.js";
import { changedBytes } from "../text/document-bytes.js";
import { isUtf16 } from "../text/encoding.js";
import { header } from "../text/hashline.js";
import { SyncBarrier } from "../util/durable.js";
import { identify, sha256 } from "../util/hash.js";
import { WorkspaceError } from "../workspace/workspace.js";
import { afterWrite, emitChanged, landedOutcome, rememberWritten } from "./after-write.js";
import {
  type Change,
  type CommitOptions,
  type DeleteChange,
  encodingOfWrite,
  type Outcome,
  type WriteChange,
} from "./change.js";
import type { ChangeContext } from "./context.js";
import { sameBytes } from "./decoded-cache.js";
import { replacedDiff } from "./diffs.js";
import { keepDisplaced, keepDisplacedLate } from "./displaced.js";
import { configuredEncoding } from "./encoding-config.js";
import { encodedOrRefused, type Replaced } from "./load.js";
import { doneWithDisk, releasedWithWrite } from "./lock-scope.js";
import { refuseLinkRemoval, refuseReadOnly, unreadableResult } from "./refusals.js";
import { validateChange, validateWritten } from "./validation.js";

/** Another writer replaced the file between reading it and writing it. */
export class RaceError extends ToolError {
  constructor(path: string) {
    super(
      "stale",
      `${path} was changed by another writer while this edit was being made, so nothing was written. Read it again and redo the edit.`,
      { path, reason: "changed_during_write" },
    );
  }
}

/** Writes (or previews, or checks) one change, per `options.mode`; run it under the file's lock. */
export function commit(
  context: ChangeContext,
  change: Change,
  options: CommitOptions = {},
): Promise<Outcome> {
  return change.kind === "delete"
    ? commitDelete(context, change, options)
    : commitWrite(context, change, options);
}

/** The bytes a write puts on the disk: only the changed lines are encoded again. */
export function bytesOf(change: WriteChange): Uint8Array {
  const { before, doc } = change;
  if ("opaque" in doc) return doc.bytes;
  return encodedOrRefused(change.file.display, () =>
    before?.doc ? changedBytes(before.bytes, before.doc, doc) : documentToBytes(doc),
  );
}

/** Whether every line is ASCII, which every encoding but UTF-16 writes as the same bytes. */
const asciiText = (lines: readonly string[]) => lines.every((line) => isAscii(Buffer.from(line)));

/**
 * A write in the encoding the project declares (`.editorconfig`,
 * `.gitattributes`) when it has none of its own: a new file, or a file that
 * held only ASCII and now gets other text (then only in an encoding that
 * writes ASCII as ASCII, so the other lines keep their bytes). Sets the
 * change's encoding; returns the sentence that says so, or undefined.
 */
export async function adoptProjectEncoding(
  context: ChangeContext,
  change: WriteChange,
): Promise<string | undefined> {
  const { doc, before, file } = change;
  if (change.restores || "opaque" in doc || encodingOfWrite(change)) return undefined;
  const fresh = before === undefined;
  if (!fresh && (!before.doc || before.doc.bom || !isAscii(before.bytes) || asciiText(doc.lines)))
    return undefined;
  const configured = await configuredEncoding(context, file);
  const encoding = configured?.encoding;
  if (!encoding || encoding === "utf-8") return undefined;
  // ASCII is the same bytes in the other encodings: only UTF-16 changes a new file's.
  if (fresh ? !isUtf16(encoding) && asciiText(doc.lines) : isUtf16(encoding)) return undefined;
  change.doc = { ...doc, encoding, bom: doc.bom || isUtf16(encoding) };
  const was = fresh ? "" : " (it held only ASCII until now)";
  return `Wrote ${file.display} in ${encoding}, as ${configured.source} says${was}.`;
}

/** Whether writing these bytes would leave the file as it is (same bytes, same permissions). */
export function writesNothing(change: WriteChange, bytes: Uint8Array): boolean {
  const { before } = change;
  const modeChanges = change.fileMode !== undefined && change.fileMode !== before?.mode;
  return before !== undefined && sameBytes(before.bytes, bytes) && !modeChanges;
}

async function commitWrite(
  context: ChangeContext,
  change: WriteChange,
  { mode = "apply", validate, force }: CommitOptions,
): Promise<Outcome> {
  const encodingNotice = await adoptProjectEncoding(context, change);
  const { before, doc, file } = change;
  const bytes = bytesOf(change);
  if (before && writesNothing(change, bytes)) {
    context.history.recordRead(file.rel, before.bytes, before.tag, undefined, before.sha);
    const tag = before.tag;
    const applied = mode === "apply";
    return {
      tag,
      header: header(file.display, tag),
      diff: "",
      applied,
      changed: false,
      ...(applied ? { sha: before.sha } : {}),
    };
  }
  // A restore puts back a version that was there; only new text is checked.
  const refused =
    !change.restores && unreadableResult(context, file, bytes, encodingOfWrite(change));
  if (refused) throw refused;
  if (mode === "apply") {
    // Only a write is refused: a preview shows what the edit would be.
    if (!change.restores && !force) refuseReadOnly(file, before?.mode);
    const { tag, sha, diff, displaced } = await writeDurably(context, change, bytes);
    doneWithDisk();
    const checked = await validateWritten(context, change, validate);
    const notice = [encodingNotice, displaced, checked.validationNotice].filter(Boolean).join(" ");
    return {
      ...landedOutcome(context, file, tag, sha, diff),
      ...checked,
      ...(notice ? { validationNotice: notice } : {}),
    };
  }
  const diff = replacedDiff(file.display, before, doc);
  if (mode === "check") {
    throw new ToolError(
      "check_failed",
      `${file.display} would change (check mode writes nothing):\n${diff || "(permissions only)"}`,
      { path: file.display, diff },
    );
  }
  const { tag } = identify(bytes, undefined, encodingOfWrite(change));
  doneWithDisk();
  const checked: { validationNotice?: string } =
    mode === "validate_only" ? await validateChange(context, change, validate, true) : {};
  const notice = [encodingNotice, checked.validationNotice].filter(Boolean).join(" ");
  return {
    tag,
    header: header(file.display, tag),
    diff,
    applied: false,
    changed: true,
    ...checked,
    ...(notice ? { validationNotice: notice } : {}),
  };
}

/**
 * Stores the old and new versions durably in history, then replaces the
 * file atomically. The journal line comes first, so a crash in between can
 * always be undone.
 */
async function writeDurably(
  context: ChangeContext,
  change: WriteChange,
  bytes: Uint8Array,
): Promise<{ tag: string; sha: string; diff: string; displaced?: string }> {
  const { file, before } = change;
  const { sha, tag } = identify(bytes, undefined, encodingOfWrite(change));
  // Everything the result reports is computed before the bytes move: once
  // the file is replaced, a failure would leave the caller without the diff
  // and the backup id of a change that did happen.
  const diff = replacedDiff(file.display, before, change.doc);
  let written: boolean;
  let journaled: string | undefined;
  let displaced: string | undefined;
  try {
    // Compare-and-swap: history records the write only once the file is
    // known to still be the version the change was computed from.
    written = await context.workspace.writeIf(file.real, bytes, before?.sha ?? null, {
      mode: change.fileMode ?? before?.mode,
      lastUnderLock: releasedWithWrite(),
      beforeReplace: async () => {
        // Syncing the backup and the journal line shares one wait with the new file's fsync.
        const barrier = new SyncBarrier();
        journaled = context.history.recordWrite(
          {
            pending: true,
            kind: change.restores ? "rollback" : "write",
            path: file.rel,
            before: before && versionBefore(before),
            after: { bytes, tag, sha },
            note: change.note,
            backup: context.backup,
          },
          barrier,
        ).id;
        await barrier.flush();
      },
      onDisplaced: (outside) => {
        displaced = keepDisplaced(context, file, outside);
      },
      onDisplacedLate: (outside) => keepDisplacedLate(context, file, outside),
    });
  } catch (error) {
    throw writeFailure(context, file, error);
  }
  if (!written) throw new RaceError(file.display);
  const landed = journaled;
  if (landed !== undefined) afterWrite(() => context.history.landed(landed));
  afterWrite(() => rememberWritten(change, bytes, tag, sha));
  emitChanged(context, file, change.action, diff);
  return { tag, sha, diff, ...(displaced ? { displaced } : {}) };
}

/**
 * Deletes a file, backing it up first. Like a write, it refuses when the
 * file is no longer the version it was given.
 */
async function commitDelete(
  context: ChangeContext,
  change: DeleteChange,
  { mode = "apply" }: CommitOptions,
): Promise<Outcome> {
  const { file, before } = change;
  refuseLinkRemoval(file);
  const diff = deletedDiff(change);
  if (mode === "check") {
    throw new ToolError(
      "check_failed",
      `${file.display} would be deleted (check mode writes nothing).`,
      { path: file.display, diff },
    );
  }
  const outcome = { tag: "", header: "", diff, changed: true };
  if (mode !== "apply") return { ...outcome, applied: false };
  if (!(await stillHolds(context, file, before.sha))) throw new RaceError(file.display);
  const { id } = context.history.recordWrite({
    pending: true,
    kind: "delete",
    path: file.rel,
    before: versionBefore(before),
    note: change.note,
    backup: context.backup,
  });
  // Recording took a disk wait; a writer outside splice may have come in since.
  // removeIf compares the very bytes it removes (moved aside first), so that
  // writer's change is refused and put back, not lost (the journal line stays
  // pending, which undo skips).
  let removed: boolean;
  try {
    removed = await context.workspace.removeIf(file.real, before.sha);
  } catch (error) {
    throw writeFailure(context, file, error, "delete");
  }
  if (!removed) throw new RaceError(file.display);
  if (id !== undefined) afterWrite(() => context.history.landed(id));
  emitChanged(context, file, change.action, diff);
  return { ...outcome, applied: true, sha: null, backup: context.backup };
}

/** What a delete shows: every line removed, or a notice for a file that is not text. */
export function deletedDiff({ file, before }: DeleteChange): string {
  return before.doc
    ? unifiedDiff(before.doc.lines, [], {
        path: file.display,
        oldFinalNewline: hasFinalNewline(before.doc),
      })
    : `[${file.display} is deleted; its content is not shown: ${before.opaque ?? "it is not text"}]\n`;
}

export async function stillHolds(
  context: ChangeContext,
  file: GuardedPath,
  sha: string,
): Promise<boolean> {
  const current = await context.workspace.readFile(file.real).catch(() => undefined);
  return current !== undefined && sha256(current) === sha;
}

/** A failed write or delete as the error a model reads; the file is unchanged. */
export function writeFailure(
  context: ChangeContext,
  file: GuardedPath,
  error: unknown,
  verb: "write" | "delete" = "write",
): ToolError {
  const [done, doing] = verb === "write" ? ["written", "Writing"] : ["deleted", "Deleting"];
  if (error instanceof WorkspaceError && error.kind === "escape") {
    return new ToolError(
      "guard",
      `${file.display} was not ${done}: its folder now resolves outside the root (a link was planted). Nothing changed.`,
      { path: file.display },
    );
  }
  const history = historyFailure(error, context.history.dir);
  if (history) return history;
  const reason = error instanceof Error ? error.message : String(error);
  return new ToolError("io", `${doing} ${file.display} failed: ${reason}. The file is unchanged.`, {
    path: file.display,
  });
}

/** What history keeps of a replaced file: its bytes and, so a deleted file comes back as it was, its mode. */
export function versionBefore(before: Replaced) {
  return { bytes: before.bytes, tag: before.tag, sha: before.sha, mode: before.mode };
}
