import { randomUUID } from "node:crypto";
import { join, resolve } from "node:path";
import type { z } from "zod";
import { PathGuard } from "./guard/path-guard.js";
import { History } from "./history/history.js";
import { DEFAULT_LIMITS, type ToolContext } from "./tools/context.js";
import { invokeTool, type Tool } from "./tools/define.js";
import { editTool } from "./tools/edit.js";
import { EventBus } from "./tools/events.js";
import { historyTool } from "./tools/history.js";
import { readTool } from "./tools/read.js";
import { rollbackTool } from "./tools/rollback.js";
import { callTool } from "./tools/toolkit.js";
import { writeTool } from "./tools/write.js";
import { LocalWorkspace } from "./workspace/local.js";
import type { Workspace } from "./workspace/workspace.js";

export interface SpliceOptions {
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
    /** Whose reads vouch for edits; default a fresh id per Splice object. */
    session?: string;
    max_bytes?: number;
    max_entries?: number;
  };
  max_file_bytes?: number;
  max_lines?: number;
  max_line_length?: number;
  /** Where bytes live; default the local disk. */
  workspace?: Workspace;
}

type Args<T> = T extends Tool<infer I, unknown> ? z.input<I> : never;
type Result<T> = T extends Tool<z.ZodType, infer O> ? O : never;

export interface Splice {
  readonly root: string;
  readonly session: string;
  readonly events: EventBus;
  readonly context: ToolContext;
  read(args: Args<typeof readTool>): Promise<Result<typeof readTool>>;
  write(args: Args<typeof writeTool>): Promise<Result<typeof writeTool>>;
  edit(args: Args<typeof editTool>): Promise<Result<typeof editTool>>;
  rollback(args: Args<typeof rollbackTool>): Promise<Result<typeof rollbackTool>>;
  history(args: Args<typeof historyTool>): Promise<Result<typeof historyTool>>;
  /** Any tool by name, with arguments as a host would send them. */
  call(name: string, args: unknown): Promise<unknown>;
}

export function createSplice(options: SpliceOptions): Splice {
  const guard = new PathGuard({
    root: resolve(options.root),
    base: options.base,
    confine: options.confine,
    allowlist: options.allowlist,
    blocklist: options.blocklist,
    readAllowlist: options.read_allowlist,
    readBlocklist: options.read_blocklist,
  });
  const session = options.history?.session ?? `lib-${randomUUID()}`;
  const history = History.open({
    dir: options.history?.dir ?? join(guard.root, ".splice"),
    session,
    maxBytes: options.history?.max_bytes,
    maxEntries: options.history?.max_entries,
  });
  const events = new EventBus();
  const context: ToolContext = {
    guard,
    workspace: options.workspace ?? new LocalWorkspace({ confineTo: guard.root }),
    history,
    events,
    limits: {
      maxFileBytes: options.max_file_bytes ?? DEFAULT_LIMITS.maxFileBytes,
      maxLines: options.max_lines ?? DEFAULT_LIMITS.maxLines,
      maxLineLength: options.max_line_length ?? DEFAULT_LIMITS.maxLineLength,
    },
  };
  return {
    root: guard.root,
    session,
    events,
    context,
    read: (args) => invokeTool(readTool, context, args),
    write: (args) => invokeTool(writeTool, context, args),
    edit: (args) => invokeTool(editTool, context, args),
    rollback: (args) => invokeTool(rollbackTool, context, args),
    history: (args) => invokeTool(historyTool, context, args),
    call: (name, args) => callTool(context, name, args),
  };
}
