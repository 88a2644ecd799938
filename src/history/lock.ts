/**
 * The compaction lock: a file created with O_EXCL (`wx`). Only compaction
 * takes it; appends never wait. A lock older than LOCK_STALE_MS belongs to a
 * process that died mid-compaction and is broken.
 */
import { randomId } from "../util/ids.js";
import type { BeneathFs } from "../workspace/beneath-fs.js";
import { isErrno } from "./fsutil.js";
import { LOCK_STALE_MS } from "./types.js";

export class DirLock {
  readonly path: string;
  private readonly fs: BeneathFs;
  private token: string | undefined;

  constructor(fs: BeneathFs, path: string) {
    this.fs = fs;
    this.path = path;
  }

  /** Take the lock without waiting; false when another live process holds it. */
  tryAcquire(): boolean {
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = randomId();
      try {
        this.fs.create(
          this.path,
          JSON.stringify({ pid: process.pid, token, at: new Date().toISOString() }),
        );
        this.token = token;
        return true;
      } catch (error) {
        if (!isErrno(error, "EEXIST")) throw error;
      }
      if (!this.breakIfStale()) return false;
    }
    return false;
  }

  /** Whether the lock file on disk is still the one this object created. */
  holds(): boolean {
    if (this.token === undefined) return false;
    try {
      const content = JSON.parse(this.fs.readFile(this.path).toString("utf8")) as {
        token?: unknown;
      };
      return content.token === this.token;
    } catch {
      return false;
    }
  }

  release(): void {
    if (this.holds()) {
      try {
        this.fs.unlink(this.path);
      } catch (error) {
        if (!isErrno(error, "ENOENT")) throw error;
      }
    }
    this.token = undefined;
  }

  /**
   * Remove an abandoned lock; true when the caller may try again. The lock is
   * moved aside first (only one process can move a given file); if what was
   * moved turns out to be fresh, another process broke the stale lock and
   * took a new one in between, so it is put back.
   */
  private breakIfStale(): boolean {
    try {
      if (Date.now() - this.fs.lstat(this.path).mtimeMs < LOCK_STALE_MS) return false;
    } catch (error) {
      if (isErrno(error, "ENOENT")) return true;
      throw error;
    }
    const aside = `${this.path}.stale-${randomId(4)}`;
    try {
      this.fs.rename(this.path, aside);
    } catch (error) {
      if (isErrno(error, "ENOENT")) return true;
      throw error;
    }
    const fresh = Date.now() - this.fs.lstat(aside).mtimeMs < LOCK_STALE_MS;
    if (fresh) {
      try {
        this.fs.link(aside, this.path);
      } catch (error) {
        if (!isErrno(error, "EEXIST")) throw error;
      }
    }
    this.fs.unlink(aside);
    return !fresh;
  }
}
