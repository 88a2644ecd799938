/**
 * One turn of the model loop: stream a reply (retrying where the provider
 * says a retry may work), run the tool calls it asks for, send the results
 * back, and repeat until the model stops asking for tools. Every tool_use gets
 * a tool_result, even when the turn is interrupted, so the conversation always
 * stays one the API accepts.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { AnthropicTool } from "../hosts/anthropic.js";
import { type CallDeps, runCalls } from "./calls.js";
import {
  describeProviderError,
  isAbort,
  MAX_RETRIES,
  type ProblemContext,
  retryDelay,
} from "./errors.js";
import { noUsage, ReplyBuilder, streamReply, type ToolUse, type Usage } from "./stream.js";
import type { Message } from "./transcript.js";
import { addUsage, type Price, usageLine } from "./usage.js";

export interface AgentDeps extends CallDeps {
  client: Anthropic;
  /** Everything of the request but the messages. */
  params: {
    model: string;
    max_tokens: number;
    system: string;
    tools: AnthropicTool[];
    cache_control?: { type: "ephemeral" };
  };
  problemContext: ProblemContext;
  /** The model's price, for the cost after each turn. */
  price?: Price;
}

export type TurnOutcome = "done" | "interrupted" | "failed";

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const textOf = (message: Message) =>
  message.content.map((b) => (b.type === "text" ? b.text : "")).join("");

type Reply =
  | { kind: "ok"; message: Message; calls: ToolUse[]; stopReason: string | null }
  | { kind: "interrupted" }
  | { kind: "failed" };

/** Keeps what the model said before the stream stopped, so the next turn knows it. */
function keepPartial(deps: AgentDeps, builder: ReplyBuilder): void {
  const partial = builder.partial();
  deps.conversation.add(partial);
  deps.conversation.answered(textOf(partial));
}

/** Streams one reply, retrying while the provider says a retry may work and nothing was shown. */
async function requestReply(
  deps: AgentDeps,
  signal: AbortSignal,
  usage: { total: Usage; reported: boolean },
): Promise<Reply> {
  const { terminal, conversation } = deps;
  for (let attempt = 0; ; attempt++) {
    const builder = new ReplyBuilder((text) => terminal.text(text));
    try {
      return await attemptReply(deps, builder, signal);
    } catch (error) {
      if (signal.aborted || isAbort(error)) {
        keepPartial(deps, builder);
        return { kind: "interrupted" };
      }
      const problem = describeProviderError(error, deps.problemContext);
      const wait = builder.shown ? undefined : retryDelay(problem, attempt);
      if (wait !== undefined) {
        const secs = wait < 1000 ? `${(wait / 1000).toFixed(1)} s` : `${Math.round(wait / 1000)} s`;
        const note = `${problem.label}; retrying in ${secs} (retry ${attempt + 1} of ${MAX_RETRIES}, Ctrl-C stops)`;
        terminal.line(terminal.paint("dim", `[${note}]`));
        conversation.notice(note);
        if (!(await sleep(wait, signal))) return { kind: "interrupted" };
        continue;
      }
      keepPartial(deps, builder);
      const line = deps.redact(problem.line);
      terminal.error(`splice agent: ${line}`);
      conversation.notice(`error: ${line}`);
      return { kind: "failed" };
    } finally {
      // A reply cut short was still paid for.
      if (addUsage(usage.total, builder.usage)) usage.reported = true;
    }
  }
}

/** One request; throws what the SDK threw (the caller decides on a retry). */
async function attemptReply(
  deps: AgentDeps,
  builder: ReplyBuilder,
  signal: AbortSignal,
): Promise<Reply> {
  const { conversation } = deps;
  await streamReply(
    { client: deps.client, params: deps.params, messages: conversation.messages, signal },
    builder,
  );
  if (signal.aborted) {
    keepPartial(deps, builder);
    return { kind: "interrupted" };
  }
  return { kind: "ok", ...builder.finish(), stopReason: builder.stopReason };
}

/**
 * Runs the model until it stops asking for tools. The person's message is
 * already the conversation's last; an interrupted or failed turn leaves the
 * conversation valid to continue.
 */
export async function runTurn(deps: AgentDeps, signal: AbortSignal): Promise<TurnOutcome> {
  const usage = { total: noUsage(), reported: false };
  try {
    return await turn(deps, signal, usage);
  } finally {
    if (usage.reported) {
      const line = usageLine(usage.total, deps.price);
      // A script's output stays the model's words; the files keep the count either way.
      if (deps.terminal.redraws) deps.terminal.line(deps.terminal.paint("dim", `[${line}]`));
      deps.conversation.notice(line);
    }
  }
}

async function turn(
  deps: AgentDeps,
  signal: AbortSignal,
  usage: { total: Usage; reported: boolean },
): Promise<TurnOutcome> {
  const { terminal, conversation } = deps;
  for (;;) {
    const reply = await requestReply(deps, signal, usage);
    if (reply.kind !== "ok") return reply.kind;
    conversation.add(reply.message);
    conversation.answered(textOf(reply.message));
    terminal.endLine();
    if (reply.calls.length > 0) {
      conversation.add({ role: "user", content: await runCalls(deps, reply.calls, signal) });
      if (signal.aborted) return "interrupted";
      continue;
    }
    if (reply.stopReason === "pause_turn") continue;
    if (reply.stopReason === "max_tokens") {
      const note = 'the reply reached max_tokens and was cut short; say "go on" to continue it';
      terminal.line(terminal.paint("yellow", `[${note}]`));
      conversation.notice(note);
    } else if (reply.stopReason === "refusal") {
      terminal.line(terminal.paint("yellow", "[the model declined to continue]"));
      conversation.notice("the model declined to continue");
    }
    return "done";
  }
}
