/**
 * The error the document engines throw. They are pure, so they do not know
 * ToolError; the doc and md tools translate it, keeping code and sentence.
 */
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
