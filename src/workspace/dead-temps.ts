/**
 * The state folder's temp files (`.tmp-LABEL-PID-START-ID`, util/state-folder.ts) left
 * by a writer killed before its rename: a staged blob in a fan-out folder, a
 * journal or totals file being replaced. A name carries its writer's pid and
 * start time, so a leftover is known dead once that process is gone (or its
 * pid names a later process); the next blob written in that folder removes
 * it, at most once a minute per folder and process (a sweep lists the folder).
 */
import { join } from "node:path";
import { stateTempWriter } from "../util/state-folder.js";
import type { BeneathFs } from "./beneath-fs.js";
import { startTime } from "./holder.js";

/**
 * A dead writer's leftover is removed once this old: a pid seen from another
 * pid namespace (a container sharing the folder) looks gone while it writes.
 */
const DEAD_WRITER_MS = 5_000;
/** Any leftover this old is removed, whoever wrote it. */
const ABANDONED_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60_000;

const swept = new Map<string, number>();

/** Whether a temp name's writer is gone: its pid runs no more, or now names a process started later. */
function writerGone(name: string): boolean | undefined {
  const writer = stateTempWriter(name);
  if (!writer) return undefined;
  const { pid, start } = writer;
  if (pid === process.pid) return false;
  const now = startTime(pid);
  if (now === undefined) return true;
  return start !== undefined && now !== "0" && start !== "0" && now !== start;
}

/** The leftovers in `dir` whose writer is gone (and a few seconds old), or that are abandoned. */
export function deadTemps(fs: BeneathFs, dir: string, now = Date.now()): string[] {
  let names: string[];
  try {
    names = fs.readdir(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    const gone = writerGone(name);
    if (gone === undefined) continue;
    const path = join(dir, name);
    try {
      const st = fs.lstat(path);
      if (!st.isFile()) continue;
      const age = now - st.mtimeMs;
      if ((gone && age > DEAD_WRITER_MS) || age > ABANDONED_MS) out.push(path);
    } catch {
      // Gone already.
    }
  }
  return out;
}

/** A folder this process has just made holds no leftovers: its first write need not list it. */
export function noteFreshFolder(dir: string, now = Date.now()): void {
  if (swept.size > 10_000) swept.clear();
  swept.set(dir, now);
}

/** Removes the dead leftovers in `dir`, at most once a minute per folder; never throws. */
export function sweepDeadTemps(fs: BeneathFs, dir: string, now = Date.now()): void {
  const last = swept.get(dir);
  if (last !== undefined && now - last < SWEEP_EVERY_MS) return;
  if (swept.size > 10_000) swept.clear();
  swept.set(dir, now);
  for (const path of deadTemps(fs, dir, now)) {
    try {
      fs.rm(path);
    } catch {
      // Not ours to remove, or gone: the next sweep looks again.
    }
  }
}
