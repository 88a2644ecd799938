import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a process still runs (a zombie waiting to be reaped counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** The lock tests' editor fixture: one edit (old text -> new text) through splice in a child process. */
export const EDITOR = join(import.meta.dirname, "../faults/fixtures/editor.ts");

/** Runs the editor fixture to its end in a child process (its exit hooks run). */
export function editInChild(root: string, path: string, oldText: string, newText: string) {
  return spawnSync(process.execPath, ["--import", "tsx", EDITOR, root, path, oldText, newText]);
}
