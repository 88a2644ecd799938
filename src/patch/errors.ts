/** The errors of reading and applying a patch: the patch text unreadable, a hunk not placed with certainty. */
import { advised, type NextStep, ToolError } from "../errors.js";
import type { Candidate } from "../text/replace.js";

export type HunkErrorCode = "not_found" | "ambiguous" | "suspicious" | "invalid_input";

/** A hunk that cannot be placed with certainty. Lines are 1-based in the original file. */
export class HunkError extends Error {
  constructor(
    readonly code: HunkErrorCode,
    message: string,
    readonly hunk: number,
    readonly lines?: number[],
    readonly candidates?: Candidate[],
  ) {
    super(message);
    this.name = "HunkError";
  }
}

/** A patch that cannot be read; `line` is 1-based in the patch text. */
export class PatchParseError extends Error {
  constructor(
    /** What is wrong; `message` adds `next` in the model's voice, as ToolError's does. */
    readonly facts: string,
    readonly line: number,
    readonly next?: NextStep,
  ) {
    super(advised(facts, next));
    this.name = "PatchParseError";
  }

  /** As the patch tool's refusal, keeping the advice for the CLI to phrase again. */
  toolError(details: Record<string, unknown>): ToolError {
    return new ToolError(
      "invalid_input",
      `The patch could not be read: ${this.facts}`,
      details,
      this.next,
    );
  }
}
