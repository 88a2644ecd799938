/**
 * The Workspace contract on another machine, through a Transport: each
 * operation is one script (scripts.ts) and one round trip, a
 * compare-and-swap that lets history record in between two. Only sh and
 * coreutils are needed there.
 */
import { posix } from "node:path";
import { ToolError } from "../../errors.js";
import { sha256 } from "../../util/hash.js";
import { REMOTE_UNROOTED_LOCKS, remoteLocksOf } from "../../util/state-folder.js";
import { tempName } from "../temp.js";
import {
  type DirEntry,
  type FileStat,
  KeyedQueue,
  type Workspace,
  type WorkspaceCapabilities,
  WorkspaceError,
  type WriteIfOptions,
  type WriteOptions,
} from "../workspace.js";
import { failedError, refusedError } from "./remote-errors.js";
import { RemoteShell } from "./remote-shell.js";
import {
  discardScript,
  lockScript,
  readDirScript,
  readScript,
  removeIfScript,
  removeScript,
  rootScript,
  statScript,
  swapScript,
  unlockScript,
  type WriteArgs,
  writeIfScript,
  writeScript,
} from "./scripts.js";
import type { RunResult, Transport } from "./transport.js";

export interface RemoteWorkspaceOptions {
  /**
   * Every path must resolve (links followed there, with realpath) inside
   * this folder of the remote machine; the rest are refused as "escape".
   */
  confineTo?: string;
  /** confineTo's real path there, when already known (realRoot then asks nothing). */
  realRoot?: string;
  /** Where the writer locks live there; default the state folder's `locks` in confineTo, else REMOTE_UNROOTED_LOCKS. */
  lockDir?: string;
}

const KINDS: Record<string, DirEntry["kind"]> = {
  f: "file",
  d: "directory",
  l: "symlink",
  o: "other",
};

/** One answer: its status line split in words, and the bytes after it. */
interface Answer {
  status: string[];
  body: Buffer;
}

export class RemoteWorkspace implements Workspace {
  readonly kind = "remote";
  /** Each stat is a round trip: its files are not walked. */
  readonly capabilities: WorkspaceCapabilities = {};
  /** Commands and searches run on that machine. */
  readonly shell: RemoteShell;
  readonly #queue = new KeyedQueue();
  readonly #lockDir: string;
  #root: Promise<string> | undefined;

  constructor(
    readonly transport: Transport,
    readonly options: RemoteWorkspaceOptions = {},
  ) {
    const confine = options.confineTo;
    this.#lockDir = options.lockDir ?? (confine ? remoteLocksOf(confine) : REMOTE_UNROOTED_LOCKS);
    if (options.realRoot !== undefined) this.#root = Promise.resolve(options.realRoot);
    this.shell = new RemoteShell(transport, () => this.realRoot());
  }

  get host(): string {
    return this.transport.name;
  }

