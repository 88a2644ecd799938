/**
 * A toolkit binds every tool to one root, guard, history and event bus, and
 * is the one wrapper every call goes through: it validates the arguments,
 * opens the call's backup session, and turns a history failure into an error
 * a model can act on. Hosts (CLI, MCP, model SDKs) only translate between
 * their wire format and these calls.
 */

import { join, resolve } from "node:path";
import { finishInterrupted } from "../change/finish-batch.js";
import type { ProgressListener } from "../change/progress.js";
import {
  type BackgroundIndexOptions,
  buildIndexInBackground,
} from "../codebase/symbol-index-build.js";
import type { EventBus } from "../events.js";
import { historyFailure, unavailableWarning } from "../history/failure.js";
import type { BackupMark, BackupSession } from "../history/types.js";
import {
  type CallSummary,
  EVERYTHING,
  parseArgs,
  type RootRouter,
  type Tool,
  type ToolContext,
} from "../tools/define.js";
import { flushBackground } from "../util/durable.js";
import { newBackupId } from "../util/ids.js";
import { engineToolError } from "./engine-errors.js";
import { type BaseContext, createContext, type ToolkitOptions } from "./options.js";
import { profileTools, registryOf } from "./registry.js";
import { withOutputBudget, withResultDiff } from "./render-result.js";
import { type ResolvedFootprint, scheduleWaves } from "./schedule.js";

export interface CallInfo extends CallSummary {
  name: string;
  kind: Tool["kind"];
  needs_approval: boolean;
}

export interface CallOptions {
  /** Cancels this one call. */
  signal?: AbortSignal;
  /** Told how far a long call has got (files searched, a command's output as it comes). */
  onProgress?: ProgressListener;
  /** Joins this backup session instead of a new one (one session across a RootSet's roots). */
  backup?: string;
  /** The other roots, when the toolkit is one of a RootSet's (ToolContext.roots). */
  roots?: RootRouter;
}

export interface ToolCall {
  name: string;
  args: unknown;
}

/**
 * A call whose arguments were validated once (Toolkit.parse): routing,
 * describing, scheduling and running take it as it is, never parsing again.
 */
export interface ParsedCall extends ToolCall {
  readonly tool: Tool;
  /** The arguments as the tool's schema made them (defaults filled in). */
  readonly args: unknown;
  readonly parsed: true;
}

/** A call as given, or parsed already. */
export type AnyCall = ToolCall | ParsedCall;

const isParsed = (call: AnyCall): call is ParsedCall => (call as ParsedCall).parsed === true;

export interface Toolkit {
  readonly root: string;
  readonly session: string;
  /** What every call's context starts from (each call adds its backup session). */
  readonly context: BaseContext;
  readonly events: EventBus;
  readonly tools: readonly Tool[];
  /** The tool by name, or a ToolError("unknown_tool") listing the real names. */
  find(name: string): Tool;
  /** Validates raw arguments once: a ToolError for an unknown tool or bad arguments. */
  parse(name: string, args: unknown): ParsedCall;
  /** Validates raw arguments and runs the tool; `signal` cancels this one call. */
  call(name: string, args: unknown, options?: CallOptions): Promise<unknown>;
  /** Runs a parsed call (its arguments are not validated again). */
  run(call: ParsedCall, options?: CallOptions): Promise<unknown>;
  /** What a call is, for transcripts and approval prompts; validates raw arguments. */
  describe(call: ParsedCall): CallInfo;
  describe(name: string, args: unknown): CallInfo;
  /** What a call would do (a diff, a command), computed without changing anything. */
  preview(call: ParsedCall): Promise<string>;
  preview(name: string, args: unknown): Promise<string>;
  /** Waves of call indexes: calls in one wave may run side by side. */
  schedule(calls: AnyCall[]): number[][];
  /**
   * Resolves once every write so far is on the disk: with the default
   * "relaxed" durability the new bytes are flushed in the background (and
   * always before the process exits); rejects when an fsync failed.
   */
  flush(): Promise<void>;
  /**
   * With the `watch` option: resolves once the root watch runs (undefined), or
   * with why it does not (a remote root, no history, the inotify watch limit).
   */
  watching(): Promise<string | undefined>;
  /** flush(), for a caller done with the toolkit; also stops its watches (the walk cache's, the root's). */
  close(): Promise<void>;
  /** The remote host the root is on (a root written HOST:PATH); undefined for a root here. */
  readonly host: string | undefined;
  /** Files larger than this are refused for text operations. */
  readonly maxFileBytes: number;
  /** Names the program behind this toolkit's session: its changes from now on carry the name. */
  nameClient(name: string): void;
  /** The history folder, for a page that watches it for other processes' backup sessions. */
  readonly historyDir: string;
  /** How many backup sessions history holds and the newest: it changes whenever anyone opens or finishes one. */
  backupMark(): BackupMark;
  /** Every backup session history holds, newest first (what made each version, what to undo). */
  backups(): BackupSession[];
  /** A file's bytes under the root, read through the workspace (a remote root's is read there). */
  readRootFile(rel: string): Promise<Uint8Array>;
  /**
   * Brings the root's symbol index up to date a few files at a time, waiting
   * while `busy()`; false when stopped or there is no index.
   */
  buildIndex(options: BackgroundIndexOptions): Promise<boolean>;
}

