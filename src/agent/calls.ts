/**
 * The tool calls of one model reply: validated, shown for approval where
 * needed, run wave by wave (calls of one wave run side by side; the toolkit
 * puts read-only calls together and anything that writes after what it
 * touches), and answered with one tool_result each, in the model's order.
 * Approval happens per wave, so a preview is computed after the calls before
 * it have run and shows what will really change.
 */
import { isToolError, ToolError } from "../errors.js";
import { anthropicToolResult } from "../hosts/anthropic.js";
import { dispatch, type ModelCall, type ModelReply, parsedCall } from "../hosts/dispatch.js";
import { type CallInfo, renderError, type Toolkit } from "../toolkit/index.js";
import { type Approvals, declineMessage } from "./approvals.js";
import { OutputWindow } from "./output-window.js";
import { changesOf, showChanges, showFailure, showImages, validationStatus } from "./show.js";
import type { ToolUse } from "./stream.js";
import { printable, type Terminal } from "./terminal.js";
import { type Conversation, callLine, type ToolResultBlock } from "./transcript.js";

export interface CallDeps {
  toolkit: Toolkit;
  approvals: Approvals;
  terminal: Terminal;
  conversation: Conversation;
  /** Removes the API key from text before anyone (the model included) sees it. */
  redact(text: string): string;
}

const INTERRUPTED =
  "interrupted: the person pressed Ctrl-C while this call ran, and it was stopped (a command and every process it started were killed). Do not run it again unless they ask.";
const SKIPPED = "not run: the person pressed Ctrl-C before this call ran.";

interface Outcome {
  reply: ModelReply;
  /** For the call's line: ok, exit 1, timed out, declined, error: stale, … */
  status: string;
}

const failed = (text: string, status: string): Outcome => ({
  reply: { text, images: [], isError: true },
  status,
});

const errorStatus = (error: unknown) =>
  isToolError(error) ? `error: ${error.code}` : "error: internal";

function errorOutcome(name: string, error: unknown): Outcome {
  return {
    reply: { text: renderError(name, error), images: [], isError: true, error },
    status: errorStatus(error),
  };
}

function statusOf(reply: ModelReply): string {
  if (reply.isError) return errorStatus(reply.error);
  const invalid = validationStatus(changesOf(reply.result));
  if (invalid) return invalid;
  const run = reply.result as { timed_out?: boolean; exit_code?: number | null; signal?: string };
  if (run && typeof run === "object" && "exit_code" in run) {
    if (run.timed_out) return "timed out";
    if (run.signal) return `killed by ${run.signal}`;
    if (run.exit_code !== 0) return `exit ${run.exit_code}`;
  }
  return "ok";
}

function toModelCall(toolkit: Toolkit, use: ToolUse): ModelCall {
  if (!use.failure) return { name: use.name, args: use.input };
  let example = "";
  try {
    example = ` A valid call looks like: ${JSON.stringify(toolkit.find(use.name).example)}`;
  } catch {
    // An unknown tool as well: the sentence is enough.
  }
  return {
    name: use.name,
    args: {},
    failure: new ToolError(
      "invalid_input",
      `This ${use.name} call could not be read: ${use.failure}. Send it again with one JSON object as its input.${example}`,
    ),
  };
}

/**
 * Decides whether a call may run: its info when it may, or the outcome that
 * stands in for it (invalid, declined, interrupted while asking).
 */
async function vet(
  deps: CallDeps,
  call: ModelCall,
  signal: AbortSignal,
): Promise<{ info?: CallInfo; outcome?: Outcome; preview?: string }> {
  let info: CallInfo;
  try {
    if (call.failure) throw call.failure;
    info = call.checked
      ? deps.toolkit.describe(call.checked)
      : deps.toolkit.describe(call.name, call.args);
  } catch (error) {
    return { outcome: errorOutcome(call.name, error) };
  }
  if (deps.approvals.allows(info)) return { info };
  let preview: string;
  try {
    preview = await (call.checked
      ? deps.toolkit.preview(call.checked)
      : deps.toolkit.preview(call.name, call.args));
  } catch (error) {
    // The call would fail the same way: the model hears why, nobody is asked.
    return { info, outcome: errorOutcome(call.name, error) };
  }
  const decision = await deps.approvals.ask(info, preview, deps.terminal, signal);
  if (decision.approved) return { info, preview };
  if (decision.interrupted) return { info, outcome: failed(SKIPPED, "skipped") };
  const status = decision.reason ? `declined: ${decision.reason}` : "declined";
  return { info, outcome: failed(`declined: ${declineMessage(info, decision)}`, status) };
}

/** Runs the calls of one reply; returns their tool_result blocks in the model's order. */
export async function runCalls(
  deps: CallDeps,
  uses: ToolUse[],
  signal: AbortSignal,
): Promise<ToolResultBlock[]> {
  const { toolkit, terminal, conversation } = deps;
  // Each call's arguments are validated once; scheduling, approval and the run take it as it is.
  const calls = uses.map((use) => parsedCall(toolkit, toModelCall(toolkit, use)));
  // Cancelling the turn cancels the calls it runs (and kills their processes).
  const scoped = (window?: OutputWindow): Toolkit => ({
    ...toolkit,
    run: (call) =>
      toolkit.run(call, {
        signal,
        ...(window ? { onProgress: (p) => p.output && window.add(p.output) } : {}),
      }),
  });
  const outcomes: Outcome[] = new Array(calls.length);
  const infos: (CallInfo | undefined)[] = new Array(calls.length);
  const previews: (string | undefined)[] = new Array(calls.length);

  for (const wave of toolkit.schedule(calls.map((call) => call.checked ?? call))) {
    const approved: number[] = [];
    for (const i of wave) {
      if (signal.aborted) {
        outcomes[i] = failed(SKIPPED, "skipped");
        continue;
      }
      const { info, outcome, preview } = await vet(deps, calls[i]!, signal);
      infos[i] = info;
      previews[i] = preview;
      if (outcome) outcomes[i] = outcome;
      else approved.push(i);
    }
    for (const i of approved) {
      const info = infos[i]!;
      if (info.kind === "run") {
        const line = printable(`[running] ${info.summary} (Ctrl-C stops it)`);
        terminal.line(terminal.paint("dim", line));
      }
    }
    await Promise.all(
      approved.map(async (i) => {
        const window =
          infos[i]!.kind === "run" ? new OutputWindow(terminal, deps.redact) : undefined;
        const reply = await dispatch(scoped(window), calls[i]!);
        window?.finish();
        outcomes[i] =
          reply.isError && signal.aborted
            ? failed(INTERRUPTED, "interrupted")
            : { reply, status: statusOf(reply) };
      }),
    );
    for (const i of wave) {
      const summary = infos[i]?.summary ?? `${calls[i]!.name} (invalid call)`;
      const { status, reply } = outcomes[i]!;
      const style =
        status === "ok"
          ? "dim"
          : status.startsWith("error") || status.startsWith("written with")
            ? "red"
            : "yellow";
      terminal.line(terminal.paint(style, printable(callLine(summary, status))));
      if (reply.isError && reply.error !== undefined) {
        showFailure(terminal, reply.error, deps.redact);
      } else if (!reply.isError) {
        showChanges(terminal, changesOf(reply.result), previews[i]);
        showImages(terminal, reply.result);
      }
      conversation.call(uses[i]!.id, summary, status);
    }
  }
  // Images go as the Messages API's image blocks, as every Anthropic host sends them.
  return uses.map((use, i) => {
    const { reply } = outcomes[i]!;
    return anthropicToolResult(use.id, { ...reply, text: deps.redact(reply.text) });
  });
}
