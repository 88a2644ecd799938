/**
 * What a toolkit is made of: the options a library user passes (camelCase;
 * the snake_case names of earlier releases still work, deprecated) and the
 * context they become.
 */
import { randomUUID } from "node:crypto";
import { DEFAULT_LIMITS } from "../change/context.js";
import { EventBus, type Listener } from "../events.js";
import type { GuardScope } from "../guard/path-guard.js";
import { type LspOptions, Validator } from "../lsp/validate.js";
import type { ToolContext } from "../tools/define.js";
import type { Durability } from "../util/durable.js";
import type { Remotes } from "../workspace/remote/hosts.js";
import type { Workspace } from "../workspace/workspace.js";
import { openProject, type Project } from "./projects.js";
import type { DescriptionStyle, ToolProfile } from "./registry.js";

export interface ToolkitOptions extends GuardScope {
  /**
   * The project root: every path must resolve inside it. `HOST:PATH` (a
   * host named in `remotes`) makes a folder of that machine the root.
   */
  root: string;
  /**
   * Remote hosts by name, each a transport: a command that runs its last
   * argument, a shell line, there (`ssh -o BatchMode=yes dev@box`,
   * `docker exec -i ctr sh -c`). See docs/remote.md.
   */
  remotes?: Remotes;
  history?: {
    /** Where history lives; default `<root>/.splice`. */
    dir?: string;
    /** Whose reads vouch for edits; default a fresh id per toolkit. */
    session?: string;
    maxBytes?: number;
    maxEntries?: number;
    /** @deprecated since 0.2: use `maxBytes`. */
    max_bytes?: number;
    /** @deprecated since 0.2: use `maxEntries`. */
    max_entries?: number;
  };
  /** Files larger than this are refused for text operations (default 32 MiB). */
  maxFileBytes?: number;
  /** A read shows at most this many lines (default 2,000). */
  maxLines?: number;
  /** Longer lines are cut in read output (default 2,000 characters). */
  maxLineLength?: number;
  /**
   * The most a call's result shows the model, in UTF-8 bytes of text
   * (default 24,000, what Claude Code, Codex and Gemini CLI all pass whole);
   * tools stop at it and end with how to see the rest. Raise it for a host
   * that passes more to its model.
   */
  outputBudget?: number;
  /** Where bytes live; default the local disk. */
  workspace?: Workspace;
  /**
   * How much a write waits for the disk (see util/durable.ts). Default
   * "relaxed" (SPLICE_DURABLE unset): the version a write replaces is
   * durable in history before the file is replaced, the new bytes are
   * flushed in the background and before the process exits (`flush()`
   * waits for them). "full" or true (SPLICE_DURABLE=full): everything is
   * fsynced before a call returns. false (SPLICE_DURABLE=0): no fsync;
   * writes are still atomic and survive the process being killed.
   */
  durable?: boolean | Durability;
  /**
   * What the model reads of a change: "changes" (default), each hunk's
   * `@@` line and its added lines numbered; or "full", the whole unified
   * diff with context and removed lines (the default when the environment
   * says SPLICE_RESULT_DIFF=full). Results always carry the full `diff`.
   */
  resultDiff?: "changes" | "full";
  /** Environment variables kept from the commands the run tool starts, e.g. an API key. */
  hiddenEnv?: string[];
  /** The environment the run tool's commands start with (default this process's; the engine passes its client's). */
  env?: NodeJS.ProcessEnv;
  /**
   * Also told of every event this toolkit publishes (a review page's server
   * in the same process). Each toolkit keeps its own bus: a plan hears only
   * its own toolkit's changes.
   */
  listeners?: Listener[];
  /**
   * Which tools: "full" (default, every tool), "coding" (read, outline,
   * search, list, edit, patch, write, run, undo) or "minimal" (read, list,
   * search, a simple edit, run: for small models). Each has help.
   */
  tools?: ToolProfile;
  /** "short" (default): brief descriptions, the manuals through help; "full": the whole manuals. */
  descriptions?: DescriptionStyle;
  /**
   * Validate edits with language servers when a call does not say (default
   * true). A server starts only for a file whose language has one and whose
   * project file (tsconfig.json, package.json, pyproject.toml, go.mod, ...)
   * sits between it and the root.
   */
  validate?: boolean;
  /**
   * Watch the root for changes made outside splice (an editor, a build) and
   * keep them in history as versions, telling the event bus
   * (`outside_changes`); `run`'s checkpoints then re-stat only what changed.
   * Default false; `splice serve` and the agent turn it on (`--no-watch`).
   * Local roots with a working history only.
   */
  watch?: boolean;
  /** Language server options, or false for no validation at all (not even on request). */
  lsp?: LspOptions | false;
  /** @deprecated since 0.2: use `readAllowlist`. */
  read_allowlist?: string[];
  /** @deprecated since 0.2: use `readBlocklist`. */
  read_blocklist?: string[];
  /** @deprecated since 0.2: use `maxFileBytes`. */
  max_file_bytes?: number;
  /** @deprecated since 0.2: use `maxLines`. */
  max_lines?: number;
  /** @deprecated since 0.2: use `maxLineLength`. */
  max_line_length?: number;
  /** @deprecated since 0.2: use `hiddenEnv`. */
  hidden_env?: string[];
}

