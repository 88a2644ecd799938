/**
 * A validation's verdict when the server could not give one: not installed,
 * turned off, too slow, exited or failing. Each says what to do instead.
 */
import type { ValidationInput } from "./observe.js";
import { LspExited, LspTimeout } from "./protocol.js";
import { ServerUnavailable } from "./registry.js";
import type { Language, ServerSpec } from "./servers.js";
import { type EditValidation, skipped, uncertain, validationNotice } from "./verdict.js";

export interface ValidationOutcome {
  validation: EditValidation;
  /** A line for the model when the validation needs its attention. */
  notice?: string;
}

/** An outcome the model need not be told about. */
export const quiet = (validation: EditValidation): ValidationOutcome => ({ validation });

/** A file of a batch that the pass's budget did not reach. */
export function timedOut(
  input: ValidationInput,
  spec: ServerSpec,
  language: Language,
  budgetMs: number,
): EditValidation {
  return uncertain(
    `validation timed out: ${spec.name} did not answer for ${input.display} within the ${budgetMs} ms budget of this change's validation pass.`,
    `The file was written; validate it with an edit that has "validate": true, or run ${language.checkCommand}.`,
    { server: spec.name },
  );
}
/** An outcome with a notice when the validation needs the model's attention. */
export const loud = (validation: EditValidation): ValidationOutcome => {
  const notice = validationNotice(validation);
  return notice ? { validation, notice } : { validation };
};

export function unavailable(error: unknown, spec: ServerSpec, language: Language): EditValidation {
  if (error instanceof ServerUnavailable) {
    const restart =
      error.reason === "missing" ? "" : ` Then call lsp_health with action "restart".`;
    return skipped(error.message, `${spec.installHint}${restart}`);
  }
  return failure(error, spec, language, 0);
}

export function failure(
  error: unknown,
  spec: ServerSpec,
  language: Language,
  ms: number,
): EditValidation {
  const extra = { server: spec.name, latency_ms: Math.round(ms) };
  if (error instanceof LspTimeout) {
    return uncertain(
      `${spec.name} did not answer in time (timed out after ${Math.round(ms)} ms).`,
      `Call lsp_health, or lsp_health with action "restart" if it stays stuck; or run ${language.checkCommand}.`,
      extra,
    );
  }
  if (error instanceof LspExited) {
    return uncertain(
      `${spec.name} exited during validation (${error.message}).`,
      `It is started again on the next validation; call lsp_health to check it, or run ${language.checkCommand}.`,
      extra,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return uncertain(
    `${spec.name} failed to validate: ${message}.`,
    `Call lsp_health with action "restart", or run ${language.checkCommand}.`,
    extra,
  );
}
