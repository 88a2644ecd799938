/**
 * Per-root state, made once per process and shared by every toolkit on that
 * root with the same options: the guard, the workspace, the history store
 * (its index, its journal appender) and the root's watch. A server with many
 * sessions, or the engine with many commands, pays for a root once; what is
 * per session (whose reads vouch for whose edits, the client's name, the
 * event bus a session hears) stays in each toolkit.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { OutsideWatch } from "../checkpoint/outside.js";
import { closeWalkCache } from "../codebase/symbol-index-walk.js";
import { EventBus } from "../events.js";
import { type GuardScope, PathGuard } from "../guard/path-guard.js";
import { History } from "../history/history.js";
import { type Durability, durabilityOf } from "../util/durable.js";
import { remoteMirrorOf, stateFolderOf, stateLayout } from "../util/state-folder.js";
import { LocalWorkspace } from "../workspace/local.js";
import { type Remotes, remotePath, transportFor } from "../workspace/remote/hosts.js";
import { RemoteWorkspace } from "../workspace/remote/remote-workspace.js";
import type { Workspace } from "../workspace/workspace.js";

/** The part of ToolkitOptions (options.ts, where each is described) a root's state is made from. */
export interface ProjectOptions extends GuardScope {
  root: string;
  remotes?: Remotes;
  workspace?: Workspace;
  durable?: boolean | Durability;
  history?: {
    dir?: string;
    maxBytes?: number;
    maxEntries?: number;
    max_bytes?: number;
    max_entries?: number;
  };
  read_allowlist?: string[];
  read_blocklist?: string[];
}

export interface Project {
  readonly guard: PathGuard;
  readonly workspace: Workspace;
  /** The store seen as the `outside` session; each toolkit takes its own session's view. */
  readonly history: History;
  /** Outside changes the root's watch found, for every toolkit on the root to pass on. */
  readonly events: EventBus;
  /** The root's watch, once one runs. */
  readonly rootWatch: OutsideWatch | undefined;
  /**
   * Starts the root's watch once for a toolkit that wants it; resolves with
   * why there is none, or undefined once it runs.
   */
  watch(): Promise<string | undefined>;
  /**
   * A toolkit done with the project (`watched`: it had asked for the watch):
   * the last watcher out stops the watch, the last toolkit out closes the
   * rest (unless kept warm).
   */
  release(watched: boolean): Promise<void>;
}

/** Open projects by their key; weak, so toolkits nobody closes still let theirs go. */
const open = new Map<string, WeakRef<SharedProject>>();
const forget = new FinalizationRegistry<string>((key) => {
  if (!open.get(key)?.deref()) open.delete(key);
});
/** How long a project nobody uses stays open (the engine keeps roots warm); 0: closed at once. */
let warmMs = 0;

/** Keeps a root's state (its watch, its index) this long after its last toolkit closed. */
export function keepProjectsWarm(ms: number): void {
  warmMs = ms;
}

/** The open project for these options, or a new one; every call must be paired with release(). */
export function openProject(options: ProjectOptions): Project {
  const key = projectKey(options);
  const found = key === undefined ? undefined : open.get(key)?.deref();
  if (found && !found.closed) return found.acquire();
  const project = new SharedProject(options, key);
  if (key !== undefined) {
    open.set(key, new WeakRef(project));
    forget.register(project, key);
  }
  return project.acquire();
}

/** The roots this process holds open (the engine's status, tests). */
export function openProjectRoots(): string[] {
  return [...open.values()].flatMap((ref) => {
    const project = ref.deref();
    return project && !project.closed ? [project.guard.root] : [];
  });
}

class SharedProject implements Project {
  readonly guard: PathGuard;
  readonly workspace: Workspace;
  readonly history: History;
  readonly events = new EventBus();
  rootWatch: OutsideWatch | undefined;
  closed = false;
  #users = 0;
  #watching: Promise<string | undefined> | undefined;
  #watchers = 0;
  #cooling: NodeJS.Timeout | undefined;

  constructor(
    options: ProjectOptions,
    readonly key: string | undefined,
  ) {
    const made = makeState(options);
    this.guard = made.guard;
    this.workspace = made.workspace;
    this.history = made.history;
  }

  acquire(): this {
    this.#users++;
    clearTimeout(this.#cooling);
    return this;
  }

  watch(): Promise<string | undefined> {
    this.#watchers++;
    this.#watching ??= this.#startWatch();
    return this.#watching;
  }

  /** Stops the watch: nobody wants it now (a toolkit never closed must not keep it running). */
  async #unwatch(): Promise<void> {
    const watching = this.#watching;
    this.#watching = undefined;
    await watching;
    const watch = this.rootWatch;
    this.rootWatch = undefined;
    await watch?.close();
  }

