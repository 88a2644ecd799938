/**
 * Committing one change the safe way: under the file's writer lock (see
 * lock.ts), only if the file is still the version the change was computed
 * from, with both versions in history before the bytes move — or, in
 * preview/check mode, not at all. The backup session is the call's
 * (`context.backup`, opened once per call by the toolkit).
 */
import { setImmediate } from "node:timers/promises";
import { ToolError } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { historyFailure } from "../history/failure.js";
import type { ValidationPass } from "../lsp/validate.js";
import { unifiedDiff } from "../text/diff.js";
import {
  changedBytes,
  type DecodeFailure,
  type Document,
  documentToBytes,
  hasFinalNewline,
  isCanonical,
  normalizedText,
  reparseDocument,
  sniffBinary,
} from "../text/document.js";
import type { Encoding } from "../text/encoding.js";
import { header } from "../text/hashline.js";
import { SyncBarrier } from "../util/durable.js";
import { sha256 } from "../util/hash.js";
import { WorkspaceError } from "../workspace/workspace.js";
import type { Change, CommitOptions, Outcome } from "./change.js";
import type { ChangeContext } from "./context.js";
import { decodedFiles, sameBytes } from "./decoded-cache.js";
import {
  encodedOrRefused,
  formatBytes,
  identify,
  type OpaqueContent,
  type Replaced,
} from "./load.js";
import { doneWithDisk, releasedWithWrite } from "./lock-scope.js";
import { reportCallProgress } from "./progress.js";

type WriteChange = Extract<Change, { kind: "write" }>;
type DeleteChange = Extract<Change, { kind: "delete" }>;

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

function bytesOf(change: WriteChange): Uint8Array {
  const { before, doc } = change;
  if ("opaque" in doc) return doc.bytes;
  return encodedOrRefused(change.file.display, () =>
    before?.doc ? changedBytes(before.bytes, before.doc, doc) : documentToBytes(doc),
  );
}

/** A write's encoding: its document's, else the one the file was read in (never a silent conversion). */
function encodingOfWrite(change: WriteChange): Encoding | undefined {
  return "opaque" in change.doc ? undefined : (change.doc.encoding ?? change.before?.doc?.encoding);
}

