/**
 * The error the document engines throw: a code and a sentence, with no path
 * (the engines see text, not files). docToolError adds the path for the doc
 * and md tools.
 */
import { advised, type NextStep, ToolError, useTool } from "../errors.js";

export type DocErrorCode = "invalid_input" | "not_found" | "ambiguous";

export class DocError extends Error {
  constructor(
    readonly code: DocErrorCode,
    /** What went wrong; `message` adds `next` in the model's voice, as ToolError's does. */
    readonly facts: string,
    readonly details: Record<string, unknown> = {},
    readonly next?: NextStep,
  ) {
    super(advised(facts, next));
    this.name = "DocError";
  }

  /** As a ToolError, keeping the advice for the CLI to phrase again. */
  toolError(details: Record<string, unknown> = {}): ToolError {
    return new ToolError(this.code, this.facts, { ...details, ...this.details }, this.next);
  }
}

/** A file the engine cannot parse: mend it by its lines, then ask again. */
export const FIX_FIRST = useTool(
  "edit",
  (edit) => `Fix the file first (${edit} can), then retry. Nothing was written.`,
);

/** A DocError as the ToolError of the file it was raised for; any other error as it is. */
export function docToolError(error: unknown, path: string): unknown {
  if (!(error instanceof DocError)) return error;
  return error.toolError({ path });
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}
