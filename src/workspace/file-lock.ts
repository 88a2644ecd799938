import { basename, dirname, join } from "node:path";
import { sha256 } from "../util/hash.js";
import { randomId } from "../util/ids.js";
import { BeneathFs } from "./beneath-fs.js";
import { decodeHolder, encodeHolder, type Holder, liveness, newHolder } from "./holder.js";
import { lockedError } from "./lock-error.js";
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

/** This process as a lock holder: one text for every lock it takes. */
let me: { holder: Holder; text: string } | undefined;
function self(): { holder: Holder; text: string } {
  if (!me) {
    const holder = newHolder();
    me = { holder, text: encodeHolder(holder) };
  }
  return me;
}

/** A file whose hard links are this process's locks in one folder; `ino` tells its links apart. */
interface HolderFile {
  path: string;
  ino: number;
  dev: number;
  fs: BeneathFs;
}

/** Lock folder -> this process's holder file there; null where the file system refuses hard links. */
const holderFiles = new Map<string, HolderFile | null>();
const HOLDER_SUFFIX = ".holder";
let exitHooked = false;

/** The locks this process holds: lock file -> where its calls are made and how it was taken. */
const held = new Map<string, { fs: BeneathFs; linked?: HolderFile }>();
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

function hold(fs: BeneathFs, lock: string, linked: HolderFile | undefined): void {
  held.set(lock, { fs, ...(linked ? { linked } : {}) });
  if (!heartbeat) {
    heartbeat = setInterval(beat, LOCK_TIMING.heartbeatMs);
    heartbeat.unref();
  }
}

function unhold(lock: string): void {
  held.delete(lock);
  if (held.size === 0 && heartbeat) {
    clearInterval(heartbeat);
    heartbeat = undefined;
  }
}

const NO_SYMLINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"]);
/** link(2) refused by the file system (EMLINK: the holder file has too many links). */
const NO_LINKS = new Set([...NO_SYMLINKS, "EMLINK", "EXDEV"]);

/**
 * This process's holder file in `dir`, made on first use (and the holder
 * files of gone processes there removed); undefined where hard links are
 * refused. It is removed when the process exits; a killed process's is
 * removed by the next one to make its own, or by `splice gc`.
 */
function holderFile(fs: BeneathFs, dir: string): HolderFile | undefined {
  const known = holderFiles.get(dir);
  if (known !== undefined) return known ?? undefined;
  const { text } = self();
  const path = join(dir, `${text}${HOLDER_SUFFIX}`);
  for (let attempt = 1; ; attempt++) {
    try {
      fs.create(path, text);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt === 3 || (code !== "ENOENT" && code !== "EEXIST")) throw error;
      if (code === "ENOENT")
        fs.mkdirp(dir); // the lock folder, made when first needed
      else fs.rm(path); // this process's own, its entry forgotten when a link found it missing
    }
  }
  const st = fs.lstat(path);
  const file = { path, ino: st.ino, dev: st.dev, fs };
  holderFiles.set(dir, file);
  if (!exitHooked) process.once("exit", removeHolderFiles);
  exitHooked = true;
  for (const dead of deadHolderFiles(fs, dir)) fs.rm(dead);
  return file;
}

function removeHolderFiles(): void {
  for (const file of holderFiles.values()) {
    if (!file) continue;
    try {
      file.fs.rm(file.path);
    } catch {
      // Exiting: a holder file left behind is a gone holder's, removed by the next process.
    }
  }
}

/** Takes the lock and holds it; false when it exists. */
function take(fs: BeneathFs, lock: string): boolean {
  const dir = dirname(lock);
  for (let attempt = 0; attempt < 3; attempt++) {
    const file = holderFile(fs, dir);
    if (!file) break;
    try {
      fs.link(file.path, lock);
      hold(fs, lock, file);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return false;
      if (code === "ENOENT") {
        holderFiles.delete(dir); // the folder or the holder file was removed under this process
        continue;
      }
      if (!code || !NO_LINKS.has(code)) throw Object.assign(error as Error, { path: lock });
      if (code !== "EMLINK") holderFiles.set(dir, null);
      break;
    }
  }
  if (!create(fs, lock, self().text)) return false;
  hold(fs, lock, undefined);
  return true;
}

