/**
 * A system error inside splice's own history folder, told as what broke and
 * how to fix it. Without this a read-only or full `.splice/` surfaced as a
 * bare EPERM with a stack trace, which tells a model nothing.
 */
import { resolve } from "node:path";
import { ToolError } from "../errors.js";
import { isInside } from "../util/paths.js";

/** `error` as a ToolError when it is a system error on a path in `historyDir`; else undefined. */
export function historyFailure(error: unknown, historyDir: string): ToolError | undefined {
  if (!(error instanceof Error) || error instanceof ToolError) return undefined;
  const { code, syscall, path } = error as NodeJS.ErrnoException;
  if (
    typeof code !== "string" ||
    typeof path !== "string" ||
    !isInside(resolve(historyDir), resolve(path))
  ) {
    return undefined;
  }
  if (code === "EISDIR") {
    return new ToolError(
      "io",
      `splice could not use its history folder ${historyDir}: ${path} is a folder where splice keeps a file (${code} on ${syscall ?? "access"}), so the call stopped there and no file was changed. Move ${path} out of the way (it is not splice's), then try again.`,
      { history_dir: historyDir, errno: code },
    );
  }
  return new ToolError(
    "io",
    `splice could not use its history folder ${historyDir} (${code} on ${syscall ?? "access"} of ${path}), so the call stopped there. splice records every read and backs up every file there before changing it, so no file was changed without its backup. Make sure that folder is writable and its disk has room (the library's history.dir option can move it), then try again.`,
    { history_dir: historyDir, errno: code },
  );
}

/**
 * The warning a call's result carries while no history can be kept, so a
 * model knows why its edits will be refused; undefined while history works.
 */
export function unavailableWarning(history: {
  dir: string;
  unavailable?: { message: string } | undefined;
  unkept?: { details?: Record<string, unknown> } | undefined;
}): string | undefined {
  if (history.unkept && !history.unavailable) {
    const errno = history.unkept.details?.errno;
    return `splice could not keep this read in its history (${String(errno)} in ${history.dir}): what it shows is the file as it is, but edits and writes are refused until that folder can be written again (remove what stands in its place, or make it writable).`;
  }
  if (!history.unavailable) return undefined;
  return `splice keeps no history now (${history.dir} cannot be written): this call was not journaled, and edits, writes and undo are refused until the folder is fixed.`;
}
