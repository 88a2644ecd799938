/**
 * A fake Anthropic Messages API for tests: a real HTTP server on 127.0.0.1
 * answering `POST /v1/messages` from a script, one step per request, with
 * server-sent events the way the real API streams them: message_start, then
 * per block content_block_start / _delta (text_delta, input_json_delta) /
 * _stop, then message_delta with the stop reason and message_stop. Steps can
 * also be HTTP errors (429 with retry-after, 529, 401) or an `error` event in
 * the middle of a stream. Every request is recorded for assertions.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export type FakeBlock =
  | { text: string }
  /** `input` as an object, or as raw JSON text (which may be malformed on purpose). */
  | { tool: string; input: unknown; id?: string };

export type Step =
  | {
      kind: "reply";
      blocks: FakeBlock[];
      stop?: "end_turn" | "tool_use" | "max_tokens";
      /** Pause between events, to make a slow stream. */
      delayMs?: number;
      /** The stream waits for this after its first text delta. */
      gate?: Promise<void>;
    }
  | {
      kind: "status";
      status: number;
      type: string;
      message: string;
      headers?: Record<string, string>;
    }
  | { kind: "stream_error"; before: string; type: string; message: string };

export interface RecordedRequest {
  headers: IncomingMessage["headers"];
  body: {
    model: string;
    max_tokens: number;
    system?: string;
    stream?: boolean;
    tools?: { name: string }[];
    messages: { role: string; content: string | Record<string, unknown>[] }[];
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Splits text into a few deltas, as a model streams it. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [""];
}

export class FakeAnthropic {
  readonly requests: RecordedRequest[] = [];
  readonly #steps: Step[] = [];
  readonly #server: Server;
  readonly #waiters: { count: number; resolve: () => void }[] = [];
  #ids = 0;
  url = "";

  private constructor(steps: Step[]) {
    this.#steps.push(...steps);
    this.#server = createServer((req, res) => {
      void this.#handle(req, res);
    });
  }

  static async start(steps: Step[] = []): Promise<FakeAnthropic> {
    const fake = new FakeAnthropic(steps);
    fake.#server.listen(0, "127.0.0.1");
    await once(fake.#server, "listening");
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** Adds steps for the requests still to come. */
  push(...steps: Step[]): void {
    this.#steps.push(...steps);
  }

  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== "POST" || req.url !== "/v1/messages") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          type: "error",
          error: { type: "not_found_error", message: `no ${req.url}` },
        }),
      );
      return;
    }
    this.requests.push({
      headers: req.headers,
      body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
    });
    for (const w of this.#waiters.filter((w) => this.requests.length >= w.count)) w.resolve();
    const step = this.#steps.shift();
    if (!step) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          type: "error",
          error: { type: "api_error", message: "the fake server's script is used up" },
        }),
      );
      return;
    }
    if (step.kind === "status") {
      res.writeHead(step.status, { "content-type": "application/json", ...step.headers });
      res.end(JSON.stringify({ type: "error", error: { type: step.type, message: step.message } }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    let closed = false;
    res.on("close", () => {
      closed = true;
    });
    const send = async (event: string, data: unknown, delay = 0) => {
      if (closed) return;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      if (delay > 0) await sleep(delay);
    };
    const id = `msg_${++this.#ids}`;
    await send("message_start", {
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model: "fake-model",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    });
    if (step.kind === "stream_error") {
      await send("content_block_start", {
        type: "content_block_start",
        index: 0,
        content_block: { type: "text", text: "" },
      });
      await send("content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: step.before },
      });
      await send("error", { type: "error", error: { type: step.type, message: step.message } });
      res.end();
      return;
    }
    const delay = step.delayMs ?? 0;
    let gated = false;
    let hasTool = false;
    for (const [index, block] of step.blocks.entries()) {
      if ("text" in block) {
        await send("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "text", text: "" },
        });
        for (const piece of pieces(block.text, 6)) {
          await send(
            "content_block_delta",
            { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } },
            delay,
          );
          if (step.gate && !gated) {
            gated = true;
            await step.gate;
          }
        }
      } else {
        hasTool = true;
        const toolId = block.id ?? `toolu_${this.#ids}_${index}`;
        await send("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: toolId, name: block.tool, input: {} },
        });
        const json = typeof block.input === "string" ? block.input : JSON.stringify(block.input);
        for (const piece of pieces(json, Math.max(1, Math.ceil(json.length / 3)))) {
          await send(
            "content_block_delta",
            {
              type: "content_block_delta",
              index,
              delta: { type: "input_json_delta", partial_json: piece },
            },
            delay,
          );
        }
      }
      await send("content_block_stop", { type: "content_block_stop", index });
    }
    await send("message_delta", {
      type: "message_delta",
      delta: { stop_reason: step.stop ?? (hasTool ? "tool_use" : "end_turn"), stop_sequence: null },
      usage: { output_tokens: 20 },
    });
    await send("message_stop", { type: "message_stop" });
    res.end();
  }
}

/** The text a tool_result block carries. */
export function resultText(block: Record<string, unknown>): string {
  const content = block.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((c) => (c as { text?: string }).text ?? "").join("");
  return "";
}

/** The tool_result blocks of the last message of a request. */
export function toolResults(request: RecordedRequest): Record<string, unknown>[] {
  const last = request.body.messages.at(-1)!;
  return Array.isArray(last.content) ? last.content.filter((b) => b.type === "tool_result") : [];
}

/**
 * A test file's way to start fake providers: each one started is closed after
 * its test. Call it once at the top of the file.
 */
export function fakeProviders(): (steps?: Step[]) => Promise<FakeAnthropic> {
  const servers: FakeAnthropic[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (steps = []) => {
    const server = await FakeAnthropic.start(steps);
    servers.push(server);
    return server;
  };
}

/** A reply that only says `t`. */
export const textReply = (t: string): Step => ({ kind: "reply", blocks: [{ text: t }] });

/** A reply that asks for one text edit of `path`. */
export const editReply = (path: string, from: string, to: string): Step => ({
  kind: "reply",
  blocks: [{ tool: "edit", input: { path, old_text: from, new_text: to } }],
});
