/**
 * Spare inodes: empty files made ahead, off the hot path, so that staging a
 * write costs a rename instead of a new inode. Making an inode is the dear
 * part of a small change to a file system (0.15-0.6 ms each on this
 * machine's ext4, against 0.03 ms for a rename), and every atomic write
 * stages its bytes in a new file: a 120-file batch made 120 of them in a
 * row. The pool makes them on the thread pool, one at a time, while the
 * process does other work — a batch's lock set, its re-reads and history's
 * fsync — and keeps as many ready as the last batch took (at most MAX).
 *
 * A spare lives in the state folder's `spares` under a state temp name
 * (`.tmp-s-PID-START-ID`, util/state-folder.ts), so a killed process's spares
 * are swept like its other temp files and listed by `splice gc`; a living
 * process removes its own as it exits. A spare is used only when it is still
 * the inode the pool made (same inode and device, one link, empty), and only
 * for a folder on the pool's file system; anything else stages as before.
 */
import { closeSync, constants, fstatSync, open, openSync, renameSync, unlinkSync } from "node:fs";
import { stateTempName } from "../util/state-folder.js";
import type { BeneathFs } from "./beneath-fs.js";
import { sweepDeadTemps } from "./dead-temps.js";
import { newHolder } from "./holder.js";

/** Spares kept ready between batches: enough for a single edit and a small patch. */
const BASE = 4;
/** The most kept ready, whatever the last batch took. */
const MAX = 512;
/** How long after its last take the pool is topped up. */
const REFILL_AFTER_MS = 10;

const MAKE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
// O_NONBLOCK: a FIFO swapped in at the name fails (ENXIO) instead of blocking the open.
const REUSE_FLAGS = constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

interface Spare {
  name: string;
  ino: number;
}

const pools = new Map<string, SparePool>();
let exitHooked = false;

export class SparePool {
  readonly #folder: number;
  readonly #dev: number;
  readonly #ready: Spare[] = [];
  #target = BASE;
  /** Writes that found no spare since the last refill: a stream the target was too small for. */
  #missed = 0;
  #making = 0;
  #broken = false;
  #refill: NodeJS.Timeout | undefined;

  private constructor(folder: number, dev: number) {
    this.#folder = folder;
    this.#dev = dev;
  }

  /**
   * The pool in `dir` (made beneath `fs`'s root), shared by every workspace of
   * the process; undefined without /proc (the folder is held by descriptor)
   * or when the folder cannot be made.
   */
  static in(fs: BeneathFs, dir: string): SparePool | undefined {
    const known = pools.get(dir);
    if (known) return known;
    if (process.platform !== "linux") return undefined;
    let folder: number;
    try {
      fs.mkdirp(dir);
      folder = fs.open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    } catch {
      return undefined;
    }
    sweepDeadTemps(fs, dir);
    const pool = new SparePool(folder, fstatSync(folder).dev);
    pools.set(dir, pool);
    if (!exitHooked) process.once("exit", removeAllSpares);
    exitHooked = true;
    return pool;
  }

  /** A batch of `count` writes is coming: make spares for it now, and keep as many ready after it. */
  expect(count: number): void {
    this.#target = Math.min(Math.max(BASE, count), MAX);
    this.#make();
  }

  /**
   * Moves a spare to `temp` (a path in the folder held as `folder`) and
   * returns it open for writing; undefined when none is ready or it cannot
   * serve that folder, and the caller makes the temp file itself.
   */
  stageAt(folder: number, temp: string): number | undefined {
    if (this.#ready.length === 0 || fstatSync(folder).dev !== this.#dev) {
      if (this.#ready.length === 0) this.#missed++;
      this.#refillSoon();
      return undefined;
    }
    return this.stageTo(temp);
  }

  /** The pool's file system: a folder on another cannot take its spares. */
  get dev(): number {
    return this.#dev;
  }

  /**
   * stageAt for a folder the caller knows to be on the pool's file system
   * (`dev`): history's blob folders, beside the pool in `.splice`.
   */
  stageTo(temp: string): number | undefined {
    this.#refillSoon();
    if (this.#ready.length === 0) {
      this.#missed++;
      return undefined;
    }
    const spare = this.#ready.shift()!; // the oldest first: what is made ahead is what a batch uses
    try {
      renameSync(this.#path(spare.name), temp);
    } catch {
      return undefined; // gone from the folder, or the folder is elsewhere: stage as before
    }
    let fd: number | undefined;
    try {
      fd = openSync(temp, REUSE_FLAGS);
      const st = fstatSync(fd);
      if (st.ino === spare.ino && st.dev === this.#dev && st.nlink === 1 && st.size === 0) {
        return fd;
      }
    } catch {
      // Not a file we can write: stage as before.
    }
    // Not the inode the pool made: the name, ours now, goes (the file behind it is not written).
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // Gone already.
    }
    return undefined;
  }

  /**
   * Tops the pool up once the writes pause, or 10 ms after it ran low: asking
   * the thread pool costs the main thread ~0.1 ms a spare, which a batch
   * should not pay between its writes.
   */
  #refillSoon(): void {
    // Single writes in a steady stream never pause that long: once the pool is low, the refill
    // already due is not put off again (a batch's pool, made for it, is low only at its end).
    if (this.#refill && this.#ready.length < BASE) return;
    if (this.#refill) clearTimeout(this.#refill);
    this.#refill = setTimeout(() => {
      this.#refill = undefined;
      // Many sessions writing at once outrun BASE: every miss made an inode on the main
      // thread, in the way of every other call, so the next refill makes that many more.
      this.#target = Math.min(this.#target + this.#missed, MAX);
      this.#missed = 0;
      this.#make();
    }, REFILL_AFTER_MS);
    this.#refill.unref();
  }

  #path(name: string): string {
    return `/proc/self/fd/${this.#folder}/${name}`;
  }

  /**
   * Asks the thread pool for the spares missing from the target, all at once:
   * a chain of one at a time would stall while the main thread plans (a
   * callback waits for the event loop), and the pool's threads make them
   * meanwhile. What is made is checked and kept when the loop next turns.
   */
  #make(): void {
    if (this.#broken) return;
    const missing = this.#target - this.#ready.length - this.#making;
    for (let i = 0; i < missing; i++) {
      this.#making++;
      const name = stateTempName("s", newHolder());
      open(this.#path(name), MAKE_FLAGS, 0o600, (error, fd) => {
        this.#making--;
        if (error) {
          this.#broken = true; // a full disk or a folder gone: writes stage as before
          return;
        }
        // A callback of the thread pool: nothing above it would catch a throw.
        try {
          this.#ready.push({ name, ino: fstatSync(fd).ino });
        } catch {
          this.#broken = true;
        } finally {
          closeSync(fd);
        }
      });
    }
  }

  /** Removes the ready spares (at exit): synchronous, as exit hooks are. */
  removeReady(): void {
    for (const { name } of this.#ready.splice(0)) {
      try {
        unlinkSync(this.#path(name));
      } catch {
        // Gone already.
      }
    }
  }
}

function removeAllSpares(): void {
  for (const pool of pools.values()) pool.removeReady();
}
