/**
 * The one error type tools throw. `code` is for programs (stable strings);
 * `message` is for models: it says what went wrong and what to do next.
 */
export type ErrorCode =
  | "not_found"
  | "ambiguous"
  | "suspicious"
  | "stale"
  | "guard"
  | "invalid_input"
  | "conflict"
  | "binary"
  | "unknown_encoding"
  | "unencodable"
  | "corrupt"
  | "needs_addon"
  | "too_large"
  | "generated"
  | "exists"
  | "is_directory"
  | "is_link"
  | "not_a_file"
  | "unknown_tool"
  | "batch_failed"
  | "check_failed"
  | "history_unavailable"
  | "locked"
  | "read_only"
  | "io";

/**
 * How one reader is told to use a tool: a model calls tools with JSON, a
 * person runs commands with flags. The same advice is phrased by each.
 */
export interface Voice {
  /** An imperative that runs `tool` with `args`: `Call undo with {"list": true}`. */
  call(tool: string, args: Record<string, unknown>): string;
  /** The tool as a noun: `the write tool`, `splice write`. */
  tool(tool: string): string;
  /** One argument given: `"force": true`, `--force`. */
  option(name: string, value: unknown): string;
  /** An argument by its name alone: `"format"`, `--format`. */
  arg(name: string): string;
}

/** What to do next, as a sentence either voice can say. */
export interface NextStep {
  /** The tool the advice is about, for code that acts on it. */
  tool: string;
  args?: Record<string, unknown>;
  say(voice: Voice): string;
}

/** `{"list": true, "all_sessions": true}`: one line, spaced as people write JSON by hand. */
function spacedJson(args: Record<string, unknown>): string {
  const fields = Object.entries(args).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  return `{${fields.join(", ")}}`;
}

/** The model's voice: tools called with JSON, the sentences models have always read. */
export const MODEL_VOICE: Voice = {
  call: (tool, args) => `Call ${tool} with ${spacedJson(args)}`,
  tool: (tool) => `the ${tool} tool`,
  option: (name, value) => `"${name}": ${JSON.stringify(value)}`,
  arg: (name) => `"${name}"`,
};

/**
 * The facts followed by the advice in the model's voice: what `message` is for
 * every error that carries a next step, so the engines' own errors read the same.
 */
export function advised(facts: string, next: NextStep | undefined): string {
  return next ? `${facts} ${next.say(MODEL_VOICE)}` : facts;
}

/** A result's sentences as one reader reads them (a checkpoint's "diff it with ..."). */
export type Voiced = (voice: Voice) => string;

/**
 * `result` with `content` said in the model's voice, and the sentence kept
 * (not enumerable: JSON, hosts and --json see only `content`) for a renderer
 * that says it to another reader, as a ToolError keeps its `next`.
 */
export function voiced<T extends object>(result: T, say: Voiced): T & { content: string } {
  const out = { ...result, content: say(MODEL_VOICE) };
  Object.defineProperty(out, "voiced", { value: say, enumerable: false });
  return out;
}

/** A result's content in `voice`, when the tool said it through `voiced`. */
export function contentIn(result: unknown, voice: Voice): string | undefined {
  const say = (result as { voiced?: unknown } | null | undefined)?.voiced;
  return typeof say === "function" ? (say as Voiced)(voice) : undefined;
}

/** Advice that only names a tool: `Fix it with the edit tool.`, `Fix it with splice edit.` */
export function useTool(tool: string, say: (name: string) => string): NextStep {
  return { tool, say: (v) => say(v.tool(tool)) };
}

export class ToolError extends Error {
  readonly code: ErrorCode;
  /** Extra machine-readable facts (paths, fresh tags, line numbers). */
  readonly details: Record<string, unknown>;
  /** What went wrong, without the advice; `message` is this and `next` in the model's voice. */
  readonly facts: string;
  /** The advice, for a renderer that phrases it in another voice (the CLI's flags). */
  readonly next?: NextStep;

  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    next?: NextStep,
  ) {
    super(advised(message, next));
    this.name = "ToolError";
    this.code = code;
    this.details = details;
    this.facts = message;
    if (next) this.next = next;
  }

  toJSON(): { code: ErrorCode; message: string } & Record<string, unknown> {
    return { code: this.code, message: this.message, ...this.details };
  }
}

export function isToolError(error: unknown): error is ToolError {
  return error instanceof ToolError;
}

/** How much of one value a message quotes; a model's bad input must not flood its context. */
export const QUOTE_MAX = 300;

/**
 * A value as a message quotes it: whole when short, else its head and tail
 * (a path's file name is at the end) around a note of its full length.
 */
export function clip(value: string, max = QUOTE_MAX): string {
  if (value.length <= max) return value;
  const head = Math.ceil((max * 2) / 3);
  return `${value.slice(0, head)}…(${value.length} characters)…${value.slice(value.length - (max - head))}`;
}
