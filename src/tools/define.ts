import { readFileSync } from "node:fs";
import type { z } from "zod";
import type { ChangeContext } from "../change/context.js";
import type { OutsideWatch } from "../checkpoint/outside.js";
import { clip, ToolError } from "../errors.js";
import { type KnownFields, normalizeArguments, pathText } from "./arguments.js";

/** Everything a tool may touch; tools reach the world only through this. */
export interface ToolContext extends ChangeContext {
  signal?: AbortSignal;
  /** Environment variables the run tool's commands do not get (an agent's API key). */
  hiddenEnv?: readonly string[];
  /** The environment the run tool's commands start with (default this process's). */
  env?: NodeJS.ProcessEnv;
  /** The tools a call may run on its own behalf (a plan's steps); the toolkit sets it. */
  registry?: ToolRegistry;
  /** How a tool that writes its own `content` shows a diff to the model (default "changes"). */
  resultDiff?: "changes" | "full";
  /**
   * In a set of roots (RootSet): the context a call runs in, in the root its
   * paths are in, joining backup session `backup` — so a plan's steps reach
   * every root and its writes share one session id in each root's history.
   */
  roots?: RootRouter;
  /** The root watch, while one runs (the toolkit's `watch` option): run's checkpoints use its table. */
  rootWatch?: OutsideWatch;
  /**
   * Which version a quoted `old_text` is taken from when the file changed since
   * this session last saw it. "seen" (the default: hosts, the agent): the
   * version the caller saw, merged into the current one, so a model's stale
   * view never overwrites an outside change. "current" (the command line,
   * where a person quotes the file as it is now): the current file, when every
   * quote is found there exactly (once, unless replace_all); else as "seen".
   * Line ops (`file_hash`) are checked against the seen version either way.
   */
  quoteBase?: "seen" | "current";
}

/** See ToolContext.roots; throws ToolError for a call whose paths are in two roots. */
export type RootRouter = (name: string, args: unknown, backup: string) => ToolContext;

/** The tools of a toolkit, by name. */
export interface ToolRegistry {
  readonly tools: readonly Tool[];
  /** The tool by name, or a ToolError("unknown_tool") listing the real names. */
  find(name: string): Tool;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Looks only: reading, listing, searching. */
export const READS: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Changes files, and running it twice is not the same as once. */
export const CHANGES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

/** Runs commands: anything may change, on this machine or beyond it. */
export const RUNS: ToolAnnotations = { ...CHANGES, openWorldHint: true };

/** A footprint path that means anything (a shell command may touch any file). */
export const EVERYTHING = "*";

export interface Footprint {
  reads: string[];
  writes: string[];
}

/** How a host shows a call in a transcript or an approval prompt. */
export interface CallSummary {
  /** The path, pattern or command the call is about. */
  subject: string;
  /** One line, e.g. `read src/main.ts`, `run npm test`. */
  summary: string;
}

export interface Tool<I extends z.ZodType = z.ZodType, O = unknown, N extends string = string> {
  name: N;
  /** The approval class: "always allow this kind" applies to every tool of a kind. */
  kind: "read" | "edit" | "run";
  /** Whether a person must approve a call before it runs. */
  needsApproval: boolean | ((args: z.output<I>) => boolean);
  /**
   * What the model reads on every turn: what the tool does, when to pick it,
   * one example call. A few lines; the details are in `manual`.
   */
  description: string;
  /** The long manual, loaded from `<name>.md` beside the tool: sent on request (help, --descriptions full). */
  manual: string;
  /** A valid call, shown when a model sends a malformed one. */
  example: z.input<I>;
  input: I;
  annotations: ToolAnnotations;
  footprint(args: z.output<I>): Footprint;
  summarize(args: z.output<I>): CallSummary;
  /** What the call would do (a diff, a command), computed without changing anything. */
  preview?(context: ToolContext, args: z.output<I>): Promise<string>;
  call(context: ToolContext, args: z.output<I>): Promise<O>;
}

/** Identity: exists so each tool's argument and result types are inferred. */
export function defineTool<I extends z.ZodType, O, const N extends string>(
  tool: Tool<I, O, N>,
): Tool<I, O, N> {
  return tool;
}

/**
 * The manual for a tool, kept in a Markdown file in its folder (`read/read.md`).
 * The path goes up and back into tools/ so it also resolves from the bundled
 * CLI (dist/cli-bundle/), a sibling folder.
 */
export function manual(file: string): string {
  return readFileSync(new URL(`../tools/${file}`, import.meta.url), "utf8").trim();
}

function describeIssue(issue: z.core.$ZodIssue, known: KnownFields): string {
  // A tool's own sentence about the whole call (targets.ts) needs no "where".
  if (issue.code === "custom" && issue.path.length === 0) return issue.message;
  const where = issue.path.length > 0 ? pathText(issue.path) : "the arguments";
  if (issue.code === "unrecognized_keys") {
    const fields = known.get(pathText(issue.path));
    const valid = fields ? ` (its fields are ${fields.map((f) => `"${f}"`).join(", ")})` : "";
    return `${where} has unknown field(s) ${issue.keys.map((k) => `"${clip(k)}"`).join(", ")}${valid}`;
  }
  return `${where}: ${issue.message}`;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * The arguments object, however a host received it: absent is `{}`, and the
 * JSON text of an object (what OpenAI sends, and some MCP clients by mistake)
 * is that object. Anything else throws a ToolError that shows a valid call.
 */
export function argumentsObject(tool: Tool, raw: unknown): Record<string, unknown> {
  const send = `Send one JSON object, e.g. ${JSON.stringify(tool.example)}`;
  let value = raw;
  if (typeof raw === "string") {
    // Some models send "" for a call without arguments.
    if (raw.trim() === "") return {};
    try {
      value = JSON.parse(raw);
    } catch (error) {
      const why = error instanceof Error ? ` (${error.message})` : "";
      throw new ToolError(
        "invalid_input",
        `The arguments for ${tool.name} are not valid JSON${why}. ${send}`,
      );
    }
  }
  if (value === undefined) return {};
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return value as Record<string, unknown>;
  }
  throw new ToolError(
    "invalid_input",
    `The arguments for ${tool.name} must be a JSON object, not ${kindOf(value)}. ${send}`,
  );
}

/** Parses raw arguments, or throws the ToolError a model can act on. */
export function parseArgs<I extends z.ZodType>(tool: Tool<I, unknown>, raw: unknown): z.output<I> {
  const given = normalizeArguments(tool.input, argumentsObject(tool as Tool, raw));
  const parsed = tool.input.safeParse(given.args);
  if (parsed.success && given.problems.length === 0) return parsed.data;
  const issues = parsed.success ? [] : parsed.error.issues;
  const problems = [...given.problems, ...issues.map((i) => describeIssue(i, given.known))].join(
    "; ",
  );
  throw new ToolError(
    "invalid_input",
    `Invalid arguments for ${tool.name}: ${problems}. A valid call looks like: ${JSON.stringify(tool.example)}`,
  );
}
