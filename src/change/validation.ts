/**
 * Asking the language server about a change, written or in memory; a
 * validator that fails is a notice, never an undo.
 */
import { type Document, normalizedText } from "../text/document.js";
import type { Outcome, WriteChange } from "./change.js";
import type { ChangeContext } from "./context.js";
import { reportCallProgress } from "./progress.js";

/** The text is joined only if a server actually validates (normalizedText keeps it). */
export const textOf = (doc: Document) => ({
  get text() {
    return normalizedText(doc);
  },
  lines: doc.lines,
});

/** Validates a change when the context has a validator and the call and defaults allow it. */
export async function validateChange(
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

/** Validation of a written file; a validator that fails is a notice, as the write stands. */
export async function validateWritten(
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