  async #startWatch(): Promise<string | undefined> {
    if (!this.workspace.capabilities?.localFiles) return "only a local root is watched";
    if (this.history.unavailable) return "history is unavailable";
    try {
      // Outside versions get a session of their own: they vouch for no model's edit.
      const { guard, workspace, history, events } = this;
      this.rootWatch = await OutsideWatch.start({
        guard,
        workspace,
        history,
        events,
        outsideHistory: history,
      });
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  async release(watched: boolean): Promise<void> {
    const warm = warmMs > 0 && this.key !== undefined;
    if (watched && --this.#watchers === 0 && !warm) await this.#unwatch();
    if (--this.#users > 0 || this.closed) return;
    if (warm) {
      // The timer holds the project, so the weak map still finds it while warm.
      this.#cooling = setTimeout(() => void this.#close(), warmMs);
      this.#cooling.unref();
      return;
    }
    return this.#close();
  }

  async #close(): Promise<void> {
    if (this.#users > 0 || this.closed) return;
    this.closed = true;
    if (this.key !== undefined && open.get(this.key)?.deref() === this) open.delete(this.key);
    closeWalkCache(this.guard);
    await this.#unwatch();
  }
}

/** The guard, workspace and history of a root, as createContext made them before they were shared. */
function makeState(o: ProjectOptions): Pick<Project, "guard" | "workspace" | "history"> {
  const remote = remoteRoot(o);
  const guard = new PathGuard({
    root: remote?.root ?? resolve(o.root),
    ...(remote ? { host: remote.workspace.host } : {}),
    historyDir: o.history?.dir,
    base: o.base,
    confine: o.confine,
    allowlist: o.allowlist,
    blocklist: o.blocklist,
    readAllowlist: o.readAllowlist ?? o.read_allowlist,
    readBlocklist: o.readBlocklist ?? o.read_blocklist,
  });
  const historyDir =
    o.history?.dir ??
    (remote ? remoteMirrorOf(remote.workspace.host, guard.root) : stateFolderOf(guard.root));
  const layout = stateLayout(historyDir);
  const durable = durabilityOf(o.durable, process.env.SPLICE_DURABLE);
  // One pool of spare inodes for the workspace's writes and history's blobs.
  const sparesDir = layout.spares;
  const history = History.open({
    dir: historyDir,
    // A remote root's history is on this machine: no local folder holds it in.
    ...(remote ? {} : { root: guard.root }),
    session: "outside",
    maxBytes: o.history?.maxBytes ?? o.history?.max_bytes,
    maxEntries: o.history?.maxEntries ?? o.history?.max_entries,
    fsync: durable !== "none",
    relaxed: durable === "relaxed",
    sparesDir,
  });
  const workspace =
    o.workspace ??
    remote?.workspace ??
    new LocalWorkspace({ confineTo: guard.root, lockDir: layout.locks, sparesDir, durable });
  return { guard, workspace, history };
}

/**
 * A root written `HOST:PATH`: its workspace there, and its real path (one
 * round trip now, so a missing folder or a host out of reach is said at once).
 */
function remoteRoot(o: ProjectOptions): { workspace: RemoteWorkspace; root: string } | undefined {
  const at = remotePath(o.root, o.remotes);
  if (!at || !o.remotes) return undefined;
  const transport = transportFor(at.host, o.remotes);
  const probe = new RemoteWorkspace(transport, { confineTo: at.path });
  const root = probe.realRootSync();
  return { workspace: new RemoteWorkspace(transport, { confineTo: root, realRoot: root }), root };
}

const identities = new WeakMap<object, number>();
let made = 0;
const identity = (o: object) => {
  if (!identities.has(o)) identities.set(o, ++made);
  return identities.get(o);
};

/**
 * What makes two toolkits' roots the same state: the real root and every
 * option the guard, the workspace and history are made from. A workspace a
 * caller made is shared only with toolkits given that very object.
 */
function projectKey(o: ProjectOptions): string | undefined {
  const at = remotePath(o.root, o.remotes);
  let root: string;
  try {
    root = at ? `${at.host}:${at.path}` : realpathSync(resolve(o.root));
  } catch {
    return undefined; // a missing root: the guard says so with its own sentence
  }
  return JSON.stringify([
    root,
    at && o.remotes ? o.remotes[at.host] : undefined,
    o.workspace ? identity(o.workspace) : undefined,
    o.history?.dir,
    o.history?.maxBytes ?? o.history?.max_bytes,
    o.history?.maxEntries ?? o.history?.max_entries,
    durabilityOf(o.durable, process.env.SPLICE_DURABLE),
    o.base,
    o.confine,
    o.allowlist,
    o.blocklist,
    o.readAllowlist ?? o.read_allowlist,
    o.readBlocklist ?? o.read_blocklist,
  ]);
}
