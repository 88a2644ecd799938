/**
 * One streamed Messages API request: the raw server-sent events folded into
 * the assistant's content blocks, text passed on as it arrives. Tool inputs
 * arrive as JSON fragments and are parsed only when their block ends; input
 * that is not a JSON object becomes a call marked `failure`, which the model
 * is answered with a sentence instead of ending the turn.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Block, Message } from "./transcript.js";

type StreamEvent = Anthropic.Messages.RawMessageStreamEvent;
type ToolUseBlock = Anthropic.Messages.ToolUseBlockParam;

export interface ToolUse {
  id: string;
  name: string;
  input: unknown;
  /** Why the input could not be read, when it could not. */
  failure?: string;
}

interface Slot {
  block: Block;
  /** A tool_use block's input as received so far. */
  json?: string;
  done: boolean;
}

/** Tokens one reply used, as the provider reported them. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export const noUsage = (): Usage => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

interface RawUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

export class ReplyBuilder {
  readonly #slots = new Map<number, Slot>();
  readonly #onText: (text: string) => void;
  /** Text reached the person; retrying now would show it twice. */
  shown = false;
  stopReason: string | null = null;
  /** message_stop arrived: the reply is complete. */
  complete = false;
  /** Set once the provider reports usage (not every Anthropic-compatible one does). */
  usage: Usage | undefined;

  constructor(onText: (text: string) => void) {
    this.#onText = onText;
  }

  /** Counts are cumulative: a later report replaces what an earlier one said. */
  #usage(raw: RawUsage | undefined): void {
    if (!raw) return;
    this.usage ??= noUsage();
    const u = this.usage;
    if (typeof raw.input_tokens === "number") u.input = raw.input_tokens;
    if (typeof raw.output_tokens === "number") u.output = raw.output_tokens;
    if (typeof raw.cache_read_input_tokens === "number") u.cacheRead = raw.cache_read_input_tokens;
    if (typeof raw.cache_creation_input_tokens === "number") {
      u.cacheWrite = raw.cache_creation_input_tokens;
    }
  }

  apply(event: StreamEvent): void {
    switch (event.type) {
      case "message_start":
        this.#usage(event.message.usage as RawUsage | undefined);
        return;
      case "content_block_start": {
        const start = event.content_block as Block & { type: string };
        let block: Block;
        if (start.type === "text") block = { type: "text", text: (start as { text: string }).text };
        else if (start.type === "tool_use") {
          const use = start as ToolUseBlock;
          block = { type: "tool_use", id: use.id, name: use.name, input: {} };
        } else block = { ...start } as Block;
        this.#slots.set(event.index, {
          block,
          done: false,
          ...(start.type === "tool_use" ? { json: "" } : {}),
        });
        if (block.type === "text" && block.text) this.#text(block.text);
        return;
      }
      case "content_block_delta": {
        const slot = this.#slots.get(event.index);
        if (!slot) return;
        const delta = event.delta;
        if (delta.type === "text_delta" && slot.block.type === "text") {
          slot.block.text += delta.text;
          this.#text(delta.text);
        } else if (delta.type === "input_json_delta" && slot.json !== undefined) {
          slot.json += delta.partial_json;
        } else if (delta.type === "thinking_delta" && slot.block.type === "thinking") {
          slot.block.thinking += delta.thinking;
        } else if (delta.type === "signature_delta" && slot.block.type === "thinking") {
          slot.block.signature += delta.signature;
        }
        return;
      }
      case "content_block_stop": {
        const slot = this.#slots.get(event.index);
        if (slot) slot.done = true;
        return;
      }
      case "message_delta":
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.#usage(event.usage as RawUsage | undefined);
        return;
      case "message_stop":
        this.complete = true;
        return;
      default:
        return;
    }
  }

  #text(text: string): void {
    if (text) this.shown = true;
    this.#onText(text);
  }

  #ordered(): Slot[] {
    return [...this.#slots.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot);
  }

  /** The complete reply: its content blocks and the tool calls among them. */
  finish(): { message: Message; calls: ToolUse[] } {
    const content: Block[] = [];
    const calls: ToolUse[] = [];
    for (const slot of this.#ordered()) {
      const block = slot.block;
      if (block.type === "text" && block.text === "") continue;
      if (block.type === "tool_use" && slot.json !== undefined) {
        const call = parseToolInput(block.id, block.name, slot.json, slot.done);
        block.input = call.failure ? {} : call.input;
        calls.push(call);
      }
      content.push(block);
    }
    return { message: { role: "assistant", content }, calls };
  }

  /**
   * What arrived before the stream stopped early: the text, without any tool
   * call (a half-received call must never run).
   */
  partial(): Message {
    const content = this.#ordered()
      .map((s) => s.block)
      .filter((b) => b.type === "text" && b.text.trim() !== "");
    return { role: "assistant", content };
  }
}

function parseToolInput(id: string, name: string, json: string, done: boolean): ToolUse {
  if (!done) {
    return {
      id,
      name,
      input: {},
      failure: "the reply ended before this call's input was complete",
    };
  }
  if (json.trim() === "") return { id, name, input: {} };
  try {
    const input: unknown = JSON.parse(json);
    if (input && typeof input === "object" && !Array.isArray(input)) return { id, name, input };
    return { id, name, input: {}, failure: "its input was JSON but not an object" };
  } catch (error) {
    return {
      id,
      name,
      input: {},
      failure: `its input was not valid JSON (${(error as Error).message})`,
    };
  }
}

export interface StreamRequest {
  client: Anthropic;
  params: Omit<Anthropic.Messages.MessageCreateParamsStreaming, "messages" | "stream">;
  messages: Message[];
  signal: AbortSignal;
}

/**
 * Runs one request, feeding `builder`. Resolves when the reply is complete or
 * the signal aborted it; throws the SDK's error otherwise (the builder keeps
 * what arrived).
 */
export async function streamReply(request: StreamRequest, builder: ReplyBuilder): Promise<void> {
  const stream = await request.client.messages.create(
    { ...request.params, messages: request.messages, stream: true },
    { signal: request.signal, maxRetries: 0 },
  );
  for await (const event of stream) {
    builder.apply(event);
    if (request.signal.aborted) break;
  }
  if (!builder.complete && !request.signal.aborted) {
    throw new Error("the provider's stream ended before the reply was complete");
  }
}
