/**
 * Writing a file the safe way: under the file's writer lock, only if it is
 * still the version the change was computed from, with both versions in
 * history before the bytes move — or, in preview/check mode, not at all.
 */
import { z } from "zod";
import { ToolError } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { historyFailure } from "../history/failure.js";
import type { EditValidation } from "../lsp/verdict.js";
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
import { header } from "../text/hashline.js";
import type { ToolContext } from "../tools/context.js";
import { SyncBarrier } from "../util/durable.js";
import { randomId } from "../util/ids.js";
import { WorkspaceError } from "../workspace/workspace.js";
import { decodedFiles, sameBytes } from "./decoded-cache.js";
import { formatBytes, identify, type OpaqueContent, type Replaced, sha256 } from "./load.js";

export interface Committed {
  tag: string;
  sha: string;
  header: string;
  diff: string;
}

export interface CommitRequest {
  kind: "write" | "rollback";
  /** The version being replaced; undefined for a new file. Only a restore replaces content that is not text. */
  before: Replaced | undefined;
  /** The new content; only a restore writes back bytes that are not text. */
  doc: Document | OpaqueContent;
  note: string;
  /** Permission bits; default: the replaced file's. */
  fileMode?: number;
  action: string;
  /** The backup session this write belongs to (one per tool call). */
  backup: string;
  /** The call's `validate`: true forces validation, false skips it, undefined follows the toolkit. */
  validate?: boolean;
}

/**
 * Stores the old and new versions durably in history, then replaces the
 * file atomically. The journal line comes first, so a crash in between can
 * always be undone.
 */
async function commitDocument(
  context: ToolContext,
  file: GuardedPath,
  request: CommitRequest,
  bytes: Uint8Array,
): Promise<Committed> {
  const { sha, tag } = identify(bytes);
  const { before } = request;
  let written: boolean;
  try {
    // Compare-and-swap: history records the write only once the file is
    // known to still be the version the edit was computed from.
    written = await context.workspace.writeIf(file.real, bytes, request.before?.sha ?? null, {
      mode: request.fileMode ?? request.before?.mode,
      beforeReplace: async () => {
        // Syncing the backup and the journal line shares one wait with the new file's fsync.
        const barrier = new SyncBarrier();
        context.history.recordWrite(
          {
            kind: request.kind,
            path: file.rel,
            before: before && { bytes: before.bytes, tag: before.tag, sha: before.sha },
            after: { bytes, tag, sha },
            note: request.note,
            backup: request.backup,
          },
          barrier,
        );
        await barrier.flush();
      },
    });
  } catch (error) {
    throw writeFailure(context, file, error);
  }
  if (!written) throw new RaceError(file.display);
  rememberWritten(file, request, bytes, tag, sha);
  const diff = replacedDiff(file.display, request.before, request.doc);
  context.events.emit({
    type: "files_changed",
    changes: [{ path: file.display, resolved: file.real, action: request.action, diff }],
  });
  return { tag, sha, header: header(file.display, tag), diff };
}

/**
 * Keeps the written version decoded for the next call. A read must show
 * exactly what a parse of the bytes shows, and an edit's document may spell
 * the same bytes another way (a last empty line without a newline, say):
 * such a document is replaced by a reparse against the cached old version,
 * which decodes only the changed lines.
 */
function rememberWritten(
  file: GuardedPath,
  request: CommitRequest,
  bytes: Uint8Array,
  tag: string,
  sha: string,
): void {
  if (sniffBinary(bytes) || "opaque" in request.doc) return; // a read refuses these bytes
  let doc: Document | DecodeFailure = request.doc;
  if (!isCanonical(doc)) {
    const prior = request.before && decodedFiles.get(file.real, request.before.bytes);
    if (!prior) return;
    doc = reparseDocument(prior.bytes, prior.doc, bytes);
  }
  if (!("kind" in doc)) decodedFiles.set(file.real, { bytes, doc, tag, sha });
}

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

/**
 * Runs one read-compute-write step for a path with other splice writers kept
 * out, and runs it again when a program outside splice changed the file in
 * the middle of it.
 */
export function serialized<T>(
  context: ToolContext,
  input: string,
  step: () => Promise<T>,
  attempts = 3,
): Promise<T> {
  const file = context.guard.check(input, "write");
  return retryRaces(() => context.workspace.exclusive(file.real, step), attempts);
}

/** Runs `attempt` again when a writer outside splice raced it (a RaceError), `attempts` times in all. */
export async function retryRaces<T>(attempt: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof RaceError) || i >= attempts) throw error;
    }
  }
}

/** Holds the writer locks of several paths (in a fixed order, so two batches cannot deadlock). */
export function exclusiveAll<T>(
  context: ToolContext,
  inputs: string[],
  fn: () => Promise<T>,
): Promise<T> {
  const real = (p: string) => {
    try {
      return [context.guard.check(p, "write").real];
    } catch {
      return []; // refused paths fail later, inside the batch, with their own error
    }
  };
  const reals = [...new Set(inputs.flatMap(real))].sort();
  const run = (i: number): Promise<T> =>
    i === reals.length ? fn() : context.workspace.exclusive(reals[i]!, () => run(i + 1));
  return run(0);
}

