/**
 * What hosts (MCP, the model SDK adapters, the agent, the CLI) use of the
 * toolkit: they import this face, never a tool's own module.
 */

export type { CallProgress, ProgressListener } from "../change/progress.js";
export {
  type BackgroundIndexOptions,
  buildIndexInBackground,
} from "../codebase/symbol-index-build.js";
export {
  argumentsObject,
  type CallSummary,
  EVERYTHING,
  type Footprint,
  type Tool,
  type ToolAnnotations,
} from "../tools/define.js";
/** A root written HOST:PATH, and where such a root's state is kept on this machine. */
export { type Remotes, remotePath } from "../workspace/remote/hosts.js";
export { HostSession, type HostSessionOptions } from "./host-session.js";
export { type BaseContext, MIN_OUTPUT_BUDGET, type ToolkitOptions } from "./options.js";
export { keepProjectsWarm, openProjectRoots } from "./projects.js";
export {
  codingTools,
  type DescriptionStyle,
  fullTools,
  minimalTools,
  profileTools,
  TOOL_PROFILES,
  type ToolProfile,
} from "./registry.js";
export { outsideLine } from "./render-outside.js";
export { type ImageContent, renderError, renderResult, resultImages } from "./render-result.js";
export { RootSet, type RootSetOptions } from "./roots.js";
export { scheduleWaves } from "./schedule.js";
export {
  type AnyCall,
  type CallInfo,
  type CallOptions,
  createToolkit,
  type ParsedCall,
  type ToolCall,
  type Toolkit,
} from "./toolkit.js";
