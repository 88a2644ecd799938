/**
 * The error the document engines throw: a code and a sentence, with no path
 * (the engines see text, not files). docToolError adds the path for the doc
 * and md tools.
 */
import { ToolError } from "../errors.js";

export type DocErrorCode = "invalid_input" | "not_found" | "ambiguous";

export class DocError extends Error {
  constructor(
    readonly code: DocErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "DocError";
  }
}

/** A DocError as the ToolError of the file it was raised for; any other error as it is. */
export function docToolError(error: unknown, path: string): unknown {
  if (!(error instanceof DocError)) return error;
  return new ToolError(error.code, error.message, { path, ...error.details });
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
