/**
 * A toolkit binds every tool to one root, guard, history and event bus.
 * Hosts (CLI, MCP, model SDKs) only translate between their wire format and
 * these calls.
 */
import { randomUUID } from "node:crypto";
import { join, resolve } from "node:path";
import { clip, ToolError } from "../errors.js";
import { EventBus } from "../events.js";
import { PathGuard } from "../guard/path-guard.js";
import { historyFailure } from "../history/failure.js";
import { History } from "../history/history.js";
import { type LspOptions, Validator } from "../lsp/validate.js";
import { astEditTool } from "../tools/ast-edit/index.js";
import { astRenameTool } from "../tools/ast-rename/index.js";
import { DEFAULT_LIMITS, type ToolContext } from "../tools/context.js";
import { type CallSummary, parseArgs, type Tool } from "../tools/define.js";
import { docTool } from "../tools/doc/index.js";
import { editTool } from "../tools/edit/index.js";
import { simpleEditTool } from "../tools/edit/simple.js";
import { fileTool } from "../tools/file/index.js";
import { historyTool } from "../tools/history/index.js";
import { listTool } from "../tools/list/index.js";
import { lspHealthTool } from "../tools/lsp-health/index.js";
import { mdTool } from "../tools/md/index.js";
import { outlineTool } from "../tools/outline/index.js";
import { patchTool } from "../tools/patch/index.js";
import { planTool } from "../tools/plan/index.js";
import { readTool } from "../tools/read/index.js";
import { rollbackTool } from "../tools/rollback/index.js";
import { runTool } from "../tools/run/index.js";
import { searchTool } from "../tools/search/index.js";
import { tidyTool } from "../tools/tidy/index.js";
import { undoTool } from "../tools/undo/index.js";
import { writeTool } from "../tools/write/index.js";
import { LocalWorkspace } from "../workspace/local.js";
import type { Workspace } from "../workspace/workspace.js";
import { EVERYTHING, type ResolvedFootprint, scheduleWaves } from "./schedule.js";

export interface ToolkitOptions {
  /** The project root: every path must resolve inside it. */
  root: string;
  /** Working folder inside the root; relative paths resolve against it. */
  base?: string;
  /** Keep every path inside `base`, not only inside `root`. */
  confine?: boolean;
  /** Globs (root-relative) a write must match. */
  allowlist?: string[];
  /** Globs a write must not match (added to the defaults). */
  blocklist?: string[];
  read_allowlist?: string[];
  /** Replaces the default secret patterns (.env*, *.pem, *.key, id_*). */
  read_blocklist?: string[];
  history?: {
    /** Where history lives; default `<root>/.splice`. */
    dir?: string;
    /** Whose reads vouch for edits; default a fresh id per toolkit. */
    session?: string;
    max_bytes?: number;
    max_entries?: number;
  };
  max_file_bytes?: number;
  max_lines?: number;
  max_line_length?: number;
  /** Where bytes live; default the local disk. */
  workspace?: Workspace;
  /**
   * fsync every file written, and the history kept for undo, before a call
   * returns, so a power loss cannot take them (default true; false when the
   * environment says SPLICE_DURABLE=0). Without it, writes are still atomic
   * and survive the process being killed at any moment, and an edit of a
   * small file takes about half the time.
   */
  durable?: boolean;
  /** Environment variables kept from the commands the run tool starts, e.g. an API key. */
  hidden_env?: string[];
  /** "full" (default) or "minimal": the five tools small models handle best. */
  tools?: "full" | "minimal";
  /**
   * Validate edits with language servers when a call does not say (default
   * true). A server starts only for a file whose language has one and whose
   * project file (tsconfig.json, package.json, pyproject.toml, go.mod, ...)
   * sits between it and the root.
   */
  validate?: boolean;
  /** Language server options, or false for no validation at all (not even on request). */
  lsp?: LspOptions | false;
}

/** Every tool splice offers, in the order hosts list them. */
export const fullTools: readonly Tool[] = [
  readTool,
  listTool,
  searchTool,
  outlineTool,
  writeTool,
  editTool,
  patchTool,
  fileTool,
  docTool,
  mdTool,
  astEditTool,
  astRenameTool,
  runTool,
  tidyTool,
  planTool,
  rollbackTool,
  historyTool,
  undoTool,
  lspHealthTool,
] as unknown as readonly Tool[];

/** For small models and simple hosts: read, list, search, edit, run. */
export const minimalTools: readonly Tool[] = [
  readTool,
  listTool,
  searchTool,
  simpleEditTool,
  runTool,
] as unknown as readonly Tool[];

export interface CallInfo extends CallSummary {
  name: string;
  kind: Tool["kind"];
  needs_approval: boolean;
}

