/** The diff a change reports; content that is not text is named, not shown. */
import { unifiedDiff } from "../text/diff.js";
import { type Document, hasFinalNewline } from "../text/document.js";
import type { OpaqueContent, Replaced } from "./load.js";

/** The diff of a change; content that is not text is named in a notice, not shown. */
export function replacedDiff(
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
