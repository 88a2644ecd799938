/** What the write pipeline works with: the root's guard, its bytes, its history and its events. */
import type { EventBus } from "../events.js";
import type { PathGuard } from "../guard/path-guard.js";
import type { HistoryStore } from "../history/history.js";
import type { Validator } from "../lsp/validate.js";
import type { Workspace } from "../workspace/workspace.js";
import type { ProgressListener } from "./progress.js";

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

export interface ChangeContext {
  guard: PathGuard;
  workspace: Workspace;
  history: HistoryStore;
  limits: Limits;
  events: EventBus;
  /** Checks edits with language servers; absent, nothing is validated. */
  validator?: Validator;
  /**
   * The backup session every write of this call joins. The toolkit opens one
   * per call; a plan passes its own to all of its steps, so they undo as one
   * unit; undo opens its own for the files it restores.
   */
  backup: string;
  /** This call's progress listener (toolkit.call's `onProgress`); absent, nobody is told. */
  progress?: ProgressListener;
}
