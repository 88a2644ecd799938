/**
 * Undo as a revert: the inverse of one session's change applied to a file as
 * it is now, as `git revert` does — a three-way merge with the session's
 * after-version as base, the current file as one side and its before-version
 * as the other. A file nobody changed since gets its before-version back byte
 * for byte; later changes are kept where they do not overlap the session's own
 * lines, and where they do, the file is a conflict, never a guess.
 *
 * History holds the exact base, so no fuzzy context is needed: changes on
 * adjacent lines merge; only overlapping ranges, or two insertions at one
 * point, collide (`merge3`).
 */

import type { ToolError } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import type { NetChange } from "../history/undo-state.js";
import { merge3 } from "../text/diff.js";
import {
  type Document,
  hasFinalNewline,
  isCanonical,
  lineEndingStyle,
  parseDocument,
  renderDocument,
  restyle,
} from "../text/document.js";
import type { ChangeContext } from "./context.js";
import { type OpaqueContent, type Replaced, restorable } from "./load.js";

/** What undoing one file's change comes to, against what the file holds now. */
export type RevertPlan =
  /** The file is as the session left it: its before-version goes back whole. */
  | { kind: "exact" }
  /** Changed since; the session's own lines are reverted in what it holds now. */
  | { kind: "merged"; doc: Document }
  /** It already holds what the revert would give (its before-version, or no file). */
  | { kind: "nothing" }
  | { kind: "conflict"; conflict: FileConflict };

/** Why one file cannot be reverted without losing a later change. */
export interface FileConflict {
  /** The session created it, deleted it, it was deleted since, it is not text, or its lines overlap. */
  reason: "created" | "deleted" | "gone" | "opaque" | "unknown_base" | "overlap";
  /** With "overlap": the 1-based inclusive line ranges of the current file that collide. */
  lines?: [number, number][];
}

export interface RevertInput {
  /** SHA-256 of the session's before- and after-version; null: no file. */
  before: string | null;
  after: string | null;
  /** The before-version's content (absent when the session created the file). */
  beforeContent: Document | OpaqueContent | undefined;
  /** The after-version's bytes, when history still holds them. */
  afterBytes: () => Uint8Array | undefined;
  current: Replaced | undefined;
  /** Decodes stored bytes (`restorable`). */
  decode: (bytes: Uint8Array) => Document | OpaqueContent;
}

const conflict = (reason: FileConflict["reason"], lines?: [number, number][]): RevertPlan => ({
  kind: "conflict",
  conflict: lines ? { reason, lines } : { reason },
});

const finalNewline = (doc: Document) => doc.lines.length === 0 || hasFinalNewline(doc);

/** Plans the revert of one file; reads nothing but the after-version's bytes. */
export function planRevert(input: RevertInput): RevertPlan {
  const { before, after, current } = input;
  const now = current?.sha ?? null;
  if (now === after) return { kind: "exact" };
  if (now === before) return { kind: "nothing" };
  if (before === null) return conflict("created");
  if (after === null) return conflict("deleted");
  if (!current) return conflict("gone");
  const base = input.afterBytes();
  if (!base) return conflict("unknown_base");
  const a = input.decode(base);
  const b = input.beforeContent;
  const c = current.doc;
  if (!b || "opaque" in a || "opaque" in b || !c) return conflict("opaque");
  return revertText(a, b, c);
}

/** The merge of three text versions: `a` the session's after, `b` its before, `c` the file now. */
export function revertText(a: Document, b: Document, c: Document): RevertPlan {
  const merged = merge3(a.lines, b.lines, c.lines);
  if (!merged.clean) return conflict("overlap", merged.conflicts);
  // A style the session changed is reverted too; any other stays as the file has it now.
  const last = finalNewline(a) !== finalNewline(b) ? finalNewline(b) : finalNewline(c);
  let doc = restyle(c, merged.lines, last);
  if (lineEndingStyle(a) !== lineEndingStyle(b)) {
    const eols = doc.eols.map((e) => (e === "" ? "" : b.eol));
    doc = { ...doc, eols, eol: b.eol };
  }
  if (a.bom !== b.bom) doc = { ...doc, bom: b.bom };
  // A merge can leave a last empty line without a newline: parse it as its bytes will read.
  return { kind: "merged", doc: isCanonical(doc) ? doc : parseDocument(renderDocument(doc)) };
}

/** Undo as a revert, for `restoreSession`; without it a session's before-versions are restored wholesale. */
export interface Reverting {
  /** Restore wholesale anyway: what the files hold now is backed up first. */
  force: boolean;
  /** The refusal for the files whose later changes overlap the session's, thrown before any write. */
  refuse(conflicts: Conflicted[]): ToolError;
}

/** A file whose revert would lose a later change. */
export interface Conflicted {
  rel: string;
  display: string;
  conflict: FileConflict;
  change: NetChange;
  /** SHA-256 of what it holds now; null: no file. */
  now: string | null;
  /** When it last changed, when it exists (a change no session explains is told by it). */
  mtimeMs?: number;
  /** Its lines now, when it is text: who overlapped the session's lines is told from them. */
  lines?: readonly string[];
}

/** Plans the revert of one file of a session (its net change) against what it holds now. */
export function planFileRevert(
  context: ChangeContext,
  change: NetChange,
  beforeContent: Document | OpaqueContent | undefined,
  current: Replaced | undefined,
): RevertPlan {
  const after = change.last.after?.sha ?? null;
  return planRevert({
    before: change.first.before?.sha ?? null,
    after,
    beforeContent,
    afterBytes: () => (after ? context.history.getBlob(after) : undefined),
    current,
    decode: (bytes) => restorable(bytes, current?.doc?.encoding),
  });
}

/** The planned files whose revert conflicts, with when each last changed. */
export async function conflictsOf(
  context: ChangeContext,
  files: readonly {
    rel: string;
    file: GuardedPath;
    change: NetChange;
    current: Replaced | undefined;
    plan?: RevertPlan;
  }[],
): Promise<Conflicted[]> {
  const out: Conflicted[] = [];
  for (const f of files) {
    if (f.plan?.kind !== "conflict") continue;
    const stat = f.current ? await context.workspace.stat(f.file.real) : undefined;
    out.push({
      rel: f.rel,
      display: f.file.display,
      conflict: f.plan.conflict,
      change: f.change,
      now: f.current?.sha ?? null,
      ...(stat ? { mtimeMs: stat.mtimeMs } : {}),
      ...(f.current?.doc ? { lines: f.current.doc.lines } : {}),
    });
  }
  return out;
}

/** What undo says of a file whose later changes it kept. */
export function mergedWarning(display: string, sessionId: string): string {
  return `${display} changed after session ${sessionId}; only the session's own lines were reverted, and the later changes were kept.`;
}
