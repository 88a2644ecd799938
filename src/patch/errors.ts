/** The error a hunk that cannot be placed with certainty raises. */
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