  /** The confining folder's real path there (links and `~` resolved once), "" when unconfined. */
  realRoot(): Promise<string> {
    const confine = this.options.confineTo;
    if (!confine) return Promise.resolve("");
    this.#root ??= this.transport
      .run(rootScript(confine))
      .then((result) => this.#rootOf(result, confine));
    this.#root.catch(() => {
      this.#root = undefined; // the next call asks again
    });
    return this.#root;
  }

  /** realRoot(), waiting for the one trip: a toolkit is built synchronously. */
  realRootSync(): string {
    const confine = this.options.confineTo;
    if (!confine) return "";
    const real = this.#rootOf(this.transport.runSync(rootScript(confine)), confine);
    this.#root = Promise.resolve(real);
    return real;
  }

  #rootOf(result: RunResult, confine: string): string {
    const { status } = split(result);
    if (result.code !== 0) throw failedError(this.host, result, confine);
    if (status[0] === "E" && status[1] !== "missing") {
      throw refusedError(this.host, status, confine, result.stderr);
    }
    if (status[0] !== "OK") {
      throw new ToolError(
        "not_found",
        `The folder ${this.host}:${confine} does not exist there. Create it, or give another folder as the root.`,
        { path: `${this.host}:${confine}`, host: this.host },
      );
    }
    return status.slice(1).join(" ");
  }

  /**
   * What one trip saw of a file: a stat answers with the bytes of a small
   * file (and so does taking a lock), and the read that follows it in the
   * same call takes them instead of asking again. Each is used once, within
   * SNAPSHOT_MS, and dropped by any change made through this workspace.
   */
  readonly #snapshots = new Map<string, Snapshot>();

  #remember(path: string, answer: Answer, statUsed: boolean): FileStat | undefined {
    const stat = statOf(answer.status);
    if (stat && answer.status[5] === "B") {
      this.#snapshots.set(path, { stat, bytes: answer.body, at: Date.now(), statUsed });
    } else this.#snapshots.delete(path);
    return stat;
  }

  #fresh(path: string): Snapshot | undefined {
    const snapshot = this.#snapshots.get(path);
    if (snapshot && Date.now() - snapshot.at <= SNAPSHOT_MS) return snapshot;
    this.#snapshots.delete(path);
    return undefined;
  }

  #taken(path: string): Buffer | undefined {
    const snapshot = this.#fresh(path);
    this.#snapshots.delete(path);
    return snapshot?.bytes;
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const snapshot = this.#fresh(path);
    if (snapshot && !snapshot.statUsed) {
      snapshot.statUsed = true;
      return { ...snapshot.stat };
    }
    return this.#remember(path, await this.#run(path, (root) => statScript(root, path)), true);
  }

  async readFile(path: string): Promise<Uint8Array> {
    const taken = this.#taken(path);
    if (taken) return new Uint8Array(taken.buffer, taken.byteOffset, taken.length);
    const { status, body } = await this.#run(path, (root) => readScript(root, path));
    if (status[0] === "M") throw new WorkspaceError("missing", path, `${path} does not exist`);
    return new Uint8Array(body.buffer, body.byteOffset, body.length);
  }

  async writeFile(path: string, bytes: Uint8Array, options: WriteOptions = {}): Promise<void> {
    this.#snapshots.delete(path);
    this.#wrote(path, undefined);
    const w = writeArgs(path, bytes, options);
    await this.#run(path, (root) => writeScript(root, w), bytes);
    this.#wrote(path, sha256(bytes));
  }

  exclusive<T>(path: string, fn: () => Promise<T>): Promise<T> {
    return this.#queue.run(path, async () => {
      const name = `${sha256(path).slice(0, 32)}.lock`;
      const answer = await this.#run(this.#lockDir, (root) =>
        lockScript(root, this.#lockDir, name, path),
      );
      // After the lock's `OK`, the file as it is now (a refusal there is the step's to say).
      const snapshot = splitAnswer(answer.body);
      const held: Held = { lock: posix.join(this.#lockDir, name), released: false };
      if (snapshot.status[0] === "OK") {
        this.#remember(path, snapshot, false);
        if (snapshot.status[1] === "file" && snapshot.status[5] === "B") {
          held.sha = sha256(snapshot.body);
        }
      } else if (snapshot.status[0] === "M") held.sha = null;
      this.#held.set(path, held);
      try {
        return await fn();
      } finally {
        this.#held.delete(path);
        if (!held.released) {
          await this.transport.run(unlockScript(this.#lockDir, name)).catch(() => {});
        }
      }
    });
  }

  /**
   * The writer locks this workspace holds, by path, with the hash of the
   * file as it was when the lock was taken (null: no file; undefined: not
   * known, too big to come along), kept up to date by its own writes.
   */
  readonly #held = new Map<string, Held>();

  #wrote(path: string, sha: string | null | undefined): void {
    const held = this.#held.get(path);
    if (held) held.sha = sha;
  }

  /**
   * A compare-and-swap in one trip when the path's lock is held and the
   * file's hash at the lock is known: that hash is compared here, history
   * records (beforeReplace, on this machine), and one script stages,
   * compares again there (a program outside splice may have written since),
   * swaps, and lets the lock go when this is the last write under it.
   * Otherwise two: stage and compare, then (after beforeReplace) swap.
   */
  async writeIf(
    path: string,
    bytes: Uint8Array,
    expected: string | null,
    options: WriteIfOptions = {},
  ): Promise<boolean> {
    this.#snapshots.delete(path);
    const w = writeArgs(path, bytes, options);
    const want = expected ?? "null";
    const held = this.#held.get(path);
    const releasing = held && !held.released && options.lastUnderLock ? held : undefined;
    // The lock is the script's to let go from the moment it is sent (answered or cut off:
    // a lock left by a lost connection is broken after a minute).
    const unlock = () => {
      if (!releasing) return "";
      releasing.released = true;
      return releasing.lock;
    };
    const known = held?.sha !== undefined;
    if (known && held.sha !== expected) return false;
    let answer: Answer;
    if (known || !options.beforeReplace) {
      await options.beforeReplace?.();
      answer = await this.#run(path, (root) => writeIfScript(root, w, want, true, unlock()), bytes);
    } else {
      const first = await this.#run(path, (root) => writeIfScript(root, w, want, false), bytes);
      if (first.status[0] === "R") return false;
      try {
        await options.beforeReplace();
      } catch (error) {
        await this.#run(path, (root) => discardScript(root, w.dir, w.temp, unlock())).catch(
          () => {},
        );
        throw error;
      }
      answer = await this.#run(path, (root) => swapScript(root, w, want, unlock()));
    }
    if (answer.status[0] === "R") {
      this.#wrote(path, undefined);
      return false;
    }
    this.#wrote(path, sha256(bytes));
    return this.#displaced(answer, options);
  }

  async #displaced(answer: Answer, options: WriteIfOptions): Promise<boolean> {
    if (answer.status[1] === "D") await options.onDisplaced?.(new Uint8Array(answer.body));
    return true;
  }

  async remove(path: string): Promise<void> {
    this.#snapshots.delete(path);
    this.#wrote(path, undefined);
    const dir = posix.dirname(path);
    await this.#run(path, (root) => removeScript(root, dir, posix.basename(path)));
    this.#wrote(path, null);
  }

  async removeIf(path: string, expected: string): Promise<boolean> {
    this.#snapshots.delete(path);
    const dir = posix.dirname(path);
    const name = posix.basename(path);
    this.#wrote(path, undefined);
    const { status } = await this.#run(path, (root) =>
      removeIfScript(root, dir, name, expected, tempName(name)),
    );
    if (status[0] === "OK") this.#wrote(path, null);
    return status[0] === "OK";
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const { status, body } = await this.#run(path, (root) => readDirScript(root, path));
    if (status[0] === "M") throw new WorkspaceError("missing", path, `${path} does not exist`);
    const entries: DirEntry[] = [];
    for (const item of body.toString("utf8").split("\0")) {
      if (item.length < 3) continue;
      entries.push({ name: item.slice(2), kind: KINDS[item[0]!] ?? "other" });
    }
    return entries;
  }

  /** Runs one operation's script on the real root, and turns its refusals into errors. */
  async #run(path: string, script: (root: string) => string, stdin?: Uint8Array): Promise<Answer> {
    return this.#ask(script(await this.realRoot()), path, stdin);
  }

  async #ask(script: string, path: string, stdin?: Uint8Array): Promise<Answer> {
    const result = await this.transport.run(script, stdin ? { stdin } : {});
    const answer = split(result);
    if (result.code !== 0) throw failedError(this.host, result, path);
    if (answer.status[0] === "E") throw refusedError(this.host, answer.status, path, result.stderr);
    return answer;
  }
}

