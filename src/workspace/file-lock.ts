/**
 * A per-path lock that holds across processes: a lock file created with
 * O_EXCL. Waiters in the same process queue on a promise instead of polling.
 * A lock older than STALE_MS is from a crashed writer and is broken.
 */
import { closeSync, mkdirSync, openSync, rmSync, statSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { sha256 } from "../util/hash.js";
import { KeyedQueue } from "./workspace.js";

const STALE_MS = 10_000;
const GIVE_UP_MS = 30_000;

/** Waiters in this process queue here instead of polling the lock file. */
const waiters = new KeyedQueue();

function lockName(dir: string, path: string): string {
  return join(dir, `${sha256(path).slice(0, 32)}.lock`);
}

async function acquire(lock: string): Promise<void> {
  const started = Date.now();
  let delay = 2;
  for (;;) {
    // Synchronous: two short system calls, cheaper than two thread-pool trips.
    // The file stays empty: unlinking a file with data costs several times more.
    try {
      closeSync(openSync(lock, "wx"));
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        mkdirSync(dirname(lock), { recursive: true }); // the lock folder, made when first needed
        continue;
      }
      if (code !== "EEXIST") throw error;
    }
    const stat = statSync(lock, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > STALE_MS) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() - started > GIVE_UP_MS) {
      throw new Error(`timed out waiting for the write lock ${lock}`);
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 50);
  }
}

/** One unlink; rmSync would stat the lock twice first. */
function release(lock: string): void {
  try {
    unlinkSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Runs `fn` while holding the lock for `path` (locks live in `dir`). */
export function withFileLock<T>(dir: string, path: string, fn: () => Promise<T>): Promise<T> {
  const lock = lockName(dir, path);
  return waiters.run(lock, async () => {
    await acquire(lock);
    try {
      return await fn();
    } finally {
      release(lock);
    }
  });
}
