/**
 * Tool results and errors as MCP CallToolResults: the JSON result travels
 * whole as `structuredContent` (for code), and `content` is one text block,
 * the model-readable view every host shares (toolkit/render-result.ts).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isToolError } from "../../errors.js";
import { renderError, renderResult } from "../../toolkit/index.js";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function successResult(name: string, result: unknown): CallToolResult {
  return {
    content: [{ type: "text", text: renderResult(name, result) }],
    // structuredContent must be an object; every splice tool returns one.
    structuredContent: isObject(result) ? result : { result },
  };
}

/**
 * A failure the model can act on: `code: message` for the model, the code
 * and details (fresh tags, paths) for code.
 */
export function errorResult(name: string, error: unknown): CallToolResult {
  const structured = isToolError(error)
    ? error.toJSON()
    : { code: "internal", message: error instanceof Error ? error.message : String(error) };
  return {
    isError: true,
    content: [{ type: "text", text: renderError(name, error) }],
    structuredContent: { error: structured },
  };
}
