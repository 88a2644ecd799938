/**
 * What a long-lived host connection (the MCP server, over stdio or HTTP)
 * keeps around its toolkits: one history session for the connection, the
 * client's name on every change, the roots' watches and the outside changes
 * they see, and the symbol index filled in the background. The host only
 * translates between its protocol and these; this module orchestrates.
 */
import { outsideLine } from "./render-outside.js";
import { RootSet, type RootSetOptions } from "./roots.js";
import type { Toolkit } from "./toolkit.js";

/** An error's message, or what it is. */
const lineOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface HostSessionOptions extends Omit<RootSetOptions, "history"> {
  history?: Omit<NonNullable<RootSetOptions["history"]>, "session">;
  /** The connection's history session (`mcp-<uuid>`): one agent's reads never vouch for another's edits. */
  session: string;
  /** Tells the host something to pass on (stderr, the client's log). */
  tell: (level: "notice" | "warning", line: string) => void;
}

/** How long after connecting the background index starts, so the first calls go first. */
const INDEX_DELAY_MS = 200;

export class HostSession {
  readonly session: string;
  readonly #options: Omit<HostSessionOptions, "session" | "tell">;
  readonly #tell: HostSessionOptions["tell"];
  /** The client's name: its changes carry it, so a person sees who made them. */
  #client: string | undefined;
  /** The set watched now; a set that replaces it stops its watches. */
  #watched: RootSet | undefined;
  #indexing = false;

  constructor(options: HostSessionOptions) {
    const { session, tell, ...rest } = options;
    this.session = session;
    this.#tell = tell;
    this.#options = rest;
  }

  /** The roots of this connection as one set, named for the client and watched; the set it replaces is unwatched. */
  open(paths: string[]): RootSet {
    const set = new RootSet(paths, {
      ...this.#options,
      history: { ...this.#options.history, session: this.session },
    });
    this.#name(set);
    return this.#watch(set);
  }

  /** The client's name from now on, on `set`'s toolkits and every set opened later. */
  nameClient(name: string | undefined, set: RootSet): void {
    this.#client = name;
    this.#name(set);
  }

  #name(set: RootSet): void {
    if (this.#client) for (const toolkit of set.toolkits) toolkit.nameClient(this.#client);
  }

  /**
   * Changes made outside splice are told as a notice; a root that is not
   * watched says why (when the watch option asked for one).
   */
  #watch(set: RootSet): RootSet {
    // Roots the client replaced are watched no longer (a call still running there walks instead).
    for (const toolkit of this.#watched?.toolkits ?? []) void this.#close(toolkit);
    this.#watched = set;
    for (const toolkit of set.toolkits) {
      toolkit.events.on((event) => {
        if (event.type === "outside_changes") {
          this.#tell("notice", outsideLine(toolkit.root, event));
        } else if (event.type === "background_failure") {
          this.#tell("warning", `${event.task}: ${event.message}`);
        }
      });
      void toolkit.watching().then((why) => {
        if (why && this.#options.watch)
          this.#tell("warning", `not watching ${toolkit.root}: ${why}`);
      });
    }
    return set;
  }

  /** Whether the set has a remote root, which a client's roots (its own machine's folders) never replace. */
  static remote(set: RootSet): boolean {
    return set.toolkits.some((t) => t.host !== undefined);
  }

  /**
   * Fills the first root's symbol index a few files at a time, paused while
   * `busy()`, until `stopped()`; once per connection, never for a remote
   * root (every file would be a round trip).
   */
  indexInBackground(set: RootSet, busy: () => boolean, stopped: () => boolean): void {
    const toolkit = set.toolkits[0];
    if (this.#indexing || !toolkit || toolkit.host !== undefined) return;
    this.#indexing = true;
    // The index only speeds up symbol lookups: a failure is told, and lookups walk instead.
    const build = () =>
      toolkit.buildIndex({ busy, stopped }).catch((error: unknown) => {
        this.#tell(
          "warning",
          `symbol index: filling the index of ${toolkit.root} stopped (${lineOf(error)}); symbol lookups read the files instead.`,
        );
      });
    setTimeout(build, INDEX_DELAY_MS).unref();
  }

  /** The largest message a host reads: twice the largest file, so any file fits JSON-escaped. */
  static maxMessageBytes(set: RootSet): number {
    return 2 * set.toolkits[0]!.maxFileBytes;
  }

  /** Stops the watches and flushes, for a connection that closed; a failure is told, never thrown. */
  async release(current: RootSet): Promise<void> {
    await Promise.all((this.#watched ?? current).toolkits.map((t) => this.#close(t)));
  }

  /** Closes a toolkit no call uses any more: a flush that failed is told (it has no caller). */
  async #close(toolkit: Toolkit): Promise<void> {
    try {
      await toolkit.close();
    } catch (error) {
      this.#tell(
        "warning",
        `flush: an fsync under ${toolkit.root} failed (${lineOf(error)}): the files are in place, but a power loss now could take the newest writes.`,
      );
    }
  }
}
