/**
 * A tools/call as MCP carries it, turned into a call of the connection's
 * roots and back: arguments of any type, progress notifications, the roots
 * asked for within the call, and the spec's two error channels.
 *
 * Errors follow the 2025-11-25 spec ("Error Handling" in server/tools): an
 * unknown tool is a protocol error (-32602); arguments that fail validation
 * and every failure inside a tool are `isError` results, because those carry
 * a sentence the model can act on and clients pass them to the model.
 */
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListRootsResultSchema,
  type LoggingLevel,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isToolError } from "../../errors.js";
import type { ClientTraits } from "./clients.js";
import { progressSender } from "./progress.js";
import { errorResult, successResult } from "./result.js";
import { type ClientRoots, ROOTS_TIMEOUT_MS } from "./roots.js";

/** Where a call's `arguments` travel when they are not an object. */
export const GIVEN = Symbol("arguments as given");

/**
 * tools/call with `arguments` of any type, or none. The SDK answers a JSON
 * string or null there with a protocol error holding a raw zod dump; splice
 * takes the JSON text of an object, and answers anything else with a sentence
 * (define.ts argumentsObject). Missing `arguments` are `{}`: the spec makes
 * them optional. What is not an object is set aside under GIVEN, so the SDK's
 * own check of the request, which runs on this schema's output, passes.
 */
export const LooseCallToolRequestSchema = CallToolRequestSchema.extend({
  params: CallToolRequestParamsSchema.extend({ arguments: z.unknown().optional() }).transform(
    ({ arguments: given, ...params }) => {
      const args = given === undefined ? {} : given;
      const object = typeof args === "object" && args !== null && !Array.isArray(args);
      return {
        ...params,
        arguments: object ? (args as Record<string, unknown>) : undefined,
        [GIVEN]: args,
      };
    },
  ),
});

/**
 * A JSON-RPC error for the SDK to send. Not McpError: its message already
 * reads "MCP error -32602: …", and the client's McpError adds that again.
 */
function protocolError(code: ErrorCode, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** What answering a call needs of its server. */
export interface CallDeps {
  roots: ClientRoots;
  /** Send results as structuredContent (McpServerOptions.structured). */
  structured: boolean;
  tell: (level: LoggingLevel, line: string) => void;
  /** What is known of the connected client (clients.ts), once it has said who it is. */
  client: () => ClientTraits;
  /** The calls running now, so the server knows when it is idle. */
  running: Set<Promise<unknown>>;
}

/** Runs one tools/call and answers it as MCP says. */
export async function answerCall(
  request: z.output<typeof LooseCallToolRequestSchema>,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  { roots, structured, tell, client, running }: CallDeps,
): Promise<CallToolResult> {
  const { name, [GIVEN]: args } = request.params;
  const ask = () =>
    extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema, {
      timeout: ROOTS_TIMEOUT_MS,
    });
  const token = request.params._meta?.progressToken;
  const progress =
    token === undefined
      ? undefined
      : progressSender(token, (params) =>
          extra.sendNotification({ method: "notifications/progress", params }),
        );
  // The SDK aborts extra.signal when the client cancels the call or the connection closes.
  const options = { signal: extra.signal, ...(progress && { onProgress: progress.listener }) };
  const pending = roots.current(ask).then((set) => set.call(name, args, options));
  running.add(pending);
  try {
    const result = await pending;
    await progress?.finish();
    return successResult(name, result, { structured });
  } catch (error) {
    if (isToolError(error) && error.code === "unknown_tool") {
      throw protocolError(ErrorCode.InvalidParams, error.message);
    }
    // A cancelled call's answer is never sent; its abort error is no failure.
    if (extra.signal.aborted) tell("info", `${name} stopped: cancelled or the connection closed`);
    else if (!isToolError(error)) {
      tell("error", `${name} failed: ${error instanceof Error ? error.stack : String(error)}`);
    }
    await progress?.finish();
    return errorResult(name, error, { structured, textOnlyErrors: client().errorsAsRawJson });
  } finally {
    running.delete(pending);
  }
}