async function commitWrite(
  context: ChangeContext,
  change: WriteChange,
  { mode = "apply", validate, force }: CommitOptions,
): Promise<Outcome> {
  const { before, doc, file } = change;
  const bytes = bytesOf(change);
  const modeChanges = change.fileMode !== undefined && change.fileMode !== before?.mode;
  if (before && sameBytes(before.bytes, bytes) && !modeChanges) {
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
    const notice = [displaced, checked.validationNotice].filter(Boolean).join(" ");
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
  const checked =
    mode === "validate_only" ? await validateChange(context, change, validate, true) : {};
  return {
    tag,
    header: header(file.display, tag),
    diff,
    applied: false,
    changed: true,
    ...checked,
  };
}

/** The outcome of a version that landed on the disk. */
function landedOutcome(
  context: ChangeContext,
  file: GuardedPath,
  tag: string,
  sha: string,
  diff: string,
): Outcome {
  return {
    tag,
    sha,
    header: header(file.display, tag),
    diff,
    backup: context.backup,
    applied: true,
    changed: true,
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
 * Another program wrote the file in the instant between the last compare
 * and the rename, so the rename took its version off the disk: it is kept in
 * history (as a version this session saw) and the result names it.
 */
function keepDisplaced(context: ChangeContext, file: GuardedPath, outside: Uint8Array): string {
  const tag = keepOutside(context, file, outside);
  if (tag === undefined) {
    return `Another program wrote ${file.display} while this write landed, and this write replaced it; its version (${outside.length} bytes) could not be saved in history.`;
  }
  return `Another program wrote ${file.display} while this write landed, and this write replaced it; that version is kept in history as tag ${tag}: restore it with rollback {"path": ${JSON.stringify(file.display)}, "hash": "${tag}"}, or merge it in by hand.`;
}

/** Keeps another program's version in history (as one this session saw); its tag, or undefined when it could not. */
function keepOutside(
  context: ChangeContext,
  file: GuardedPath,
  outside: Uint8Array,
): string | undefined {
  const { sha, tag } = identify(outside);
  try {
    context.history.recordRead(file.rel, outside, tag, undefined, sha);
    return tag;
  } catch {
    return undefined;
  }
}

/**
 * Another program wrote into the replaced file just after the write looked
 * at it last (it had opened it before the rename), when the result had gone:
 * its version is kept in history all the same, and told as a change made
 * outside splice (a host shows it; history lists it with its tag).
 */
function keepDisplacedLate(context: ChangeContext, file: GuardedPath, outside: Uint8Array): void {
  const recorded = keepOutside(context, file, outside) === undefined ? 0 : 1;
  context.events.emit({
    type: "outside_changes",
    changes: [{ path: file.rel, kind: "changed" }],
    more: 0,
    recorded,
    notRecorded: 1 - recorded,
    lostTrack: false,
  });
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
  const diff = before.doc
    ? unifiedDiff(before.doc.lines, [], {
        path: file.display,
        oldFinalNewline: hasFinalNewline(before.doc),
      })
    : `[${file.display} is deleted; its content is not shown: ${before.opaque ?? "it is not text"}]\n`;
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

async function stillHolds(
  context: ChangeContext,
  file: GuardedPath,
  sha: string,
): Promise<boolean> {
  const current = await context.workspace.readFile(file.real).catch(() => undefined);
  return current !== undefined && sha256(current) === sha;
}

/**
 * Runs a step that follows a write and must not fail the call: the file is
 * already replaced and its backup recorded, so the caller needs the result
 * more than the step (a cache fill, a listener).
 */
function afterWrite(step: () => void): void {
  try {
    step();
  } catch {
    // The step's only effect was for later calls; they recompute it.
  }
}

function emitChanged(
  context: ChangeContext,
  file: GuardedPath,
  action: string,
  diff: string,
): void {
  afterWrite(() =>
    context.events.emit({
      type: "files_changed",
      changes: [{ path: file.display, resolved: file.real, action, diff }],
    }),
  );
}

/** Validation of a written file; a validator that fails is a notice, as the write stands. */
async function validateWritten(
  context: ChangeContext,
  change: WriteChange,
  requested: boolean | undefined,
): Promise<Pick<Outcome, "validation" | "validationNotice">> {
  try {
    return await validateChange(context, change, requested, false);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      validationNotice: `${change.file.display} was written, but validating it failed (${reason}); run the project's own checker.`,
    };
  }
}

/**
 * Keeps the written version decoded for the next call. A read must show
 * exactly what a parse of the bytes shows, and an edit's document may spell
 * the same bytes another way (a last empty line without a newline, say):
 * such a document is replaced by a reparse against the cached old version,
 * which decodes only the changed lines.
 */
function rememberWritten(change: WriteChange, bytes: Uint8Array, tag: string, sha: string): void {
  if ("opaque" in change.doc) return;
  const encoding = encodingOfWrite(change);
  if (sniffBinary(bytes, encoding)) return; // a read refuses these bytes
  const { file, before } = change;
  let doc: Document | DecodeFailure =
    change.doc.encoding === encoding
      ? change.doc
      : { ...change.doc, ...(encoding && { encoding }) };
  if (!isCanonical(doc)) {
    const prior = before && decodedFiles.get(file.real, before.bytes);
    if (!prior) return;
    doc = reparseDocument(prior.bytes, prior.doc, bytes);
  }
  if (!("kind" in doc)) decodedFiles.set(file.real, { bytes, doc, tag, sha });
}

function writeFailure(
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

/** The diff of a change; content that is not text is named in a notice, not shown. */
function replacedDiff(
  path: string,
  before: Replaced | undefined,
  after: Document | OpaqueContent,
): string {
  let notices = "";
  if (before && !before.doc) {
    notices += `[the replaced content of ${path} is not shown: ${before.opaque ?? "it is not text"}]\n`;
  }
  if ("opaque" in after) {
    return `${notices}[the restored content of ${path} is not shown: ${after.opaque}]\n`;
  }
  return notices + documentDiff(path, before?.doc, after);
}

export function documentDiff(path: string, before: Document | undefined, after: Document): string {
  return unifiedDiff(before?.lines ?? [], after.lines, {
    path,
    oldFinalNewline: before ? hasFinalNewline(before) || before.lines.length === 0 : true,
    newFinalNewline: hasFinalNewline(after) || after.lines.length === 0,
  });
}

/** The text is joined only if a server actually validates (normalizedText keeps it). */
const textOf = (doc: Document) => ({
  get text() {
    return normalizedText(doc);
  },
  lines: doc.lines,
});

/** Validates a change when the context has a validator and the call and defaults allow it. */
async function validateChange(
  context: ChangeContext,
  change: WriteChange,
  requested: boolean | undefined,
  inMemory: boolean,
): Promise<Pick<Outcome, "validation" | "validationNotice">> {
  const { doc, file, before } = change;
  if (!context.validator || requested === false || "opaque" in doc) return {};
  // The first validation may wait seconds for a language server to start; a host can say so.
  reportCallProgress(context, { phase: `validating ${file.display}`, done: 0 });
  const outcome = await context.validator.validate({
    path: file.real,
    display: file.display,
    before: before?.doc && textOf(before.doc),
    after: textOf(doc),
    requested,
    inMemory,
  });
  if (!outcome) return {};
  return {
    validation: outcome.validation,
    ...(outcome.notice ? { validationNotice: outcome.notice } : {}),
  };
}

/**
 * Why a write must not produce these bytes: splice reads, edits and undoes
 * text files within max_file_bytes, and a result it would refuse to read back
 * (a NUL in the first 8 KiB makes a file binary, as it does for git) would
 * leave the model a file it can neither fix nor undo.
 */
function unreadableResult(
  context: ChangeContext,
  file: GuardedPath,
  bytes: Uint8Array,
  encoding?: Encoding,
): ToolError | undefined {
  if (sniffBinary(bytes, encoding)) {
    const nul = bytes.indexOf(0);
    let line = 1;
    for (let nl = bytes.indexOf(10); nl !== -1 && nl < nul; nl = bytes.indexOf(10, nl + 1)) line++;
    return new ToolError(
      "invalid_input",
      `${file.display} was not written: the new text has a NUL character (U+0000) on line ${line}, which would make it a binary file that splice cannot read, edit or undo. Remove it; in source code, write an escape such as \\0 or \\u0000 instead.`,
      { path: file.display, line },
    );
  }
  const limit = context.limits.maxFileBytes;
  if (bytes.length > limit) {
    return new ToolError(
      "too_large",
      `${file.display} was not written: it would be ${formatBytes(bytes.length)}, over the ${formatBytes(limit)} limit for text operations, so splice could not read, edit or undo it afterwards. Split the text into smaller files, or start splice with a larger maxFileBytes limit.`,
      { path: file.display, size: bytes.length },
    );
  }
  return undefined;
}

/**
 * A path that is itself a link is not deleted or moved: removing the target
 * would leave the link dangling, and removing the link is not something
 * history can undo (it keeps file versions, not links).
 */
export function refuseLinkRemoval(file: GuardedPath, verb: "delete" | "move" = "delete"): void {
  if (!file.link) return;
  const target = file.rel === "" ? "." : file.rel;
  throw new ToolError(
    "is_link",
    `${file.display} is a symbolic link to ${target}, so it was not ${verb === "delete" ? "deleted" : "moved"}: splice ${verb}s files, not links.`,
    { path: file.display, target },
    {
      tool: "run",
      say: (v) =>
        `To change the file it leads to, use its own path, ${target}; to ${verb} the link itself, use ${v.tool("run")} (rm or mv).`,
    },
  );
}

/**
 * A file nobody may write (no write bit, as after chmod a-w) is kept as it
 * is: a rename in a writable folder would replace it regardless, as root
 * would, and its owner made it read-only on purpose.
 */
/** What history keeps of a replaced file: its bytes and, so a deleted file comes back as it was, its mode. */
function versionBefore(before: Replaced) {
  return { bytes: before.bytes, tag: before.tag, sha: before.sha, mode: before.mode };
}

export function refuseReadOnly(file: GuardedPath, mode: number | undefined): void {
  if (mode === undefined || (mode & 0o222) !== 0) return;
  const octal = `0${(mode & 0o777).toString(8)}`;
  throw new ToolError(
    "read_only",
    `${file.display} was not written: it is read-only (mode ${octal}).`,
    { path: file.display, file_mode: octal },
    {
      tool: "write",
      say: (v) =>
        `If it should change, pass ${v.option("force", true)} to write it anyway (it stays read-only); otherwise leave it as it is.`,
    },
  );
}

/** Files a batch swaps in between two turns of the event loop. */
const YIELD_EVERY = 8;

/** What a batch's writes did: the outcome of each change written (by index), and what stopped it. */
export interface BatchWrite {
  outcomes: (Outcome | undefined)[];
  failed?: { index: number; error: unknown };
}

/**
 * Writes every change of a batch as one (mode "apply"; run it under
 * exclusiveAll): each result's refusals are checked first, then every old
 * version and journal line go to history in one transaction with one wait
 * for the disk, then each file is swapped in (a compare-and-swap, as a
 * single write does), and one completion append follows. It never throws: once a file is written, the caller must put
 * it back, so a failure is returned beside the outcomes of what was written.
 * Validation is `validateBatch`'s, once the locks may go.
 */
export async function commitBatch(
  context: ChangeContext,
  changes: readonly Change[],
  { force, phase = "writing" }: CommitOptions & { phase?: string } = {},
): Promise<BatchWrite> {
  const outcomes: (Outcome | undefined)[] = changes.map(() => undefined);
  const pending: {
    index: number;
    change: WriteChange;
    bytes: Uint8Array;
    diff: string;
    identity: { sha: string; tag: string };
  }[] = [];
  const deletes: number[] = [];
  for (const [index, change] of changes.entries()) {
    if (change.kind === "delete") {
      deletes.push(index);
      continue;
    }
    try {
      const bytes = bytesOf(change);
      const { before, file } = change;
      const modeChanges = change.fileMode !== undefined && change.fileMode !== before?.mode;
      if (before && sameBytes(before.bytes, bytes) && !modeChanges) {
        outcomes[index] = await commitWrite(context, change, { force, validate: false });
        continue;
      }
      const refused =
        !change.restores && unreadableResult(context, file, bytes, encodingOfWrite(change));
      if (refused) throw refused;
      if (!change.restores && !force) refuseReadOnly(file, before?.mode);
      const diff = replacedDiff(file.display, before, change.doc);
      pending.push({ index, change, bytes, diff, identity: identify(bytes) });
    } catch (error) {
      return { outcomes, failed: { index, error } };
    }
  }
  const ids: (string | undefined)[] = [];
  if (pending.length > 0) {
    try {
      // One transaction: every backup and journal line, synced side by side, before any file moves.
      const barrier = new SyncBarrier();
      const records = pending.map(({ change, bytes, identity: { sha, tag } }) => {
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
      ids.push(...context.history.recordWrites(records, barrier).map((r) => r.id));
      await barrier.flush();
    } catch (error) {
      return {
        outcomes,
        failed: {
          index: pending[0]!.index,
          error: writeFailure(context, pending[0]!.change.file, error),
        },
      };
    }
  }
  let landed: string[] = [];
  const markLanded = () => {
    const ids = landed;
    landed = [];
    if (ids.length > 0) afterWrite(() => context.history.landedAll(ids));
  };
  let failed: BatchWrite["failed"];
  for (const [k, { index, change, bytes, diff, identity }] of pending.entries()) {
    reportCallProgress(context, { phase, done: k, total: pending.length });
    if (k % YIELD_EVERY === YIELD_EVERY - 1) {
      // What has landed is marked so, in case the process stops here; and a
      // local swap rarely leaves the event loop, so it gets a turn now and
      // then: a progress bar draws and a second Ctrl-C is heard mid-batch.
      markLanded();
      await setImmediate();
    }
    const { file, before } = change;
    const { sha, tag } = identity;
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
      failed = { index, error: writeFailure(context, file, error) };
      break;
    }
    if (!written) {
      failed = { index, error: new RaceError(file.display) };
      break;
    }
    const id = ids[k];
    if (id !== undefined) landed.push(id);
    afterWrite(() => rememberWritten(change, bytes, tag, sha));
    // Each file is announced as it lands, as a single write is: a host shows progress.
    emitChanged(context, file, change.action, diff);
    outcomes[index] = {
      ...landedOutcome(context, file, tag, sha, diff),
      ...(displaced ? { validationNotice: displaced } : {}),
    };
  }
  markLanded();
  if (failed) return { outcomes, failed };
  reportCallProgress(context, { phase, done: pending.length, total: pending.length });
  for (const index of deletes) {
    try {
      outcomes[index] = await commit(context, changes[index]!, { force });
    } catch (error) {
      return { outcomes, failed: { index, error } };
    }
  }
  return { outcomes };
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
