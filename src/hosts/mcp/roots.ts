/**
 * The MCP roots protocol, client side of the story: when the client offers
 * roots, its file:// roots replace the configured root. They are asked for
 * lazily, by the first tool call after `initialized` or after
 * `notifications/roots/list_changed`, and the question travels with that
 * call: over Streamable HTTP a request tied to a call rides on the call's
 * own response stream, while a free-standing one needs a GET stream the
 * client may not have opened yet (and would then never be answered).
 */
import { realpathSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ErrorCode, type ListRootsResult, McpError } from "@modelcontextprotocol/sdk/types.js";
import { ToolError } from "../../errors.js";
import type { RootSet } from "../../toolkit/index.js";
import { isInside } from "../../util/paths.js";

/**
 * How long a call waits for the client's roots. A client may declare roots
 * and never answer roots/list; the call that asked then runs on the
 * configured root after this wait, and no later call asks again until the
 * client says its roots changed. Clients on this machine answer in
 * milliseconds.
 */
export const ROOTS_TIMEOUT_MS = 1_000;

/** Asks the client for its roots (within the call that needs them). */
export type AskRoots = () => Promise<ListRootsResult>;

/**
 * The local path a root names, or undefined for one this machine cannot
 * open: another scheme, or a file URL with a host (file://build-server/src).
 */
function localPath(uri: string): string | undefined {
  if (!uri.startsWith("file://")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/**
 * The real path client roots must stay in, or undefined for no bound.
 * Throws a ToolError when it does not exist or does not hold `root`.
 */
export function rootsBound(root: string, within: string | undefined): string | undefined {
  if (within === undefined) return undefined;
  const real = (path: string, what: string) => {
    try {
      return realpathSync(path);
    } catch {
      throw new ToolError("not_found", `${what} ${path} does not exist. Pass an existing folder.`);
    }
  };
  const bound = real(within, "--roots-within");
  if (!isInside(bound, real(root, "The root"))) {
    throw new ToolError(
      "invalid_input",
      `The root ${root} is outside --roots-within ${within}. Pass a root inside it, or a --roots-within folder that holds the root.`,
    );
  }
  return bound;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export class ClientRoots {
  #current: RootSet;
  /** True once the client's own roots replaced the configured one. */
  #followed = false;
  #stale = false;
  #refreshing: Promise<void> | undefined;

  constructor(
    /** Builds the tools for a list of roots. */
    private readonly make: (roots: string[]) => RootSet,
    /** Used while the client names no roots. */
    private readonly fallback: string,
    private readonly log: (level: "info" | "warning", line: string) => void,
    /** Client roots must lie inside this folder (a real path); one that holds it is narrowed to it. */
    private readonly within?: string,
  ) {
    this.#current = make([fallback]);
  }

  /** The root to use for a client's folder under `within`, or undefined to ignore it. */
  #bounded(path: string): string | undefined {
    if (this.within === undefined) return path;
    const real = realpathSync(path);
    if (isInside(this.within, real)) return real;
    if (isInside(real, this.within)) {
      this.log("info", `narrowing the client's root ${real} to ${this.within} (--roots-within)`);
      return this.within;
    }
    this.log(
      "warning",
      `ignoring the client's root ${real}: it is outside ${this.within} (--roots-within)`,
    );
    return undefined;
  }

  /** The roots as last known, without asking. */
  get known(): RootSet {
    return this.#current;
  }

  /** The client has (new) roots: the next call asks for them. */
  markStale(): void {
    this.#stale = true;
  }

  /** The roots to run a call against, asking the client first when they changed. */
  async current(ask: AskRoots): Promise<RootSet> {
    // Loops when the roots change again while being fetched; concurrent calls share one question.
    while (this.#stale || this.#refreshing) {
      if (!this.#refreshing) {
        this.#stale = false;
        this.#refreshing = this.#refresh(ask).finally(() => {
          this.#refreshing = undefined;
        });
      }
      await this.#refreshing;
    }
    return this.#current;
  }

  async #refresh(ask: AskRoots): Promise<void> {
    try {
      const { roots } = await ask();
      // One unusable root is skipped alone: dropping the whole list would
      // keep the previous roots, and writes would land in the old project.
      const usable: string[] = [];
      for (const { uri } of roots) {
        const path = localPath(uri);
        if (path === undefined) {
          this.log("warning", `ignoring the client's root ${uri}: it is not a local file:// URL`);
        } else if (!isDirectory(path)) {
          this.log("warning", `ignoring the client's root ${path}: it is not a folder`);
        } else {
          const bounded = this.#bounded(path);
          if (bounded !== undefined) usable.push(bounded);
        }
      }
      this.#current = this.make(usable.length > 0 ? usable : [this.fallback]);
      this.#followed = usable.length > 0;
      this.log("info", `roots: ${this.#current.roots.join(", ")}`);
    } catch (error) {
      // Keep serving: the last known roots are still the best answer.
      const roots = this.#current.roots.join(", ");
      const keeping = this.#followed ? roots : `the configured root ${roots} (--root)`;
      const silent = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
      this.log(
        "warning",
        silent
          ? `the client did not answer roots/list within ${ROOTS_TIMEOUT_MS / 1000} s; using ${keeping} until it says its roots changed`
          : `could not get the client's roots (${String(error)}); keeping ${keeping}`,
      );
    }
  }
}
