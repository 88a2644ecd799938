/**
 * Several project roots behind one set of tools, the way an MCP client's
 * roots arrive: one toolkit per root, every call routed to the root its
 * paths are in. Calls run side by side; two writers of one file take turns
 * inside the engine (Workspace.exclusive), so nothing is serialized here.
 */
import { randomUUID } from "node:crypto";
import { isAbsolute, posix, resolve } from "node:path";
import { ToolError } from "../errors.js";
import { EVERYTHING, type RootRouter } from "../tools/define.js";
import { newBackupId } from "../util/ids.js";
import { isInside } from "../util/paths.js";
import { remotePath } from "../workspace/remote/hosts.js";
import type { ToolkitOptions } from "./options.js";
import { type CallOptions, createToolkit, type ParsedCall, type Toolkit } from "./toolkit.js";

export type RootSetOptions = Omit<ToolkitOptions, "root">;

interface Entry {
  /** The root as given (a client may name it through a link); the toolkit holds the real path. */
  given: string;
  toolkit: Toolkit;
  /** The remote host the root is on (a root written HOST:PATH); undefined here. */
  host: string | undefined;
}

export class RootSet {
  readonly #entries: Entry[];
  readonly session: string;

  /**
   * Every root shares one history session, so a read vouches for an edit in
   * whichever root the file lives. Duplicate roots (by real path) are kept once.
   */
  constructor(roots: string[], options: RootSetOptions = {}) {
    if (roots.length === 0) throw new Error("A RootSet needs at least one root.");
    this.session = options.history?.session ?? `lib-${randomUUID()}`;
    const history = { ...options.history, session: this.session };
    const entries: Entry[] = [];
    for (const root of roots) {
      const toolkit = createToolkit({ ...options, root, history });
      const host = toolkit.context.guard.host;
      if (entries.some((e) => e.toolkit.root === toolkit.root && e.host === host)) continue;
      entries.push({ given: host ? toolkit.root : resolve(root), toolkit, host });
    }
    this.#entries = entries;
    this.#remotes = options.remotes;
  }

  readonly #remotes: RootSetOptions["remotes"];

  /** Real paths of the roots; the first is where relative paths start. */
  get roots(): string[] {
    return this.#entries.map((e) => e.toolkit.root);
  }

  get toolkits(): Toolkit[] {
    return this.#entries.map((e) => e.toolkit);
  }

  get tools(): Toolkit["tools"] {
    return this.#entries[0]!.toolkit.tools;
  }

  /** The innermost root holding an absolute path (`HOST:PATH` one on that host), if any. */
  #owner(written: string): Entry | undefined {
    const remote = remotePath(written, this.#remotes);
    const path = remote ? posix.resolve(remote.path) : resolve(written);
    let best: Entry | undefined;
    let depth = -1;
    for (const entry of this.#entries) {
      if (entry.host !== remote?.host) continue;
      for (const root of [entry.toolkit.root, entry.given]) {
        if (isInside(root, path) && root.length > depth) [best, depth] = [entry, root.length];
      }
    }
    return best;
  }

  /**
   * Which toolkit runs a call: relative paths start at the first root, an
   * absolute path picks the innermost root that holds it. A path in no root
   * goes to the first root, whose guard refuses it with its own sentence.
   * Throws ToolError for an unknown tool, bad arguments, or paths in two roots.
   */
  route(name: string, args: unknown): Toolkit {
    return this.#route(this.#entries[0]!.toolkit.parse(name, args));
  }

  /** route() for a call parsed already. */
  #route({ tool, args }: ParsedCall): Toolkit {
    const first = this.#entries[0]!;
    const footprint = tool.footprint(args);
    const owners = new Map<Entry, string>();
    for (const path of [...footprint.reads, ...footprint.writes]) {
      if (path === EVERYTHING) continue;
      const named = isAbsolute(path) || remotePath(path, this.#remotes) !== undefined;
      const owner = named ? this.#owner(path) : first;
      if (!owner) return first.toolkit;
      if (!owners.has(owner)) owners.set(owner, path);
    }
    if (owners.size > 1) throw crossRoot(owners, first.toolkit.root);
    return (owners.keys().next().value ?? first).toolkit;
  }

