/**
 * The layout of splice's state folder, `.splice/`, in one place: where
 * history's blobs, packs and journal live, the writer locks, the spare
 * inodes, `run`'s logs, the agent's transcripts, the symbol index and named
 * checkpoints, and how the temp files written there are named and known. A
 * local root keeps it at `<root>/.splice`; a remote root keeps it on this
 * machine (its mirror, under the XDG state folder); the history option may
 * name another folder. Everything else asks this module, never spells a path.
 */
import { homedir } from "node:os";
import { join, posix } from "node:path";
import { randomId } from "./ids.js";

/** The state folder's name in a project root. */
export const STATE_FOLDER = ".splice";

/** Names a walk, a watch or a checkpoint never descends into: git's and splice's own state. */
export const STATE_FOLDERS: readonly string[] = [".git", STATE_FOLDER];

/** `<root>/.splice`: a local root's state folder. */
export const stateFolderOf = (root: string): string => join(root, STATE_FOLDER);

/** The writer locks of a remote machine's root, kept there beside its files (posix paths). */
export const remoteLocksOf = (root: string): string => posix.join(root, STATE_FOLDER, "locks");

/**
 * A remote root's state on this machine:
 * `$XDG_STATE_HOME/splice/remotes/HOST/<root's path>` (default state home
 * `~/.local/state`), so two hosts' roots of the same path stay apart.
 */
export function remoteMirrorOf(host: string, root: string): string {
  const state = process.env.XDG_STATE_HOME || join(homedir(), ".local", "state");
  return join(state, "splice", "remotes", host, ...posix.resolve(root).split("/").filter(Boolean));
}

/** The project's settings (`remotes`): `<root>/.splice/config.json`. */
export const configFileOf = (root: string): string => join(stateFolderOf(root), "config.json");

/** Where the agent keeps its conversations: `<root>/.splice/agents/`. */
export const agentsFolderOf = (root: string): string => join(stateFolderOf(root), "agents");

/** The parts of one state folder (`dir`: `<root>/.splice`, a remote root's mirror, or the history option's folder). */
export function stateLayout(dir: string) {
  const blobs = join(dir, "blobs");
  return {
    dir,
    /** Content-addressed blobs, in two-hex fan-out folders. */
    blobs,
    /** Packs of small blobs. */
    packs: join(blobs, PACKS_FOLDER),
    /** History's append-only journal. */
    journal: join(dir, JOURNAL_FILE),
    /** The journal's running totals, so a large journal is read a path at a time. */
    totals: join(dir, "index-totals.json"),
    /** Keeps the state folder out of git. */
    gitignore: join(dir, ".gitignore"),
    /** Named checkpoints. */
    checkpoints: join(dir, "checkpoints"),
    /** History's lock (one compaction at a time). */
    historyLock: join(dir, HISTORY_LOCK_FILE),
    /** Writer locks. */
    locks: join(dir, "locks"),
    /** Spare inodes made ahead for writes and blobs. */
    spares: join(dir, "spares"),
    /** `run`'s full output logs. */
    runs: join(dir, "runs"),
    /** The symbol index. */
    index: join(dir, "index"),
  };
}

export type StateLayout = ReturnType<typeof stateLayout>;

/** History's journal file name. */
export const JOURNAL_FILE = "journal.jsonl";

/** History's lock file (one compaction at a time), in the state folder. */
export const HISTORY_LOCK_FILE = "lock";

/** The packs' folder among the blob store's fan-out folders. */
export const PACKS_FOLDER = "packs";

/** Writer locks on a remote machine without a confining root. */
export const REMOTE_UNROOTED_LOCKS = "/tmp/splice-locks";

/**
 * The name of a temp file written in the state folder:
 * `.tmp-LABEL-PID-START-ID`. It starts with "." so blob listings skip it by
 * name, and says who wrote it (pid and start time, as locks do), so a
 * leftover of a killed writer is known to be one.
 */
export function stateTempName(label: string, writer: { pid: number; start: string }): string {
  return `.tmp-${label}-${writer.pid}-${writer.start}-${randomId(6)}`;
}

/** The current form, and the older one without a start time. */
const STATE_TEMP_NAME = /^\.tmp-[a-z]+-(\d+)-(?:(\d+)-)?[0-9a-f]{12}$/;

/** The writer a state-folder temp name carries (start undefined in the older form), or undefined for another name. */
export function stateTempWriter(name: string): { pid: number; start?: string } | undefined {
  const m = STATE_TEMP_NAME.exec(name);
  if (!m) return undefined;
  return { pid: Number(m[1]), ...(m[2] !== undefined ? { start: m[2] } : {}) };
}