/** A backup session id: sortable by time, unique across processes. */
export function newBackupId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${randomId(3)}`;
}

function writeFailure(
  context: ToolContext,
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

/**
 * apply writes; preview computes the result and writes nothing; check fails if
 * anything would change; validate_only validates the result with the language
 * server in memory and writes nothing.
 */
export type Mode = "apply" | "preview" | "check" | "validate_only";

export const modeSchema = z
  .enum(["apply", "preview", "check", "validate_only"])
  .optional()
  .describe(
    '"apply" (default) writes; "preview" shows the diff only; "check" fails if it would change anything; "validate_only" reports what the language server says about the result, writing nothing.',
  );

export const validateSchema = z
  .boolean()
  .optional()
  .describe(
    "Check the result with the language server (default: on for languages with a server in their project); false skips it.",
  );

/**
 * What every tool that changes files reports for a file; each tool adds its
 * own fields (action, removed, hunks, ...).
 */
export interface ChangeResult {
  path: string;
  /** `¶path#TAG` of the file as it is now (or would be, in preview). */
  header: string;
  file_hash?: string;
  changed: boolean;
  applied: boolean;
  diff: string;
  backup_session?: string;
  /** What the language server said about the result, when one checked it. */
  validation?: EditValidation;
  warnings: string[];
}

export interface Outcome {
  tag: string;
  header: string;
  diff: string;
  /** The backup session holding the original, when something was written. */
  backup?: string;
  /** Whether the file on disk now holds the result. */
  applied: boolean;
  /** Whether the result differs from what was there. */
  changed: boolean;
  /** What the language server says about the change (apply and validate_only). */
  validation?: EditValidation;
  /** A line for the model when the validation needs its attention. */
  validationNotice?: string;
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
  context: ToolContext,
  file: GuardedPath,
  request: CommitRequest,
  inMemory: boolean,
): Promise<Pick<Outcome, "validation" | "validationNotice">> {
  const { doc } = request;
  if (!context.validator || request.validate === false || "opaque" in doc) return {};
  const outcome = await context.validator.validate({
    path: file.real,
    display: file.display,
    before: request.before?.doc && textOf(request.before.doc),
    after: textOf(doc),
    requested: request.validate,
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
  context: ToolContext,
  file: GuardedPath,
  bytes: Uint8Array,
): ToolError | undefined {
  if (sniffBinary(bytes)) {
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
      `${file.display} was not written: it would be ${formatBytes(bytes.length)}, over the ${formatBytes(limit)} limit for text operations, so splice could not read, edit or undo it afterwards. Split the text into smaller files, or raise max_file_bytes.`,
      { path: file.display, size: bytes.length },
    );
  }
  return undefined;
}

/** Writes (or previews, or checks) a new document for a file, per `mode`. */
export async function settle(
  context: ToolContext,
  file: GuardedPath,
  request: CommitRequest,
  mode: Mode = "apply",
): Promise<Outcome> {
  const { before, doc } = request;
  const bytes =
    "opaque" in doc
      ? doc.bytes
      : before?.doc
        ? changedBytes(before.bytes, before.doc, doc)
        : documentToBytes(doc);
  const modeChanges = request.fileMode !== undefined && request.fileMode !== before?.mode;
  if (before && sameBytes(before.bytes, bytes) && !modeChanges) {
    context.history.recordRead(file.rel, before.bytes, before.tag, undefined, before.sha);
    const tag = before.tag;
    return {
      tag,
      header: header(file.display, tag),
      diff: "",
      applied: mode === "apply",
      changed: false,
    };
  }
  // A rollback or undo puts back a version that was there; only new text is checked.
  const refused = request.kind === "write" && unreadableResult(context, file, bytes);
  if (refused) throw refused;
  if (mode === "apply") {
    const committed = await commitDocument(context, file, request, bytes);
    const checked = await validateChange(context, file, request, false);
    return { ...committed, backup: request.backup, applied: true, changed: true, ...checked };
  }
  const diff = replacedDiff(file.display, before, doc);
  if (mode === "check") {
    throw new ToolError(
      "check_failed",
      `${file.display} would change (check mode writes nothing):\n${diff || "(permissions only)"}`,
      { path: file.display, diff },
    );
  }
  const { tag } = identify(bytes);
  const checked =
    mode === "validate_only" ? await validateChange(context, file, request, true) : {};
  return {
    tag,
    header: header(file.display, tag),
    diff,
    applied: false,
    changed: true,
    ...checked,
  };
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
    `${file.display} is a symbolic link to ${target}, so it was not ${verb === "delete" ? "deleted" : "moved"}: splice ${verb}s files, not links. To change the file it leads to, use its own path, ${target}; to ${verb} the link itself, use the run tool (rm or mv).`,
    { path: file.display, target },
  );
}

/**
 * Deletes a file, backing it up first; run it inside `serialized`. Like
 * `settle`, it refuses when the file is no longer the version it was given.
 */
export async function settleDelete(
  context: ToolContext,
  file: GuardedPath,
  before: Replaced,
  request: { note: string; backup: string },
  mode: Mode = "apply",
): Promise<Outcome> {
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
      {
        path: file.display,
        diff,
      },
    );
  }
  const outcome = { tag: "", header: "", diff, changed: true };
  if (mode !== "apply") return { ...outcome, applied: false };
  const current = await context.workspace.readFile(file.real).catch(() => undefined);
  if (!current || sha256(current) !== before.sha) throw new RaceError(file.display);
  context.history.recordWrite({
    kind: "delete",
    path: file.rel,
    before: { bytes: before.bytes, tag: before.tag, sha: before.sha },
    note: request.note,
    backup: request.backup,
  });
  try {
    await context.workspace.remove(file.real);
  } catch (error) {
    throw writeFailure(context, file, error, "delete");
  }
  context.events.emit({
    type: "files_changed",
    changes: [{ path: file.display, resolved: file.real, action: "delete", diff }],
  });
  return { ...outcome, applied: true, backup: request.backup };
}
