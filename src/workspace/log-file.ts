/**
 * Logs written as bytes come (`run`'s full output), in a folder of the
 * state folder: never held in memory, made new (O_EXCL) and never through
 * a link, in a folder whose real path is the one asked for, so a `runs`
 * swapped for a link out is refused rather than followed.
 */
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { LogFile } from "./workspace.js";

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Creates the log at `path` (its folder made, and kept out of git); throws
 * when it cannot. In the (real) `root`, no folder on the way may be a link;
 * elsewhere (a history folder the options name) the log's own folder may not.
 */
export function openLogFile(path: string, root?: string): LogFile {
  const dir = dirname(resolve(path));
  mkdirSync(dir, { recursive: true });
  const real = realpathSync(dir);
  const inRoot = root !== undefined && dir.startsWith(`${root}${sep}`);
  const expected = inRoot ? dir : join(realpathSync(dirname(dir)), basename(dir));
  if (real !== expected) throw new Error(`${dir} leads outside (${real})`);
  try {
    writeFileSync(join(real, ".gitignore"), "*\n", { flag: "wx" });
  } catch {
    // Already there.
  }
  const fd = openSync(join(real, basename(path)), CREATE, 0o600);
  return {
    write(bytes) {
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
    },
    close: () => closeSync(fd),
  };
}

/** Keeps the newest `keep` logs (`*.log`, by name, which sorts by time) in `dir`; never throws. */
export function pruneLogFiles(dir: string, keep: number): void {
  try {
    const logs = readdirSync(dir)
      .filter((n) => n.endsWith(".log"))
      .sort();
    for (const name of logs.slice(0, Math.max(0, logs.length - keep))) {
      rmSync(join(dir, name), { force: true });
    }
  } catch {
    // Pruning is housekeeping; a failure leaves old logs behind, nothing worse.
  }
}