export function createToolkit(options: ToolkitOptions): Toolkit {
  const { context: base, session, project } = createContext(options);
  // The root's watch reports outside changes once; each toolkit's own bus passes them on.
  const unhear = project.events.on((event) => base.events.emit(event));
  let closed = false;
  const registry = registryOf(profileTools(options.tools, options.descriptions));
  const { find } = registry;
  const resultDiff = base.resultDiff ?? "changes";
  const watching = options.watch ? project.watch() : Promise.resolve("the watch option is off");
  const contextFor = (tool: string, options?: CallOptions) =>
    callContext(base, registry, tool, options);
  const parse = (name: string, args: unknown): ParsedCall => {
    const tool = find(name);
    return { name, tool, args: parseArgs(tool, args), parsed: true };
  };
  const parsedOf = (call: ParsedCall | string, args?: unknown) =>
    typeof call === "string" ? parse(call, args) : call;
  // A batch a killed process left half-written is finished before the first call runs; what
  // that did is told on the next result (change/finish-batch.ts).
  const { notes, finishBatches } = batchFinisher(() => contextFor("batch"));
  const run = async (call: ParsedCall, callOptions?: CallOptions) => {
    // Writes of splice's own calls are no outside changes: the watch waits until the call ends.
    const release = base.rootWatch?.hold();
    try {
      await finishBatches();
      const result = await call.tool.call(contextFor(call.name, callOptions), call.args);
      const told = [unavailableWarning(base.history), ...notes.splice(0)];
      const warned = withWarnings(result, told);
      return withOutputBudget(withResultDiff(warned, resultDiff), base.limits.outputBytes);
    } catch (error) {
      const failure = historyFailure(error, base.history.dir);
      throw (failure && base.history.unavailable) ?? failure ?? engineToolError(error) ?? error;
    } finally {
      release?.();
    }
  };
  return {
    root: base.guard.root,
    session,
    context: base,
    events: base.events,
    tools: registry.tools,
    find,
    parse,
    run,
    call: async (name, args, callOptions) => run(parse(name, args), callOptions),
    describe: (call: ParsedCall | string, args?: unknown) => describeCall(parsedOf(call, args)),
    preview: async (call: ParsedCall | string, args?: unknown) => {
      const { name, tool, args: parsed } = parsedOf(call, args);
      return tool.preview ? tool.preview(contextFor(name), parsed) : tool.summarize(parsed).summary;
    },
    schedule: (calls) =>
      scheduleWaves(calls.map((call) => footprintOf(base, call, (c) => parse(c.name, c.args)))),
    host: base.guard.host,
    maxFileBytes: base.limits.maxFileBytes,
    nameClient: (name) => base.history.nameClient(name),
    historyDir: base.history.dir,
    backupMark: () => base.history.backupMark(),
    backups: () => base.history.backups(),
    readRootFile: (rel) => base.workspace.readFile(join(base.guard.root, rel)),
    buildIndex: (options) => buildIndexInBackground({ ...base, backup: "index" }, options),
    flush: () => flushBackground(),
    watching: () => watching,
    close: async () => {
      // Closing twice releases the root once: the other toolkits on it keep it.
      if (!closed) {
        closed = true;
        unhear();
        await project.release(options.watch === true);
      }
      return flushBackground();
    },
  };
}

/**
 * A call's context. Every call gets a backup session of its own: all its
 * writes undo as one. Its id is made on first use, so a call that writes
 * nothing costs nothing.
 */
function callContext(
  base: BaseContext,
  registry: ToolContext["registry"],
  tool: string,
  options: CallOptions = {},
): ToolContext {
  let backup = options.backup;
  return {
    ...base,
    // Its changes name the tool, so a person sees what made them (undo's list, the review page).
    history: base.history.forTool(tool),
    registry,
    get backup() {
      backup ??= newBackupId();
      return backup;
    },
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { progress: options.onProgress } : {}),
    ...(options.roots ? { roots: options.roots } : {}),
  };
}

function describeCall({ name, tool, args }: ParsedCall): CallInfo {
  const needs =
    typeof tool.needsApproval === "function" ? tool.needsApproval(args) : tool.needsApproval;
  return { name, kind: tool.kind, needs_approval: needs, ...tool.summarize(args) };
}

/** The root-relative paths a call reads and writes, for scheduling. */
function footprintOf(
  base: BaseContext,
  call: AnyCall,
  parse: (call: ToolCall) => ParsedCall,
): ResolvedFootprint {
  try {
    const { tool, args } = isParsed(call) ? call : parse(call);
    const footprint = tool.footprint(args);
    const norm = (p: string) => {
      if (p === EVERYTHING) return p;
      const rel = base.guard.relative(resolve(base.guard.base, p));
      return rel === "." ? "" : rel;
    };
    return { reads: footprint.reads.map(norm), writes: footprint.writes.map(norm) };
  } catch {
    // A call that will fail validation touches nothing; it may run anywhere.
    return { reads: [], writes: [] };
  }
}

/** Finishes, once, the batches killed processes left half-written; `notes` says what it did. */
function batchFinisher(context: () => ToolContext) {
  const notes: string[] = [];
  let finishing: Promise<void> | undefined;
  const finishBatches = () =>
    (finishing ??= finishInterrupted(context()).then(
      (told) => void notes.push(...told),
      (error: unknown) =>
        void notes.push(
          `Batches interrupted by a stopped process could not be checked (${error instanceof Error ? error.message : String(error)}); they are checked again when history next opens.`,
        ),
    ));
  return { notes, finishBatches };
}

/** A result with `told` (history unavailable, a batch finished) added to its `warnings`. */
function withWarnings<T>(result: T, told: readonly (string | undefined)[]): T {
  const more = told.filter((w): w is string => w !== undefined);
  if (more.length === 0 || typeof result !== "object" || result === null) return result;
  const r = result as { warnings?: unknown };
  const warnings = Array.isArray(r.warnings) ? r.warnings : [];
  // A copy with every property, the unlisted ones too (a result's content in other voices).
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(result));
  return Object.assign(copy, { warnings: [...warnings, ...more] }) as T;
}
