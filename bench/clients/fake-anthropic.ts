/**
 * A fake Anthropic Messages API (POST /v1/messages, streaming SSE or one
 * JSON message; count_tokens) that plays a ScriptedModel. Claude Code talks
 * to it through ANTHROPIC_BASE_URL. What the model "sees" of a tool result
 * is the tool_result block's content: its string, or its text blocks joined.
 */
import type { ServerResponse } from "node:http";
import { type FakeServer, sendEvents, sendJson, startFakeServer } from "./http.js";
import { answeredCount, type ScriptedModel, type Turn } from "./script.js";

type Block = Record<string, unknown> & { type?: string };
interface MessagesRequest {
  model?: string;
  stream?: boolean;
  tools?: { name?: string }[];
  messages?: { role: string; content: string | Block[] }[];
}

/** The text of a tool_result's content; a non-text block counts as its JSON, so nothing hides. */
export function toolResultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined ? "" : JSON.stringify(content);
  return content
    .map((block: Block) =>
      block.type === "text" && typeof block.text === "string" ? block.text : JSON.stringify(block),
    )
    .join("");
}

function resultsIn(request: MessagesRequest): { id: string; content: unknown }[] {
  const results: { id: string; content: unknown }[] = [];
  for (const message of request.messages ?? []) {
    if (message.role !== "user" || typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
        results.push({ id: block.tool_use_id, content: block.content });
      }
    }
  }
  return results;
}

function contentBlock(turn: Turn): Block {
  return turn.kind === "call"
    ? { type: "tool_use", id: turn.id, name: turn.name, input: turn.args }
    : { type: "text", text: turn.text };
}

function message(model: string, turn: Turn, n: number) {
  return {
    id: `msg_fake_${n}`,
    type: "message",
    role: "assistant",
    model,
    content: [contentBlock(turn)],
    stop_reason: turn.kind === "call" ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 20 },
  };
}

function stream(res: ServerResponse, model: string, turn: Turn, n: number): void {
  const whole = message(model, turn, n);
  const start =
    turn.kind === "call"
      ? { type: "tool_use", id: turn.id, name: turn.name, input: {} }
      : { type: "text", text: "" };
  const delta =
    turn.kind === "call"
      ? { type: "input_json_delta", partial_json: JSON.stringify(turn.args) }
      : { type: "text_delta", text: turn.text };
  const events = [
    { type: "message_start", message: { ...whole, content: [], stop_reason: null } },
    { type: "content_block_start", index: 0, content_block: start },
    { type: "content_block_delta", index: 0, delta },
    { type: "content_block_stop", index: 0 },
    {
      type: "message_delta",
      delta: { stop_reason: whole.stop_reason, stop_sequence: null },
      usage: { output_tokens: 20 },
    },
    { type: "message_stop" },
  ];
  sendEvents(
    res,
    events.map((data) => ({ event: data.type, data })),
  );
}

export function startFakeAnthropic(model: ScriptedModel): Promise<FakeServer> {
  let n = 0;
  return startFakeServer((request, _url, res) => {
    if (request.method === "POST" && request.path.endsWith("/v1/messages/count_tokens")) {
      return sendJson(res, 200, { input_tokens: 100 });
    }
    if (request.method !== "POST" || !request.path.endsWith("/v1/messages")) {
      return sendJson(res, 404, {
        type: "error",
        error: { type: "not_found_error", message: "no" },
      });
    }
    const body = (request.body ?? {}) as MessagesRequest;
    const results = resultsIn(body);
    for (const result of results)
      model.record(result.id, toolResultText(result.content), result.content);
    const offered = (body.tools ?? []).flatMap((tool) => (tool.name ? [tool.name] : []));
    const turn = model.next(answeredCount(results.map((r) => r.id)), offered);
    const name = body.model ?? "claude-fake";
    n++;
    if (body.stream) stream(res, name, turn, n);
    else sendJson(res, 200, message(name, turn, n));
  });
}
