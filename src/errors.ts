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
  | "not_a_file"
  | "unknown_tool"
  | "batch_failed"
  | "check_failed"
  | "history_unavailable"
  | "locked"
  | "read_only"
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

/** How much of one value a message quotes; a model's bad input must not flood its context. */
export const QUOTE_MAX = 300;

/**
 * A value as a message quotes it: whole when short, else its head and tail
 * (a path's file name is at the end) around a note of its full length.
 */
export function clip(value: string, max = QUOTE_MAX): string {
  if (value.length <= max) return value;
  const head = Math.ceil((max * 2) / 3);
  return `${value.slice(0, head)}…(${value.length} characters)…${value.slice(value.length - (max - head))}`;
}
