/**
 * The error of a writer that waited for a lock until it gave up: it names the
 * holder's pid, and says when that process is stopped, since a stopped
 * process keeps its lock (file-lock.ts breaks only a gone holder's).
 */
import { readFileSync } from "node:fs";
import { ToolError } from "../errors.js";
import { decodeHolder } from "./holder.js";

export function lockedError(lock: string, path: string, text: string, waitedMs: number): ToolError {
  const holder = decodeHolder(text);
  const seconds = Math.round(waitedMs / 1000);
  const who = holder ? `splice process ${holder.pid}${stoppedNote(holder.pid)}` : "a writer";
  return new ToolError(
    "locked",
    `${path} was not written: ${who} has held its write lock for over ${seconds} s. Try again when it has finished${holder ? ` (a stopped process continues with kill -CONT ${holder.pid})` : ""}; if no splice process is writing it, remove ${lock}.`,
    { path, lock, ...(holder ? { holder_pid: holder.pid } : {}) },
  );
}

function stoppedNote(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "T" || state === "t" ? ", which is stopped," : "";
  } catch {
    return "";
  }
}