function writeArgs(path: string, bytes: Uint8Array, options: WriteOptions): WriteArgs {
  const name = posix.basename(path);
  return {
    dir: posix.dirname(path),
    name,
    temp: tempName(name),
    size: bytes.length,
    mode: options.mode,
  };
}

/** A snapshot's lifetime: long enough for the read after a stat in one call, no longer. */
const SNAPSHOT_MS = 2000;

interface Held {
  /** The lock folder's path there. */
  lock: string;
  sha?: string | null;
  /** A write's script let it go already. */
  released: boolean;
}

interface Snapshot {
  stat: FileStat;
  bytes: Buffer;
  at: number;
  /** A stat was answered from it already: the next one asks again. */
  statUsed: boolean;
}

function statOf(status: string[]): FileStat | undefined {
  if (status[0] !== "OK") return undefined;
  const [, kind, size, mode, mtime] = status;
  return {
    kind: kind as FileStat["kind"],
    size: Number(size),
    mode: Number.parseInt(mode!, 8),
    mtimeMs: Number(mtime) * 1000,
  };
}

/** The status line (the first) in words, and the bytes after it. */
function split(result: RunResult): Answer {
  return splitAnswer(result.stdout);
}

function splitAnswer(out: Buffer): Answer {
  const nl = out.indexOf(10);
  const line = (nl === -1 ? out : out.subarray(0, nl)).toString("utf8");
  return { status: line.split(" "), body: nl === -1 ? Buffer.alloc(0) : out.subarray(nl + 1) };
}
