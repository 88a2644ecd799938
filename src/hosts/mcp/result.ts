/**
 * Tool results and errors as MCP CallToolResults. `content` is one text
 * block, the model-readable view every host shares (toolkit/render-result.ts).
 * The JSON result, for programs, travels under `_meta["splice/result"]` by
 * default, not as `structuredContent`: Claude Code and Codex hand the model
 * `JSON.stringify(structuredContent)` whenever it is present, in place of the
 * text, so the model would read JSON-escaped code and every field twice.
 * `structured: true` (`splice serve --structured`) sends `structuredContent`
 * instead, for a client that is a program. See docs/mcp.md. An image a
 * result carries (a read of a PNG) follows the text as `image` content; the
 * JSON copy keeps its type and size but not its base64, sent once already.
 */

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isToolError } from "../../errors.js";
import { type ImageContent, renderError, renderResult, resultImages } from "../../toolkit/index.js";
import { formatBytes } from "../../util/format.js";

/** Where a result's JSON travels in `_meta` unless structuredContent carries it. */
export const RESULT_META_KEY = "splice/result";
/** Why a result's JSON was left out, in its place. */
export const OMITTED_META_KEY = "splice/omitted";
/**
 * The largest JSON copy of a result sent beside its text. The official SDK
 * client reads at most 10 MiB per message by default and closes the
 * connection past it; a large write's diff in the text plus the same diff in
 * the JSON would cross that.
 */
export const MAX_RESULT_JSON_CHARS = 2 * 1024 * 1024;

export interface ResultOptions {
  /** Send the JSON as `structuredContent` (which Claude Code and Codex show the model). */
  structured?: boolean;
  /**
   * Send an error's text alone, with no JSON copy: for a client that shows its
   * model the whole raw error result (clients.ts `errorsAsRawJson`).
   */
  textOnlyErrors?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The JSON with each image's base64 replaced by its length: the image content carries the bytes. */
function withoutImageData(data: Record<string, unknown>): Record<string, unknown> {
  const strip = (item: unknown): unknown => {
    if (!isObject(item) || !Array.isArray(item.images)) return item;
    const images = item.images.map((i) =>
      isObject(i) && typeof i.data === "string"
        ? { ...i, data: `[${i.data.length} base64 characters, sent as image content]` }
        : i,
    );
    return { ...item, images };
  };
  const top = strip(data) as Record<string, unknown>;
  return Array.isArray(top.results) ? { ...top, results: top.results.map(strip) } : top;
}

function withData(
  text: string,
  data: Record<string, unknown>,
  options: ResultOptions,
  images: ImageContent[] = [],
): CallToolResult {
  const content: CallToolResult["content"] = [
    { type: "text", text },
    ...images.map((i) => ({ type: "image" as const, data: i.data, mimeType: i.mime_type })),
  ];
  const size = JSON.stringify(data).length;
  if (size > MAX_RESULT_JSON_CHARS) {
    const why = `the JSON result (${formatBytes(size)}) is left out to keep the message small enough for clients to read; the text holds the whole result`;
    return { content, _meta: { [OMITTED_META_KEY]: why } };
  }
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
  const images = resultImages(result);
  const data = isObject(result) ? result : { result };
  return withData(
    renderResult(name, result),
    images.length > 0 ? withoutImageData(data) : data,
    options,
    images,
  );
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
  const text = renderError(name, error);
  if (options.textOnlyErrors) return { isError: true, content: [{ type: "text", text }] };
  const structured = isToolError(error)
    ? error.toJSON()
    : { code: "internal", message: error instanceof Error ? error.message : String(error) };
  return { isError: true, ...withData(text, { error: structured }, options) };
}
