import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { sha256 } from "../util/hash.js";

/**
 * The one seam every byte passes through. Tools never import `fs`; they ask
 * a Workspace, so the same tools run on the local disk, in memory, or on an
 * overlay.
 */

export interface FileStat {
  kind: "file" | "directory" | "other";
  size: number;
  /** Permission bits (e.g. 0o644). */
  mode: number;
  mtimeMs: number;
}

/** A file kept in memory (MemoryWorkspace, and OverlayWorkspace's layer). */
export interface MemoryFile {
  bytes: Uint8Array;
  mode: number;
  mtimeMs: number;
}

export interface DirEntry {
  name: string;
  kind: "file" | "directory" | "symlink" | "other";
}

export interface WriteOptions {
  /** Permission bits for the file; default: keep the existing file's, else 0o644. */
  mode?: number;
}

export interface WriteIfOptions extends WriteOptions {
  /**
   * Runs after the check passed, before the file is replaced (history
   * records here); the file is replaced only once its promise settles.
   */
  beforeReplace?: () => void | Promise<void>;
  /**
   * Called after the rename when the file it replaced no longer held the
   * expected bytes: another program wrote it in the instant between the last
   * check and the rename. `bytes` is what that program wrote, which the
   * rename took off the disk; the caller keeps it (history) and says so.
   */
  onDisplaced?: (bytes: Uint8Array) => void | Promise<void>;
  /**
   * Called after the write has returned, when the file the rename replaced
   * changes after all: a program that opened it before the rename wrote into
   * it just after the last look. No path leads to those bytes any more; the
   * caller keeps them (history) and tells of them.
   */
  onDisplacedLate?: (bytes: Uint8Array) => void;
  /**
   * The caller is done with the path's writer lock once this write lands
   * (it would release it next): a workspace whose lock costs a round trip
   * to release lets it go in the write's own trip.
   */
  lastUnderLock?: boolean;
}

/**
 * What a workspace can do beyond moving bytes, declared by the workspace: a
 * tool asks these, never which class the workspace is. Each is false when
 * absent, so a workspace that declares nothing is served through its
 * methods alone (as memory and overlay workspaces are).
 */
export interface WorkspaceCapabilities {
  /**
   * Its paths are this machine's own files, exactly as a process started here
   * sees them: ripgrep can search a list of them, a root watch and language
   * servers see its writes, and their stamps (mtime, size) can key a symbol
   * index kept on disk.
   */
  readonly localFiles?: boolean;
  /**
   * Walking every file's stat is cheap enough to take a checkpoint of the
   * root (named checkpoints, what a `run` command changed): not so where
   * each stat is a round trip to another machine.
   */
  readonly statWalk?: boolean;
}

/** A command run where the files are (the run tool's). */
export interface ShellRunOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  graceMs: number;
  onOutput(chunk: Buffer): void;
  signal?: AbortSignal;
}

export interface ShellRunOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
}

/**
 * Processes started where a workspace's files are, when that is another
 * machine: a command and a search run there, not here.
 */
export interface WorkspaceShell {
  /** The machine's name, for messages. */
  readonly host: string;
  /**
   * Starts `command` in `cwd` there; it is stopped there when the returned
   * process's stdin ends (end it, or kill the process).
   */
  spawn(cwd: string, command: string): Promise<ChildProcessWithoutNullStreams>;
  /**
   * Runs `command` there, output as it comes, stopped there (its whole
   * group) on a timeout or an abort. Rejects with the signal's reason when
   * aborted.
   */
  runCommand(options: ShellRunOptions): Promise<ShellRunOutcome>;
}

/** A log being written as bytes come (a command's full output). */
export interface LogFile {
  /** Writes all of `bytes`; throws when the disk refuses (full, gone). */
  write(bytes: Uint8Array): void;
  close(): void;
}

