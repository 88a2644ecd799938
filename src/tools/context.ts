import type { EventBus } from "../events.js";
import type { PathGuard } from "../guard/path-guard.js";
import type { History } from "../history/history.js";
import type { Validator } from "../lsp/validate.js";
import type { Workspace } from "../workspace/workspace.js";

export interface Limits {
  /** Files larger than this are refused for text operations. */
  maxFileBytes: number;
  /** A read shows at most this many lines, then says how to read on. */
  maxLines: number;
  /** Longer lines are cut in read output. */
  maxLineLength: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxFileBytes: 32 * 1024 * 1024,
  maxLines: 2000,
  maxLineLength: 2000,
};

/** Everything a tool may touch; tools reach the world only through this. */
export interface ToolContext {
  guard: PathGuard;
  workspace: Workspace;
  history: History;
  limits: Limits;
  events: EventBus;
  signal?: AbortSignal;
  /** Environment variables the run tool's commands do not get (an agent's API key). */
  hiddenEnv?: readonly string[];
  /** Checks edits with language servers; absent, nothing is validated. */
  validator?: Validator;
  /**
   * A backup session every write joins instead of starting its own: a plan
   * sets it so all of its steps undo as one unit.
   */
  backup?: string;
}
