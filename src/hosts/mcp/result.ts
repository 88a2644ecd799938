/**
 * Tool results and errors as MCP CallToolResults. `content` is one text
 * block, the model-readable view every host shares (toolkit/render-result.ts).
 * The JSON result, for programs, travels under `_meta["splice/result"]` by
 * default, not as `structuredContent`: Claude Code and Codex hand the model
 * `JSON.stringify(structuredContent)` whenever it is present, in place of the
 * text, so the model would read JSON-escaped code and every field twice.
 * `structured: true` (`splice serve --structured`) sends `structuredContent`
 * instead, for a client that is a program. See docs/mcp.md.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isToolError } from "../../errors.js";
import { renderError, renderResult } from "../../toolkit/index.js";

/** Where a result's JSON travels in `_meta` unless structuredContent carries it. */
export const RESULT_META_KEY = "splice/result";

export interface ResultOptions {
  /** Send the JSON as `structuredContent` (which Claude Code and Codex show the model). */
  structured?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function withData(
  text: string,
  data: Record<string, unknown>,
  options: ResultOptions,
): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text }];
  return options.structured
    ? { content, structuredContent: data }
    : { content, _meta: { [RESULT_META_KEY]: data } };
}

export function successResult(
  name: string,
  result: unknown,
  options: ResultOptions = {},
): CallToolResult {
  // The JSON must be an object; every splice tool returns one.
  return withData(renderResult(name, result), isObject(result) ? result : { result }, options);
}

/**
 * A failure the model can act on: `code: message` for the model, the code
 * and details (fresh tags, paths) for code.
 */
export function errorResult(
  name: string,
  error: unknown,
  options: ResultOptions = {},
): CallToolResult {
  const structured = isToolError(error)
    ? error.toJSON()
    : { code: "internal", message: error instanceof Error ? error.message : String(error) };
  return { isError: true, ...withData(renderError(name, error), { error: structured }, options) };
}