export interface ToolCall {
  name: string;
  args: unknown;
}

export interface Toolkit {
  readonly root: string;
  readonly session: string;
  readonly context: ToolContext;
  readonly events: EventBus;
  readonly tools: readonly Tool[];
  /** The tool by name, or a ToolError("unknown_tool") listing the real names. */
  find(name: string): Tool;
  /** Validates raw arguments and runs the tool; `signal` cancels this one call. */
  call(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
  /** What a call is, for transcripts and approval prompts; validates the arguments. */
  describe(name: string, args: unknown): CallInfo;
  /** What a call would do (a diff, a command), computed without changing anything. */
  preview(name: string, args: unknown): Promise<string>;
  /** Waves of call indexes: calls in one wave may run side by side. */
  schedule(calls: ToolCall[]): number[][];
}

export function createContext(options: ToolkitOptions): { context: ToolContext; session: string } {
  const guard = new PathGuard({
    root: resolve(options.root),
    historyDir: options.history?.dir,
    base: options.base,
    confine: options.confine,
    allowlist: options.allowlist,
    blocklist: options.blocklist,
    readAllowlist: options.read_allowlist,
    readBlocklist: options.read_blocklist,
  });
  const session = options.history?.session ?? `lib-${randomUUID()}`;
  const historyDir = options.history?.dir ?? join(guard.root, ".splice");
  const durable = options.durable ?? process.env.SPLICE_DURABLE !== "0";
  const history = History.open({
    dir: historyDir,
    session,
    maxBytes: options.history?.max_bytes,
    maxEntries: options.history?.max_entries,
    fsync: durable,
  });
  const context: ToolContext = {
    guard,
    workspace:
      options.workspace ??
      new LocalWorkspace({ confineTo: guard.root, lockDir: join(historyDir, "locks"), durable }),
    history,
    events: new EventBus(),
    ...(options.hidden_env?.length ? { hiddenEnv: [...options.hidden_env] } : {}),
    limits: {
      maxFileBytes: options.max_file_bytes ?? DEFAULT_LIMITS.maxFileBytes,
      maxLines: options.max_lines ?? DEFAULT_LIMITS.maxLines,
      maxLineLength: options.max_line_length ?? DEFAULT_LIMITS.maxLineLength,
    },
  };
  // Servers read the disk, so validation needs the files to be there. No server starts here.
  const onDisk = !options.workspace || options.workspace instanceof LocalWorkspace;
  if (onDisk && options.lsp !== false) {
    context.validator = new Validator(guard.root, options.validate ?? true, options.lsp);
  }
  return { context, session };
}

export function createToolkit(options: ToolkitOptions): Toolkit {
  const { context, session } = createContext(options);
  const tools = options.tools === "minimal" ? minimalTools : fullTools;
  const find = (name: string): Tool => {
    const tool = tools.find((t) => t.name === name);
    if (tool) return tool;
    throw new ToolError(
      "unknown_tool",
      `There is no tool named "${clip(name)}". The tools are: ${tools.map((t) => t.name).join(", ")}.`,
    );
  };
  const resolveFootprint = (call: ToolCall): ResolvedFootprint => {
    try {
      const tool = find(call.name);
      const footprint = tool.footprint(parseArgs(tool, call.args));
      const norm = (p: string) => {
        if (p === EVERYTHING) return p;
        const rel = context.guard.relative(resolve(context.guard.base, p));
        return rel === "." ? "" : rel;
      };
      return { reads: footprint.reads.map(norm), writes: footprint.writes.map(norm) };
    } catch {
      // A call that will fail validation touches nothing; it may run anywhere.
      return { reads: [], writes: [] };
    }
  };
  return {
    root: context.guard.root,
    session,
    context,
    events: context.events,
    tools,
    find,
    call: async (name, args, options) => {
      const tool = find(name);
      const scoped = options?.signal ? { ...context, signal: options.signal } : context;
      try {
        return await tool.call(scoped, parseArgs(tool, args));
      } catch (error) {
        throw historyFailure(error, context.history.dir) ?? error;
      }
    },
    describe: (name, args) => {
      const tool = find(name);
      const parsed = parseArgs(tool, args);
      const needs =
        typeof tool.needsApproval === "function" ? tool.needsApproval(parsed) : tool.needsApproval;
      return { name, kind: tool.kind, needs_approval: needs, ...tool.summarize(parsed) };
    },
    preview: async (name, args) => {
      const tool = find(name);
      const parsed = parseArgs(tool, args);
      return tool.preview ? tool.preview(context, parsed) : tool.summarize(parsed).summary;
    },
    schedule: (calls) => scheduleWaves(calls.map(resolveFootprint)),
  };
}
