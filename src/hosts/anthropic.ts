/**
 * The Anthropic Messages API: splice's tools as the request's `tools`, and
 * a model's `tool_use` blocks answered with `tool_result` blocks. Only types
 * come from `@anthropic-ai/sdk`; nothing here loads it.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Tool, Toolkit } from "../toolkit/index.js";
import { dispatch, dispatchAll, type ModelCall, type ModelReply } from "./dispatch.js";
import { toolJsonSchema } from "./json-schema.js";

export type AnthropicTool = Anthropic.Messages.Tool;
export type AnthropicToolResult = Anthropic.Messages.ToolResultBlockParam;
/** The parts of a `tool_use` block dispatch reads. */
export type AnthropicToolUse = Pick<Anthropic.Messages.ToolUseBlock, "id" | "name" | "input">;

function anthropicTool(tool: Tool): AnthropicTool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: toolJsonSchema(tool) as AnthropicTool["input_schema"],
  };
}

/** The `tools` array for `messages.create`. */
export function anthropicTools(toolkit: Pick<Toolkit, "tools">): AnthropicTool[] {
  return toolkit.tools.map(anthropicTool);
}

/** The text alone, or the text and then each image as an `image` block. */
function resultContent(reply: ModelReply): AnthropicToolResult["content"] {
  if (reply.images.length === 0) return reply.text;
  return [
    { type: "text", text: reply.text },
    ...reply.images.map((image) => ({
      type: "image" as const,
      source: { type: "base64" as const, media_type: image.mime_type, data: image.data },
    })),
  ];
}

/** A reply as the `tool_result` block answering `tool_use` `id`: text, then its images. */
export function anthropicToolResult(id: string, reply: ModelReply): AnthropicToolResult {
  return {
    type: "tool_result",
    tool_use_id: id,
    content: resultContent(reply),
    ...(reply.isError ? { is_error: true } : {}),
  };
}

const callOf = (block: AnthropicToolUse): ModelCall => ({ name: block.name, args: block.input });

/** Runs one `tool_use` block; a bad call or a failure is an `is_error` result, never a throw. */
export async function dispatchAnthropic(
  toolkit: Toolkit,
  toolUse: AnthropicToolUse,
): Promise<AnthropicToolResult> {
  return anthropicToolResult(toolUse.id, await dispatch(toolkit, callOf(toolUse)));
}

/**
 * Runs every `tool_use` block of an assistant message (other blocks are
 * skipped), side by side where their footprints allow, and returns the
 * `tool_result` blocks in the same order: the content of the next user turn.
 */
export async function dispatchAnthropicAll(
  toolkit: Toolkit,
  content: readonly { type: string }[],
): Promise<AnthropicToolResult[]> {
  const uses = content.filter(
    (block): block is AnthropicToolUse & { type: "tool_use" } => block.type === "tool_use",
  );
  const replies = await dispatchAll(toolkit, uses.map(callOf));
  return uses.map((block, i) => anthropicToolResult(block.id, replies[i]!));
}
