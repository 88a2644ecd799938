/**
 * The one change type of the write pipeline: a file to write (or create) or
 * to delete, planned against the version it replaces. Every tool that changes
 * files builds these and hands them to commit / commitChanges; every restore
 * is one too.
 */
import type { GuardedPath } from "../guard/path-guard.js";
import type { EditValidation } from "../lsp/verdict.js";
import type { Document } from "../text/document.js";
import type { Encoding } from "../text/encoding.js";
import type { OpaqueContent, Replaced } from "./load.js";

export type Change =
  | {
      kind: "write";
      file: GuardedPath;
      /** The version being replaced; undefined when the change creates the file. */
      before: Replaced | undefined;
      /** The new content; only a restore writes back bytes that are not text. */
      doc: Document | OpaqueContent;
      /** Names the write in events and results: "replace", "md.set_section", "undo", ... */
      action: string;
      /** Names the write in history. */
      note: string;
      /** Permission bits; default: the replaced file's. */
      fileMode?: number;
      /**
       * Puts back a version that was there before (undo, rollback, a failed
       * batch): journaled as a rollback, and not refused for being binary or
       * too large, since it only returns what the file held.
       */
      restores?: boolean;
    }
  | { kind: "delete"; file: GuardedPath; before: Replaced; action: string; note: string };

export type WriteChange = Extract<Change, { kind: "write" }>;
export type DeleteChange = Extract<Change, { kind: "delete" }>;

/**
 * apply writes; preview computes the result and writes nothing; check fails if
 * anything would change; validate_only validates the result with the language
 * server in memory and writes nothing.
 */
export type Mode = "apply" | "preview" | "check" | "validate_only";

export interface CommitOptions {
  mode?: Mode;
  /** The call's `validate`: true forces validation, false skips it, undefined follows the toolkit. */
  validate?: boolean;
  /** Write or delete a read-only file (no write permission bits) too. */
  force?: boolean;
}

/** What committing one change did. */
export interface Outcome {
  /** The file's tag now (or as it would be); "" once deleted. */
  tag: string;
  header: string;
  diff: string;
  /** The backup session holding the original, when something was written. */
  backup?: string;
  /** Whether the file on disk now holds the result. */
  applied: boolean;
  /** Whether the result differs from what was there. */
  changed: boolean;
  /** The SHA-256 of what the file now holds (null: deleted); set when applied. */
  sha?: string | null;
  /** What the language server says about the change (apply and validate_only). */
  validation?: EditValidation;
  /** A line for the model when the validation (or an outside write this write replaced) needs its attention. */
  validationNotice?: string;
}

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

/**
 * A committed change's result fields from its outcome, with a tool's own
 * fields (`extra`) after the header, where write and rollback show them.
 */
export function changeResult<Extra extends object>(
  path: string,
  outcome: Outcome,
  warnings: string[],
  extra: Extra,
): ChangeResult & { file_hash: string } & Extra {
  return {
    path,
    file_hash: outcome.tag,
    header: outcome.header,
    ...extra,
    applied: outcome.applied,
    changed: outcome.changed,
    diff: outcome.diff,
    ...(outcome.backup ? { backup_session: outcome.backup } : {}),
    warnings,
    ...(outcome.validation ? { validation: outcome.validation } : {}),
  };
}

/** A write's encoding: its document's, else the one the file was read in (never a silent conversion). */
export function encodingOfWrite(change: WriteChange): Encoding | undefined {
  return "opaque" in change.doc ? undefined : (change.doc.encoding ?? change.before?.doc?.encoding);
}