  /**
   * Routes, validates and runs a call; throws ToolError like Toolkit.call.
   * With several roots a plan's steps reach every root (ToolContext.roots),
   * and an undo of a session that wrote in several roots undoes it in each.
   */
  async call(name: string, args: unknown, options?: CallOptions): Promise<unknown> {
    // One root takes every call: routing would only validate the arguments a second time.
    if (this.#entries.length === 1) return this.#entries[0]!.toolkit.call(name, args, options);
    // Parsed once: the root it routes to runs it as it is.
    const call = this.#entries[0]!.toolkit.parse(name, args);
    const toolkit = this.#route(call);
    if (name === "undo") return this.#undo(toolkit, call, options);
    return toolkit.run(call, { ...options, roots: this.#router });
  }

  /** A call's context in the root its paths are in, joining backup session `backup`. */
  readonly #router: RootRouter = (name, args, backup) => {
    const toolkit = this.route(name, args);
    const registry = { tools: toolkit.tools, find: toolkit.find };
    return { ...toolkit.context, registry, backup, roots: this.#router };
  };

  /**
   * Undo across roots: the session named (else the newest undoable one of
   * any root) is undone in every root whose history holds it — a plan that
   * wrote in two roots recorded one session id in both — and that undo is
   * itself one session id in each, so undoing it redoes all.
   */
  async #undo(routed: Toolkit, call: ParsedCall, options?: CallOptions): Promise<unknown> {
    const parsed = call.args as {
      backup_session?: string;
      path?: string;
      list?: boolean;
      all_sessions?: boolean;
    };
    if (parsed.list || parsed.path !== undefined) return routed.run(call, options);
    const id = parsed.backup_session ?? (await this.#newestUndoable(parsed.all_sessions));
    const holders = this.#entries.filter((e) =>
      e.toolkit.context.history.backups().some((b) => b.id === id),
    );
    if (id === undefined || holders.length < 2) {
      const one = holders[0]?.toolkit ?? routed;
      if (id === undefined) return one.run(call, options);
      return one.call("undo", { ...parsed, backup_session: id }, options);
    }
    // Every root's revert is planned first: a conflict in one root undoes nothing in any.
    for (const entry of holders) {
      try {
        await entry.toolkit.call("undo", { ...parsed, backup_session: id, mode: "preview" });
      } catch (error) {
        if (!(error instanceof ToolError) || error.code !== "not_found") throw error;
      }
    }
    const backup = newBackupId();
    const done: UndoResult[] = [];
    const failed: string[] = [];
    for (const entry of holders) {
      try {
        const call = { ...parsed, backup_session: id };
        done.push((await entry.toolkit.call("undo", call, { ...options, backup })) as UndoResult);
      } catch (error) {
        // Part of the session undone already (its file undone alone): the other roots still go.
        if (!(error instanceof ToolError) || error.code !== "not_found") throw error;
        failed.push(`${entry.toolkit.root}: ${error.message}`);
      }
    }
    if (done.length === 0) throw new ToolError("not_found", failed.join("\n"));
    const wrote = done.some((r) => r.backup_session !== undefined);
    return {
      undone: id,
      ...(wrote ? { backup_session: backup } : {}),
      applied: done.every((r) => r.applied),
      files: done.flatMap((r) => r.files),
      content: done.map((r) => r.content).join("\n"),
      ...(failed.length > 0 ? { warnings: failed } : {}),
    };
  }

  /** The newest backup session any root could undo (the undo tool's default, across roots). */
  async #newestUndoable(allSessions: boolean | undefined): Promise<string | undefined> {
    let newest: { id: string; at: string } | undefined;
    for (const entry of this.#entries) {
      const listed = (await entry.toolkit.call("undo", {
        list: true,
        limit: 50,
        ...(allSessions ? { all_sessions: true } : {}),
      })) as { sessions: Listed[] };
      const open = listed.sessions.find((s) => !s.undone && !s.is_undo && s.files.length > 0);
      if (open && (!newest || open.at > newest.at))
        newest = { id: open.backup_session, at: open.at };
    }
    return newest?.id;
  }
}

/** What undo's list says of a session, as far as picking the newest undoable one needs. */
interface Listed {
  backup_session: string;
  at: string;
  undone: boolean;
  is_undo: boolean;
  files: unknown[];
}

/** What an undo answers (the fields merged across roots). */
interface UndoResult {
  undone: string;
  backup_session?: string;
  applied: boolean;
  files: unknown[];
  content: string;
}

function crossRoot(owners: Map<Entry, string>, first: string): ToolError {
  const where = [...owners].map(([entry, path]) => `'${path}' is in ${entry.toolkit.root}`);
  return new ToolError(
    "guard",
    `This call names files in different roots: ${where.join(" and ")}. One call works in one root: split it into one call per root. Relative paths start at the first root (${first}); give files in the other roots as absolute paths.`,
    { reason: "cross_root", roots: [...owners.keys()].map((e) => e.toolkit.root) },
  );
}
