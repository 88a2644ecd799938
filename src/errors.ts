/**
 * The one error type tools throw. `code` is for programs (stable strings);
 * `message` is for models: it says what went wrong and what to do next.
 */
export type ErrorCode =
  | "not_found"
  | "ambiguous"
  | "suspicious"
  | "stale"
  | "guard"
  | "invalid_input"
  | "conflict"
  | "binary"
  | "too_large"
  | "generated"
  | "exists"
  | "is_directory"
  | "is_link"
  | "unknown_tool"
  | "batch_failed"
  | "check_failed"
  | "io";

export class ToolError extends Error {
  readonly code: ErrorCode;
  /** Extra machine-readable facts (paths, fresh tags, line numbers). */
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "ToolError";
    this.code = code;
    this.details = details;
  }

  toJSON(): { code: ErrorCode; message: string } & Record<string, unknown> {
    return { code: this.code, message: this.message, ...this.details };
  }
}

export function isToolError(error: unknown): error is ToolError {
  return error instanceof ToolError;
}
