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
  /**
   * The most a call's result shows the model, in UTF-8 bytes of its text:
   * tools stop at it and end with how to see the rest (OUTPUT_BUDGET).
   */
  outputBytes: number;
}

/**
 * The default output budget: 24,000 bytes, what every client measured passes
 * to its model whole. A 300-line read (24 KB) reached Claude Code, Codex and
 * Gemini CLI whole, a 600-line one (49 KB) only Claude Code: Codex keeps about
 * 12 KB from the start and 12 KB from the end of a longer result, Gemini CLI
 * the first 8,000 and the last 32,000 characters, and Claude Code saves a
 * large one to a file and shows a 2 KB preview. Within the budget the whole
 * result arrives, continuation line and all. A host that passes more can say
 * so (`outputBudget`, `splice serve --output-budget`).
 */
export const OUTPUT_BUDGET = 24_000;

export const DEFAULT_LIMITS: Limits = {
  maxFileBytes: 32 * 1024 * 1024,
  maxLines: 2000,
  maxLineLength: 2000,
  outputBytes: OUTPUT_BUDGET,
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
