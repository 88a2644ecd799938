/**
 * The history folder itself: made (with its `.gitignore`) when a store
 * opens, made again when it was removed under a running process, told as
 * unavailable when it cannot be, and the spare pool new blobs stage in.
 */
import { ToolError } from "../errors.js";
import { stateLayout } from "../util/state-folder.js";
import { BeneathFs } from "../workspace/beneath-fs.js";
import { SparePool } from "../workspace/spares.js";
import { ensureDir, isErrno, type Stage } from "./fsutil.js";

/** The error of a history folder that cannot be used; `code` is the errno that said so. */
export function unavailableError(dir: string, code: string): ToolError {
  return new ToolError(
    "history_unavailable",
    `splice cannot keep its history in ${dir} (${code}), so it changes no file: every change is backed up there first. Reads still work, without history. Make the project folder writable, or remove or repair ${dir} if it is a file or unreadable (the library's history.dir option can move it), then try again.`,
    { history_dir: dir, errno: code },
  );
}

/** Makes the folder (and its parents) and its `.gitignore` when missing; throws what stopped it. */
export function makeFolder(fs: BeneathFs, dir: string): void {
  ensureDir(fs, dir);
  try {
    fs.create(stateLayout(dir).gitignore, "*\n");
  } catch (error) {
    if (!isErrno(error, "EEXIST")) throw error;
  }
}

/**
 * The calls beneath the project (or beneath `dir`), with the folder made;
 * `unavailable` says why it could not be.
 */
export function openFolder(
  dir: string,
  root: string | undefined,
): { fs: BeneathFs; unavailable?: ToolError } {
  let fs: BeneathFs | undefined;
  try {
    fs = BeneathFs.around(dir, root);
    makeFolder(fs, dir);
    return { fs };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== "string") throw error;
    return { fs: fs ?? new BeneathFs(root ?? dir), unavailable: unavailableError(dir, code) };
  }
}

/** How often a folder that could not be made is tried again. */
const RETRY_MS = 1_000;

/**
 * Why the folder cannot be used, if it cannot. A folder that could not be
 * made is tried again (at most once a second) when asked, so whoever fixes
 * it — removes the file in its place, makes the project writable — need not
 * restart a server: "then try again" holds.
 */
export class FolderCheck {
  readonly #fs: BeneathFs;
  readonly #dir: string;
  #error: ToolError | undefined;
  #next = 0;

  constructor(fs: BeneathFs, dir: string, error: ToolError | undefined) {
    this.#fs = fs;
    this.#dir = dir;
    this.#error = error;
    this.#next = Date.now() + RETRY_MS;
  }

  get error(): ToolError | undefined {
    if (this.#error === undefined || Date.now() < this.#next) return this.#error;
    this.#next = Date.now() + RETRY_MS;
    try {
      makeFolder(this.#fs, this.#dir);
      this.#error = undefined;
    } catch {
      // Still not usable: the same sentence says so.
    }
    return this.#error;
  }
}

/**
 * Staging in the process's spare pool, made on the first new blob (a
 * process that only reads makes none), when the pool and the blobs share a
 * file system (a spare is moved, not copied); undefined when there is no pool.
 */
export function spareStage(
  fs: BeneathFs,
  blobs: string,
  dir: string | undefined,
): () => Stage | undefined {
  let stage: Stage | null | undefined; // null: no pool, or another file system
  return () => {
    if (stage === undefined && dir !== undefined) {
      const pool = SparePool.in(fs, dir);
      let dev: number | undefined;
      try {
        dev = fs.lstat(blobs).dev;
      } catch {
        return undefined; // no blob folder yet: the first blob makes it, the next one asks again
      }
      stage = pool && pool.dev === dev ? (at) => pool.stageTo(at) : null;
    }
    return stage ?? undefined;
  };
}
