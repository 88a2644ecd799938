export { type ErrorCode, isToolError, ToolError } from "./errors.js";
export type { GuardedPath, GuardOptions, Scope } from "./guard/path-guard.js";
export { PathGuard } from "./guard/path-guard.js";
export { History } from "./history/history.js";
export type { LspOptions } from "./lsp/validate.js";
export type { EditValidation } from "./lsp/verdict.js";
export {
  createSplice,
  type Splice,
  type SpliceOptions,
  type ToolArgs,
  type ToolResult,
} from "./splice.js";
export { BatchError } from "./tools/batch.js";
export type { CodeEditResult } from "./tools/code-rewrite.js";
export type { ChangeResult } from "./tools/commit.js";
export type { Limits, ToolContext } from "./tools/context.js";
export type { CallSummary, Footprint, Tool, ToolAnnotations } from "./tools/define.js";
export type { DocResult } from "./tools/doc.js";
export type { EditResult } from "./tools/edit.js";
export { EventBus, type FileChange, type SpliceEvent } from "./tools/events.js";
export type { FileOpResult } from "./tools/file-ops.js";
export type { HistoryResult } from "./tools/history.js";
export type { ListResult } from "./tools/list.js";
export type { LspHealthResult } from "./tools/lsp-health.js";
export type { MdResult } from "./tools/md.js";
export type { OutlineResult } from "./tools/outline.js";
export type { PatchResult } from "./tools/patch.js";
export type { PlanResult } from "./tools/plan.js";
export type { ReadResult } from "./tools/read.js";
export type { RollbackResult } from "./tools/rollback.js";
export type { RunResult } from "./tools/run.js";
export { scheduleWaves } from "./tools/schedule.js";
export type { SearchResult } from "./tools/search.js";
export type { TidyResult } from "./tools/tidy.js";
export {
  type CallInfo,
  createToolkit,
  fullTools,
  minimalTools,
  type ToolCall,
  type Toolkit,
  type ToolkitOptions,
} from "./tools/toolkit.js";
export type { UndoResult } from "./tools/undo.js";
export type { WriteResult } from "./tools/write.js";
export { LocalWorkspace } from "./workspace/local.js";
export { MemoryWorkspace } from "./workspace/memory.js";
export type { Workspace } from "./workspace/workspace.js";