export interface Workspace {
  /** A name for messages ("local", "memory", …); ask `capabilities`, not this, what it can do. */
  readonly kind: string;
  /** What it can do beyond bytes; absent: nothing more. */
  readonly capabilities?: WorkspaceCapabilities;
  /** Where commands and searches run when the files are on another machine; absent: here. */
  readonly shell?: WorkspaceShell;
  /** Follows symlinks; undefined when nothing is there. */
  stat(path: string): Promise<FileStat | undefined>;
  /** Throws WorkspaceError("missing") when the file does not exist. */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Replaces the file atomically (readers see the old or the new bytes, never
   * a mix), creating parent folders. A symlink at `path` is replaced, not
   * followed.
   */
  writeFile(path: string, bytes: Uint8Array, options?: WriteOptions): Promise<void>;
  /**
   * Runs `fn` holding the writer lock of `path`: other splice writers (in this
   * process or another) wait, so a read-compute-write step is never
   * interleaved with another one. Not re-entrant.
   */
  exclusive<T>(path: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Compare-and-swap: replaces the file only while its bytes still hash
   * (SHA-256, hex) to `expected` — `null` means it must not exist — and
   * returns false, writing nothing, when they do not. Call it inside
   * `exclusive` so other splice writers cannot slip in between; against
   * other programs it narrows the window to the instant of the rename.
   */
  writeIf(
    path: string,
    bytes: Uint8Array,
    expected: string | null,
    options?: WriteIfOptions,
  ): Promise<boolean>;
  /** Removes a file; no error when it is already gone. */
  remove(path: string): Promise<void>;
  /**
   * Compare-and-remove: removes the file only while its bytes still hash
   * (SHA-256, hex) to `expected`, and returns false, removing nothing, when
   * they do not (or nothing is there). Call it inside `exclusive`, like writeIf.
   */
  removeIf(path: string, expected: string): Promise<boolean>;
  readDir(path: string): Promise<DirEntry[]>;
  /**
   * Creates a log at `path`, in a folder of the state folder (`run`'s full
   * output), written as bytes come rather than held; throws when it cannot.
   * Absent where no such log is kept (memory, a remote root).
   */
  openLog?(path: string): LogFile;
  /** Keeps the newest `keep` logs (`*.log`) of `dir`, removing the older ones; never throws. */
  pruneLogs?(dir: string, keep: number): void;
  /**
   * A hint that about `count` writes are coming (a batch whose locks are
   * being taken), so a workspace can prepare for them meanwhile.
   */
  expectWrites?(count: number): void;
}

export type WorkspaceErrorKind = "missing" | "is_directory" | "not_a_file" | "escape" | "io";

export class WorkspaceError extends Error {
  readonly kind: WorkspaceErrorKind;
  readonly path: string;

  constructor(kind: WorkspaceErrorKind, path: string, message: string) {
    super(message);
    this.name = "WorkspaceError";
    this.kind = kind;
    this.path = path;
  }
}

/** Whether the file's bytes now hash (SHA-256, hex) to `expected`; null means there is no file. */
export async function holds(
  workspace: Workspace,
  path: string,
  expected: string | null,
): Promise<boolean> {
  const current = await workspace.readFile(path).catch((error: unknown) => {
    if (error instanceof WorkspaceError && error.kind === "missing") return null;
    throw error;
  });
  const actual = current && sha256(current);
  return actual === expected;
}

/**
 * The compare-and-swap of workspaces without a faster one of their own:
 * compare what is there now with `expected`, and only then let history
 * record and replace the file.
 */
export async function compareAndWrite(
  workspace: Workspace,
  path: string,
  bytes: Uint8Array,
  expected: string | null,
  options: WriteIfOptions,
): Promise<boolean> {
  if (!(await holds(workspace, path, expected))) return false;
  await options.beforeReplace?.();
  await workspace.writeFile(path, bytes, options);
  return true;
}

/** The compare-and-remove of workspaces whose remove is one step with nothing in between. */
export async function compareAndRemove(
  workspace: Workspace,
  path: string,
  expected: string,
): Promise<boolean> {
  if (!(await holds(workspace, path, expected))) return false;
  await workspace.remove(path);
  return true;
}

/** Runs steps for one key one after another within this process (a failed step does not block the next). */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return next;
  }
}
