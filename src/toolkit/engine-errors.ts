/**
 * The last line of defence for errors the engines throw: a tool converts
 * its engines' errors where it can add the path and what to do next, and
 * anything that still escapes reaches the caller as a ToolError with a
 * stable code, never as an internal error (exit 70, MCP `internal`) that
 * tells a model its arguments were fine.
 */
import { UnknownLanguageError } from "../code/languages.js";
import { type ErrorCode, ToolError } from "../errors.js";
import { DocError } from "../formats/errors.js";
import { MediaError } from "../media/error.js";
import { HunkError, PatchParseError } from "../patch/errors.js";
import { exhaustedError } from "../proc/exhausted.js";
import { UnencodableError } from "../text/encoding.js";
import { OpsError } from "../text/ops/parse.js";
import { WorkspaceError, type WorkspaceErrorKind } from "../workspace/workspace.js";

const WORKSPACE_CODES: Record<WorkspaceErrorKind, ErrorCode> = {
  missing: "not_found",
  is_directory: "is_directory",
  not_a_file: "not_a_file",
  escape: "guard",
  io: "io",
};

/** The ToolError an engine's error stands for, or undefined for any other error. */
export function engineToolError(error: unknown): ToolError | undefined {
  if (error instanceof DocError) return error.toolError();
  if (error instanceof OpsError) {
    return new ToolError("invalid_input", error.message, {
      reason: error.code,
      ...(error.dslLine === undefined ? {} : { dsl_line: error.dslLine }),
    });
  }
  if (error instanceof HunkError) {
    return new ToolError(error.code, error.message, { hunk: error.hunk });
  }
  if (error instanceof PatchParseError) {
    return error.toolError({ line: error.line });
  }
  if (error instanceof MediaError) return new ToolError(error.kind, error.message);
  if (error instanceof UnknownLanguageError) {
    // A language splice knows whose grammar is not installed: the code says to add it, not to fix the argument.
    return new ToolError(error.needsAddon ? "needs_addon" : "invalid_input", error.message, {
      language: error.requested,
    });
  }
  if (error instanceof UnencodableError) {
    return new ToolError("unencodable", error.message, {
      encoding: error.encoding,
      chars: error.chars,
    });
  }
  if (error instanceof WorkspaceError) {
    return new ToolError(WORKSPACE_CODES[error.kind], error.message, { path: error.path });
  }
  // Out of descriptors, disk or memory at any step: the machine's limit, told as one.
  return exhaustedError(error);
}