/** Creates the lock as a symlink holding `text` (or a regular file where there are none); false when it exists. */
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
  const state = liveness(holder, held.has(lock));
  if (state === "gone") return true;
  return state === "elsewhere" && ageMs(fs, lock) > LOCK_TIMING.elsewhereStaleMs;
}

/**
 * Removes an abandoned lock. It is moved aside first, as only one process can
 * move a given file: if what was moved is not the lock judged abandoned,
 * another waiter broke it and took a new one in between, so that one is put
 * back — linked back, so it is the same inode its holder checks at release.
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
  if (moved === seen) {
    // Its holder is gone too, and so is its holder file (a name made of the checked holder text only).
    if (decodeHolder(seen)) fs.rm(join(dirname(lock), `${seen}${HOLDER_SUFFIX}`));
  } else if (moved !== undefined) {
    try {
      fs.link(aside, lock);
    } catch {
      create(fs, lock, moved);
    }
  }
  try {
    fs.unlink(aside);
  } catch {
    // Already gone: nothing to clean.
  }
}

async function acquire(fs: BeneathFs, lock: string, path: string): Promise<void> {
  const started = Date.now();
  let delay = 1;
  for (;;) {
    if (take(fs, lock)) return;
    const other = readLock(fs, lock);
    if (other === undefined) continue;
    if (abandoned(fs, lock, other)) {
      breakLock(fs, lock, other);
      continue;
    }
    if (Date.now() - started > LOCK_TIMING.giveUpMs)
      throw lockedError(lock, path, other, LOCK_TIMING.giveUpMs);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 50);
  }
}

/** Whether the lock at `lock` is still the one this process took. */
function stillMine(fs: BeneathFs, lock: string, linked: HolderFile | undefined): boolean {
  if (!linked) return readLock(fs, lock) === self().text;
  const st = fs.lstat(lock);
  return st.ino === linked.ino && st.dev === linked.dev;
}

/** Removes the lock only while it is still this holder's. */
function release(fs: BeneathFs, lock: string): void {
  const linked = held.get(lock)?.linked;
  unhold(lock);
  try {
    if (stillMine(fs, lock, linked)) fs.unlink(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Holder files in `dir` of holders that are gone (or on another host and silent), never this process's. */
function deadHolderFiles(fs: BeneathFs, dir: string, names = safeReaddir(fs, dir)): string[] {
  const mine = holderFiles.get(dir)?.path;
  const out: string[] = [];
  for (const name of names) {
    if (!name.endsWith(HOLDER_SUFFIX)) continue;
    const path = join(dir, name);
    if (path === mine) continue;
    const holder = decodeHolder(name.slice(0, -HOLDER_SUFFIX.length));
    const state = holder ? liveness(holder, false) : "gone";
    if (
      state === "gone" ||
      (state === "elsewhere" && ageMs(fs, path) > LOCK_TIMING.elsewhereStaleMs)
    ) {
      out.push(path);
    }
  }
  return out;
}

function safeReaddir(fs: BeneathFs, dir: string): string[] {
  try {
    return fs.readdir(dir);
  } catch {
    return [];
  }
}

/**
 * The lock files in `dir` whose holder is gone, the asides of broken ones and
 * gone holders' holder files, for `splice gc`.
 */
export function deadLocks(fs: BeneathFs, dir: string): string[] {
  const names = safeReaddir(fs, dir);
  const out = deadHolderFiles(fs, dir, names);
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
  if (lock.endsWith(HOLDER_SUFFIX)) {
    if (deadHolderFiles(fs, dirname(lock), [basename(lock)]).length > 0) fs.rm(lock);
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
    await acquire(fs, lock, path);
    try {
      return await fn();
    } finally {
      release(fs, lock);
    }
  });
}
