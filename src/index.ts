export { BatchError } from "./change/batch.js";
export type { ChangeResult } from "./change/change.js";
export type { Limits } from "./change/context.js";
export type { CodeEditResult } from "./codebase/code-edit.js";
export { type ErrorCode, isToolError, ToolError } from "./errors.js";
export { EventBus, type FileChange, type SpliceEvent } from "./events.js";
export type { GuardedPath, GuardOptions, GuardScope, Scope } from "./guard/path-guard.js";
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
export {
  type CallInfo,
  codingTools,
  createToolkit,
  type DescriptionStyle,
  fullTools,
  minimalTools,
  scheduleWaves,
  TOOL_PROFILES,
  type ToolCall,
  type Toolkit,
  type ToolkitOptions,
  type ToolProfile,
} from "./toolkit/index.js";
export type {
  CallSummary,
  Footprint,
  Tool,
  ToolAnnotations,
  ToolContext,
  ToolRegistry,
} from "./tools/define.js";
export type { DocResult } from "./tools/doc/index.js";
export type { EditResult } from "./tools/edit/index.js";
export type { FileOpResult } from "./tools/file/index.js";
export type { HelpResult } from "./tools/help/index.js";
export type { HistoryResult } from "./tools/history/index.js";
export type { ListResult } from "./tools/list/index.js";
export type { LspHealthResult } from "./tools/lsp-health/index.js";
export type { MdResult } from "./tools/md/index.js";
export type { NotebookResult } from "./tools/notebook/index.js";
export type { OutlineResult } from "./tools/outline/index.js";
export type { PatchResult } from "./tools/patch/index.js";
export type { PlanResult } from "./tools/plan/index.js";
export type { ReadResult } from "./tools/read/index.js";
export type { RollbackResult } from "./tools/rollback/index.js";
export type { RunResult } from "./tools/run/index.js";
export type { SearchResult } from "./tools/search/index.js";
export type { TidyResult } from "./tools/tidy/index.js";
export type { SessionList, SessionSummary, UndoFile, UndoResult } from "./tools/undo/index.js";
export type { WriteResult } from "./tools/write/index.js";
export { LocalWorkspace } from "./workspace/local.js";
export { MemoryWorkspace } from "./workspace/memory.js";
export type { Workspace } from "./workspace/workspace.js";
