export { type ErrorCode, isToolError, ToolError } from "./errors.js";
export type { GuardedPath, GuardOptions, Scope } from "./guard/path-guard.js";
export { PathGuard } from "./guard/path-guard.js";
export { History } from "./history/history.js";
export { createSplice, type Splice, type SpliceOptions } from "./splice.js";
export { BatchError } from "./tools/batch.js";
export type { Limits, ToolContext } from "./tools/context.js";
export type { CallSummary, Footprint, Tool, ToolAnnotations } from "./tools/define.js";
export type { EditResult } from "./tools/edit.js";
export { EventBus, type FileChange, type SpliceEvent } from "./tools/events.js";
export type { HistoryResult } from "./tools/history.js";
export type { ReadResult } from "./tools/read.js";
export type { RollbackResult } from "./tools/rollback.js";
export { scheduleWaves } from "./tools/schedule.js";
export {
  type CallInfo,
  createToolkit,
  fullTools,
  minimalTools,
  type ToolCall,
  type Toolkit,
  type ToolkitOptions,
} from "./tools/toolkit.js";
export type { WriteResult } from "./tools/write.js";
export { LocalWorkspace } from "./workspace/local.js";
export { MemoryWorkspace } from "./workspace/memory.js";
export type { Workspace } from "./workspace/workspace.js";
