/**
 * What follows a write that landed: its outcome, the decoded cache, the
 * files_changed event. None of it may fail the call, since the file is
 * already replaced and its backup recorded.
 */
import type { GuardedPath } from "../guard/path-guard.js";
import { type DecodeFailure, type Document, isCanonical, sniffBinary } from "../text/document.js";
import { reparseDocument } from "../text/document-bytes.js";
import { header } from "../text/hashline.js";
import { encodingOfWrite, type Outcome, type WriteChange } from "./change.js";
import type { ChangeContext } from "./context.js";
import { decodedFiles } from "./decoded-cache.js";

/** The outcome of a version that landed on the disk. */
export function landedOutcome(
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
 * Runs a step that follows a write and must not fail the call: the file is
 * already replaced and its backup recorded, so the caller needs the result
 * more than the step (a cache fill, a listener).
 */
export function afterWrite(step: () => void): void {
  try {
    step();
  } catch {
    // The step's only effect was for later calls; they recompute it.
  }
}

export function emitChanged(
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

/**
 * Keeps the written version decoded for the next call. A read must show
 * exactly what a parse of the bytes shows, and an edit's document may spell
 * the same bytes another way (a last empty line without a newline, say):
 * such a document is replaced by a reparse against the cached old version,
 * which decodes only the changed lines.
 */
export function rememberWritten(
  change: WriteChange,
  bytes: Uint8Array,
  tag: string,
  sha: string,
): void {
  const { file, before, doc: written } = change;
  if ("opaque" in written) return;
  const encoding = encodingOfWrite(change);
  if (sniffBinary(bytes, encoding)) return; // a read refuses these bytes
  const own: Document =
    written.encoding === encoding || !encoding ? written : { ...written, encoding };
  let doc: Document | DecodeFailure = own;
  if (!isCanonical(own)) {
    const prior = before && decodedFiles.get(file.real, before.bytes);
    if (!prior) return;
    doc = reparseDocument(prior.bytes, prior.doc, bytes);
  }
  if (!("kind" in doc)) decodedFiles.set(file.real, { bytes, doc, tag, sha });
}
