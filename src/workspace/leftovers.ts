/**
 * Crash leftovers under a project root, for `splice gc`: staged temp files
 * of gone writers in the project (temp.ts), history's temp files and spare
 * inodes of gone writers (dead-temps.ts, spares.ts), and writer locks
 * whose holder is gone, with their holder files (file-lock.ts). Each is judged as the sweep that would meet it judges it,
 * so gc removes nothing a running splice still needs; every call is made
 * beneath the root.
 */
import { join } from "node:path";
import { isInside } from "../util/paths.js";
import { STATE_FOLDERS, stateFolderOf, stateLayout } from "../util/state-folder.js";
import { BeneathFs } from "./beneath-fs.js";
import { deadTemps } from "./dead-temps.js";
import { deadLocks, removeDeadLock } from "./file-lock.js";
import { isStaleTemp, isTempName } from "./temp.js";

export type LeftoverKind = "temp" | "history_temp" | "lock";

export interface Leftover {
  kind: LeftoverKind;
  /** Absolute path. */
  path: string;
}

/** Folders a project walk does not enter: git's own, and history (looked at on its own). */
const SKIP = new Set(STATE_FOLDERS);

/** The leftovers under `root`, history in `historyDir` (default the root's state folder). */
export function findLeftovers(root: string, historyDir = stateFolderOf(root)): Leftover[] {
  const fs = BeneathFs.around(historyDir, root);
  const out: Leftover[] = [];
  const now = Date.now();
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = fs.readdir(dir);
    } catch {
      return; // unreadable, or swapped for a link out: nothing of it is looked at
    }
    for (const name of names) {
      const path = join(dir, name);
      if (dir === root && SKIP.has(name)) continue;
      let st: ReturnType<BeneathFs["lstat"]>;
      try {
        st = fs.lstat(path);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(path);
      else if (isTempName(name) && isStaleTemp(name, st, now)) out.push({ kind: "temp", path });
    }
  };
  if (fs.root !== undefined && isInside(fs.root, root)) walk(root);
  const { blobs, spares, locks } = stateLayout(historyDir);
  for (const path of deadTemps(fs, historyDir, now)) out.push({ kind: "history_temp", path });
  for (const path of deadTemps(fs, spares, now)) {
    out.push({ kind: "history_temp", path }); // spare inodes of a killed process (spares.ts)
  }
  for (const fanout of safeReaddir(fs, blobs)) {
    for (const path of deadTemps(fs, join(blobs, fanout), now)) {
      out.push({ kind: "history_temp", path });
    }
  }
  for (const path of deadLocks(fs, locks)) out.push({ kind: "lock", path });
  return out;
}

/** Removes what findLeftovers found; returns what is gone now (a lock taken again since stays). */
export function removeLeftovers(
  root: string,
  found: Leftover[],
  historyDir = stateFolderOf(root),
): Leftover[] {
  const fs = BeneathFs.around(historyDir, root);
  const removed: Leftover[] = [];
  for (const leftover of found) {
    try {
      if (leftover.kind === "lock") removeDeadLock(fs, leftover.path);
      else fs.rm(leftover.path);
    } catch {
      continue;
    }
    try {
      fs.lstat(leftover.path);
    } catch {
      removed.push(leftover);
    }
  }
  return removed;
}

function safeReaddir(fs: BeneathFs, dir: string): string[] {
  try {
    return fs.readdir(dir);
  } catch {
    return [];
  }
}
