/**
 * The temp files a local write stages beside its target, and the ones a
 * killed writer left there. A name carries the writer's pid, so a leftover
 * is known stale once that process is gone; the next write in the folder
 * removes it, and list and search never show one.
 */
import { lstatSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomId } from "../util/ids.js";

/** Longest file name most file systems allow, in bytes. */
const NAME_MAX = 255;

/** `.NAME.splice-<pid36>-<id>.tmp`, `.splice-<pid36>-<id>.tmp`, and the older form without a pid. */
const TEMP_NAME = /^\.(?:.+\.)?splice-(?:([0-9a-z]+)-)?[0-9a-f]{12}\.tmp$/;

/** Globs (ripgrep's syntax) that leave splice's temp files out of a search. */
export const TEMP_GLOBS: readonly string[] = ["!.*.splice-*.tmp", "!.splice-*.tmp"];

/** The name a watch's marks are made from (`tempName(MARK_STEM)`): the one temp file a watch must see. */
export const MARK_STEM = "watch";

/**
 * A root-relative path (`/`-separated) ending in a temp file of the current
 * form other than a watch mark: what a watch need not even look at (each
 * write stages one beside its file, and the event is dropped anyway).
 */
export const STAGED_TEMP_PATH = new RegExp(
  `(?:^|[/])\\.(?!${MARK_STEM}\\.splice-)(?:[^/]+\\.)?splice-[0-9a-z]+-[0-9a-f]{12}\\.tmp$`,
);

/** Whether `name` is one of splice's staged temp files. */
export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/**
 * The staged file's name: beside the file and named after it (a leftover
 * says whose it was), unless that would pass NAME_MAX for a long name.
 */
export function tempName(name: string): string {
  const tail = `splice-${process.pid.toString(36)}-${randomId(6)}.tmp`;
  const named = `.${name}.${tail}`;
  return Buffer.byteLength(named) <= NAME_MAX ? named : `.${tail}`;
}

/**
 * A leftover whose writer is gone is removed once it is this old: a pid seen
 * from another pid namespace (a container sharing the folder) looks gone
 * while it writes, and no staged write takes this long to reach its rename
 * once its own process has stopped.
 */
const DEAD_WRITER_MS = 5_000;
/** Any leftover this old is removed, whoever wrote it (pids are reused). */
const ABANDONED_MS = 60 * 60 * 1000;
/** A folder is swept at most this often by one process: a sweep lists the folder. */
const SWEEP_EVERY_MS = 60_000;

const swept = new Map<string, number>();

function gone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Removes the stale temp files in `dir` (at most once a minute per folder,
 * named by `key`: `dir` may be a descriptor's /proc path); never throws.
 */
export function sweepTemps(dir: string, now = Date.now(), key = dir): void {
  const last = swept.get(key);
  if (last !== undefined && now - last < SWEEP_EVERY_MS) return;
  if (swept.size > 10_000) swept.clear();
  swept.set(key, now);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!TEMP_NAME.test(name)) continue;
    const path = join(dir, name);
    try {
      if (isStaleTemp(name, lstatSync(path), now)) rmSync(path, { force: true });
    } catch {
      // Gone already, or not ours to remove: the next sweep looks again.
    }
  }
}

/** Whether `name` is a staged temp file a gone writer left (a few seconds old), or one abandoned long ago. */
export function isStaleTemp(
  name: string,
  st: { isFile(): boolean; mtimeMs: number },
  now = Date.now(),
): boolean {
  const match = TEMP_NAME.exec(name);
  if (!match || !st.isFile()) return false;
  const age = now - st.mtimeMs;
  const pid = match[1] === undefined ? undefined : Number.parseInt(match[1], 36);
  const dead = pid !== undefined && age > DEAD_WRITER_MS && gone(pid);
  return dead || age > ABANDONED_MS;
}

/**
 * TEST ONLY. With SPLICE_TEST_HANG_BEFORE_RENAME set to a file path, a write
 * that has staged its temp file (and journaled its change) writes that path
 * and then blocks the process for good, so a test can kill it with SIGKILL
 * exactly between the journal line and the rename. SPLICE_TEST_STOP_BEFORE_RENAME
 * does the same but stops the process (SIGSTOP), to go on at a SIGCONT.
 */
export function testHangBeforeRename(temp: string): void {
  const stop = process.env.SPLICE_TEST_STOP_BEFORE_RENAME;
  if (stop) {
    // Stopped as by Ctrl-Z: alive, holding its lock, until a SIGCONT.
    writeFileSync(stop, temp);
    process.kill(process.pid, "SIGSTOP");
  }
  const marker = process.env.SPLICE_TEST_HANG_BEFORE_RENAME;
  if (!marker) return;
  writeFileSync(marker, temp);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
