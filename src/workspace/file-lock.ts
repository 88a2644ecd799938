/**
 * A per-path writer lock that holds across processes and is never broken
 * while its holder lives. The lock is a symlink created with symlink(2),
 * which fails when the name exists and stores its target (who holds it, see
 * holder.ts) inside the inode: one system call creates it complete, so no
 * reader ever sees a half-written lock, and unlinking it frees no data block.
 *
 * A lock is broken at once when its holder is provably gone (its pid is gone
 * or was reused) and never while the holder runs, however long it takes — a
 * slow fsync or a stopped process keeps its lock. Only a holder on another
 * host, whose pid means nothing here, is judged by its heartbeat: the holder
 * touches the lock every HEARTBEAT_MS, and a lock untouched for
 * ELSEWHERE_STALE_MS is broken. Waiters in one process queue on a promise.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ToolError } from "../errors.js";
import { sha256 } from "../util/hash.js";
import { randomId } from "../util/ids.js";
import { BeneathFs } from "./beneath-fs.js";
import { decodeHolder, encodeHolder, type Holder, liveness, newHolder } from "./holder.js";
import { KeyedQueue } from "./workspace.js";

export const LOCK_TIMING = {
  /** How often a holder touches its locks. */
  heartbeatMs: 1_000,
  /** A lock from another host untouched this long has lost its holder. */
  elsewhereStaleMs: 20_000,
  /** An empty lock (an older splice's, or a file system without symlinks mid-create) this old is abandoned. */
  unknownStaleMs: 10_000,
  /** A waiter gives up after this long with a `locked` error. */
  giveUpMs: 30_000,
};

/** Waiters in this process queue here instead of polling the lock file. */
const waiters = new KeyedQueue();

/** The locks this process holds: lock file -> its holder text and where its calls are made. */
const held = new Map<string, { text: string; fs: BeneathFs }>();
const heldTokens = new Set<string>();
let heartbeat: NodeJS.Timeout | undefined;

export function lockName(dir: string, path: string): string {
  return join(dir, `${sha256(path).slice(0, 32)}.lock`);
}

/** Touches every held lock, so holders on other hosts can tell this one lives. */
function beat(): void {
  for (const [lock, { fs }] of held) {
    try {
      fs.touchLink(lock);
    } catch {
      // Broken by a waiter that judged this process gone; release leaves theirs alone.
    }
  }
}

function hold(fs: BeneathFs, lock: string, holder: Holder, text: string): void {
  held.set(lock, { text, fs });
  heldTokens.add(holder.token);
  if (!heartbeat) {
    heartbeat = setInterval(beat, LOCK_TIMING.heartbeatMs);
    heartbeat.unref();
  }
}

function unhold(lock: string, holder: Holder): void {
  held.delete(lock);
  heldTokens.delete(holder.token);
  if (held.size === 0 && heartbeat) {
    clearInterval(heartbeat);
    heartbeat = undefined;
  }
}

const NO_SYMLINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);

/** Creates the lock; false when it exists. */
function create(fs: BeneathFs, lock: string, text: string): boolean {
  for (;;) {
    try {
      fs.symlink(text, lock);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return false;
      if (code === "ENOENT") {
        fs.mkdirp(dirname(lock)); // the lock folder, made when first needed
        continue;
      }
      // symlink(2) errors name the target as their path; the lock is what failed.
      if (!code || !NO_SYMLINKS.has(code)) throw Object.assign(error as Error, { path: lock });
    }
    // A file system without symlinks: a regular file holds the text.
    try {
      fs.create(lock, text);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
  }
}

/** The lock's holder text: "" for an empty lock file, undefined when there is no lock. */
function readLock(fs: BeneathFs, lock: string): string | undefined {
  try {
    return fs.readlink(lock);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code !== "EINVAL") throw error;
  }
  try {
    return fs.readFile(lock).toString("utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function ageMs(fs: BeneathFs, lock: string): number {
  try {
    return Date.now() - fs.lstat(lock).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
}

/** Whether the lock whose text is `text` has lost its holder. */
function abandoned(fs: BeneathFs, lock: string, text: string): boolean {
  const holder = decodeHolder(text);
  if (!holder) return ageMs(fs, lock) > LOCK_TIMING.unknownStaleMs;
  const state = liveness(holder, heldTokens);
  if (state === "gone") return true;
  return state === "elsewhere" && ageMs(fs, lock) > LOCK_TIMING.elsewhereStaleMs;
}

/**
 * Removes an abandoned lock. It is moved aside first, as only one process can
 * move a given file: if what was moved is not the lock judged abandoned,
 * another waiter broke it and took a new one in between, so that one is put
 * back (its holder finds it by its text, not its inode).
 */
function breakLock(fs: BeneathFs, lock: string, seen: string): void {
  const aside = `${lock}.${randomId(4)}.broken`;
  try {
    fs.rename(lock, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = readLock(fs, aside);
  if (moved !== undefined && moved !== seen) create(fs, lock, moved);
  try {
    fs.unlink(aside);
  } catch {
    // Already gone: nothing to clean.
  }
}

async function acquire(fs: BeneathFs, lock: string, path: string): Promise<Holder> {
  const holder = newHolder();
  const text = encodeHolder(holder);
  const started = Date.now();
  let delay = 1;
  for (;;) {
    if (create(fs, lock, text)) {
      hold(fs, lock, holder, text);
      return holder;
    }
    const other = readLock(fs, lock);
    if (other === undefined) continue;
    if (abandoned(fs, lock, other)) {
      breakLock(fs, lock, other);
      continue;
    }
    if (Date.now() - started > LOCK_TIMING.giveUpMs) throw lockedError(lock, path, other);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 50);
  }
}

/** Removes the lock only while it is still this holder's. */
function release(fs: BeneathFs, lock: string, holder: Holder): void {
  const text = held.get(lock)?.text;
  unhold(lock, holder);
  try {
    if (readLock(fs, lock) === text) fs.unlink(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

function lockedError(lock: string, path: string, text: string): ToolError {
  const holder = decodeHolder(text);
  const seconds = Math.round(LOCK_TIMING.giveUpMs / 1000);
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

/** The lock files in `dir` whose holder is gone (and the asides of broken ones), for `splice gc`. */
export function deadLocks(fs: BeneathFs, dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdir(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    const lock = join(dir, name);
    if (name.endsWith(".broken")) {
      out.push(lock); // a breaker killed between its rename and its unlink
      continue;
    }
    if (!name.endsWith(".lock") || held.has(lock)) continue;
    const text = readLock(fs, lock);
    if (text !== undefined && abandoned(fs, lock, text)) out.push(lock);
  }
  return out;
}

/** Removes a lock found dead, the way a waiter breaks one (never a lock taken since). */
export function removeDeadLock(fs: BeneathFs, lock: string): void {
  if (lock.endsWith(".broken")) {
    fs.rm(lock);
    return;
  }
  const text = readLock(fs, lock);
  if (text !== undefined && abandoned(fs, lock, text)) breakLock(fs, lock, text);
}

/**
 * Runs `fn` while holding the lock for `path` (locks live in `dir`; their
 * calls are made through `fs`, beneath the project when `dir` is in it).
 */
export function withFileLock<T>(
  dir: string,
  path: string,
  fn: () => Promise<T>,
  fs: BeneathFs = BeneathFs.around(dirname(dir)),
): Promise<T> {
  const lock = lockName(dir, path);
  return waiters.run(lock, async () => {
    const holder = await acquire(fs, lock, path);
    try {
      return await fn();
    } finally {
      release(fs, lock, holder);
    }
  });
}
