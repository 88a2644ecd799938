/**
 * A fake OpenAI Responses API (POST /v1/responses, streaming SSE or one JSON
 * response) that plays a ScriptedModel. Codex CLI talks to it as a custom
 * model_provider. What the model "sees" of a tool result is the
 * function_call_output's output: its string, or its text items joined.
 */
import type { ServerResponse } from "node:http";
import { type FakeServer, sendEvents, sendJson, startFakeServer } from "./http.js";
import { answeredCount, type ScriptedModel, type Turn } from "./script.js";

type Item = Record<string, unknown> & { type?: string };
interface ResponsesRequest {
  model?: string;
  stream?: boolean;
  tools?: Item[];
  input?: string | Item[];
}

/** The text of a function_call_output's output; a non-text item counts as its JSON. */
export function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (!Array.isArray(output)) return output === undefined ? "" : JSON.stringify(output);
  return output
    .map((item: Item) =>
      (item.type === "input_text" || item.type === "output_text") && typeof item.text === "string"
        ? item.text
        : JSON.stringify(item),
    )
    .join("");
}

/** A tool as offered; one a client groups under a namespace is called by name and namespace. */
interface Offered {
  full: string;
  name: string;
  namespace?: string;
}

export function offeredTools(tools: readonly Item[]): Offered[] {
  return tools.flatMap((tool): Offered[] => {
    if (typeof tool.name !== "string") return [];
    if (tool.type === "namespace" && Array.isArray(tool.tools)) {
      const namespace = tool.name;
      return offeredTools(tool.tools as Item[]).map((inner) => ({
        full: `${namespace}__${inner.name}`,
        name: inner.name,
        namespace,
      }));
    }
    return [{ full: tool.name, name: tool.name }];
  });
}

function outputItem(turn: Turn, n: number, offered: readonly Offered[]): Item {
  const tool = turn.kind === "call" ? offered.find((t) => t.full === turn.name) : undefined;
  return turn.kind === "call"
    ? {
        type: "function_call",
        id: `fc_fake_${n}`,
        call_id: turn.id,
        name: tool?.name ?? turn.name,
        ...(tool?.namespace ? { namespace: tool.namespace } : {}),
        arguments: JSON.stringify(turn.args),
        status: "completed",
      }
    : {
        type: "message",
        id: `msg_fake_${n}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: turn.text, annotations: [] }],
      };
}

function response(model: string, item: Item, n: number) {
  return {
    id: `resp_fake_${n}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    model,
    output: [item],
    usage: {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 120,
    },
  };
}

function stream(res: ServerResponse, whole: ReturnType<typeof response>, item: Item): void {
  const events: Item[] = [
    { type: "response.created", response: { ...whole, status: "in_progress", output: [] } },
    {
      type: "response.output_item.added",
      output_index: 0,
      item: { ...item, status: "in_progress" },
    },
  ];
  const content = item.content as { text: string }[] | undefined;
  if (item.type === "message" && content?.[0]) {
    events.push({
      type: "response.output_text.delta",
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: content[0].text,
    });
  }
  events.push(
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response: whole },
  );
  sendEvents(
    res,
    events.map((data, i) => ({ event: String(data.type), data: { ...data, sequence_number: i } })),
  );
}

export function startFakeOpenAI(model: ScriptedModel): Promise<FakeServer> {
  let n = 0;
  return startFakeServer((request, _url, res) => {
    if (request.method !== "POST" || !request.path.endsWith("/responses")) {
      return sendJson(res, 404, {
        error: { message: `no ${request.path} here`, type: "not_found" },
      });
    }
    const body = (request.body ?? {}) as ResponsesRequest;
    const items = Array.isArray(body.input) ? body.input : [];
    const ids: string[] = [];
    for (const item of items) {
      if (item.type === "function_call_output" && typeof item.call_id === "string") {
        ids.push(item.call_id);
        model.record(item.call_id, outputText(item.output), item.output);
      }
    }
    const offered = offeredTools(body.tools ?? []);
    const turn = model.next(
      answeredCount(ids),
      offered.map((t) => t.full),
    );
    n++;
    const whole = response(body.model ?? "gpt-fake", outputItem(turn, n, offered), n);
    if (body.stream) stream(res, whole, whole.output[0]!);
    else sendJson(res, 200, whole);
  });
}