/** A toolkit's context before a call: each call adds its own backup session (and signal). */
export type BaseContext = Omit<ToolContext, "backup">;

/**
 * A toolkit's context: the root's shared state (projects.ts) seen as this
 * toolkit's history session, with its own event bus, limits and validator.
 */
export function createContext(options: ToolkitOptions): {
  context: BaseContext;
  session: string;
  project: Project;
} {
  const o = options;
  const project = openProject(o);
  const { guard, workspace } = project;
  const session = o.history?.session ?? `lib-${randomUUID()}`;
  const hiddenEnv = o.hiddenEnv ?? o.hidden_env;
  const context: BaseContext = {
    guard,
    workspace,
    history: project.history.forSession(session),
    events: busWith(o.listeners ?? []),
    ...(hiddenEnv?.length ? { hiddenEnv: [...hiddenEnv] } : {}),
    ...(o.env ? { env: o.env } : {}),
    resultDiff: o.resultDiff ?? (process.env.SPLICE_RESULT_DIFF === "full" ? "full" : "changes"),
    limits: {
      maxFileBytes: o.maxFileBytes ?? o.max_file_bytes ?? DEFAULT_LIMITS.maxFileBytes,
      maxLines: o.maxLines ?? o.max_lines ?? DEFAULT_LIMITS.maxLines,
      maxLineLength: o.maxLineLength ?? o.max_line_length ?? DEFAULT_LIMITS.maxLineLength,
      outputBytes: outputBudget(o.outputBudget),
    },
  };
  // The root's watch, once it runs, is every toolkit's on the root.
  Object.defineProperty(context, "rootWatch", {
    get: () => project.rootWatch,
    enumerable: true,
  });
  // Servers read the disk, so validation needs the files to be there. No server starts here.
  const onDisk = workspace.capabilities?.localFiles === true;
  if (onDisk && o.lsp !== false) {
    context.validator = new Validator(guard.root, o.validate ?? true, o.lsp);
  }
  return { context, session, project };
}

/** The smallest output budget: a result must have room for a page of lines and its notices. */
export const MIN_OUTPUT_BUDGET = 4_000;

function outputBudget(bytes: number | undefined): number {
  if (bytes === undefined) return DEFAULT_LIMITS.outputBytes;
  if (!Number.isSafeInteger(bytes) || bytes < MIN_OUTPUT_BUDGET) {
    throw new TypeError(
      `outputBudget must be a whole number of bytes, at least ${MIN_OUTPUT_BUDGET}; got ${bytes}.`,
    );
  }
  return bytes;
}

/** A toolkit's own bus, with its host's listeners on it from the start. */
function busWith(listeners: readonly Listener[]): EventBus {
  const bus = new EventBus();
  for (const listener of listeners) bus.on(listener);
  return bus;
}
