import { readFileSync } from "node:fs";

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
