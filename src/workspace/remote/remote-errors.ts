/**
 * What a refusal or failure on the remote machine means for the model: each
 * names the host, since the same path may exist on both machines.
 */
import { ToolError } from "../../errors.js";
import { WorkspaceError } from "../workspace.js";
import type { RunResult } from "./transport.js";

export function refusedError(host: string, status: string[], path: string, stderr: string): Error {
  const [, kind, ...rest] = status;
  const detail = rest.join(" ");
  const where = `${host}:${path}`;
  switch (kind) {
    case "escape":
      return new WorkspaceError(
        "escape",
        path,
        `${where} leads to ${detail} on ${host}, outside the root; nothing was done. Use a path inside the root.`,
      );
    case "is_directory":
      return new WorkspaceError("is_directory", path, `${path} is a directory`);
    case "not_a_file":
      return new WorkspaceError("not_a_file", path, `${path} is not a regular file`);
    case "missing":
      return new WorkspaceError("missing", path, `${path} does not exist`);
    case "no_tool":
      return toolMissing(host, detail);
    case "locked":
      return new ToolError(
        "locked",
        `${where} stayed locked by another writer there for 30 seconds. Try again when it is done; a lock left by a lost connection is broken after a minute.`,
        { path: where, host: host, lock: detail },
      );
    default:
      return ioError(host, where, `${detail}${stderr ? `: ${stderr}` : ""}`);
  }
}

export function failedError(host: string, result: RunResult, path: string): Error {
  const where = `${host}:${path}`;
  if (result.code === 127 && /\bsh\b.*not found|No such file/i.test(result.stderr)) {
    return toolMissing(host, "sh");
  }
  return ioError(host, where, result.stderr || `exit status ${result.code}`);
}

function ioError(host: string, where: string, detail: string): ToolError {
  if (/permission denied|operation not permitted|read-only file system/i.test(detail)) {
    return new ToolError(
      "io",
      `Permission denied on ${host} for ${where} (${detail}). Check the file's owner and mode there, or reach the host as a user who may change it.`,
      { path: where, host: host, reason: "permission_denied" },
    );
  }
  return new ToolError(
    "io",
    `${where} could not be reached on ${host} (${detail}). Check the path there, then try again.`,
    { path: where, host: host, reason: "remote_io" },
  );
}

function toolMissing(host: string, tool: string): ToolError {
  return new ToolError(
    "io",
    `${host} lacks ${tool}, which splice needs there. Install it on ${host} (coreutils and a POSIX sh), or reach the files through another host.`,
    { host, tool, reason: "remote_tool_missing" },
  );
}
