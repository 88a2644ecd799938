/**
 * MCP over stdin/stdout: one JSON-RPC message per line. splice reads the
 * lines itself rather than through the SDK's StdioServerTransport, whose read
 * buffer stops at 10 MiB and then closes the transport — one large write
 * would end the server. Here a line over the limit is skipped to its end and
 * answered with a JSON-RPC error naming the limit, and a line that is not
 * JSON-RPC is answered too (JSON-RPC asks for both); the server keeps serving.
 */

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { formatBytes } from "../../util/format.js";

export const NOT_JSON_RPC =
  "the message is JSON but not a JSON-RPC 2.0 request, notification or response";

/** How much of an oversized line's start and end is kept to find its id. */
const EDGE_BYTES = 1024;

/**
 * The id of a request too large to read, from its first or last bytes: the
 * SDK's client writes `"id"` last, others first. Undefined when neither
 * edge names one at the top level.
 */
export function idAtEdges(head: string, tail: string): RequestId | undefined {
  const value = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
  const first = new RegExp(
    String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}`,
  );
  const last = new RegExp(String.raw`,\s*"id"\s*:\s*${value}\s*\}\s*$`);
  const found = first.exec(head)?.[1] ?? last.exec(tail)?.[1];
  return found === undefined ? undefined : (JSON.parse(found) as RequestId);
}

function errorReply(code: ErrorCode, message: string, id?: RequestId): JSONRPCErrorResponse {
  // Without an id (none could be read) the MCP schema allows the answer to carry none.
  return { jsonrpc: "2.0", ...(id === undefined ? {} : { id }), error: { code, message } };
}

export class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  #parts: Buffer[] = [];
  #size = 0;
  /** Set while the rest of an oversized line is skipped. */
  #skipping: { head: string; tail: Buffer } | undefined;
  #closed = false;

  constructor(
    private readonly maxMessageBytes: number,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.stdin.on("data", this.#ondata);
    this.stdin.on("error", this.#onerror);
  }

  readonly #onerror = (error: Error) => this.onerror?.(error);

  readonly #ondata = (chunk: Buffer | string) => {
    let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    for (let nl = data.indexOf(10); nl !== -1 && !this.#closed; nl = data.indexOf(10)) {
      this.#take(data.subarray(0, nl));
      this.#endLine();
      data = data.subarray(nl + 1);
    }
    if (data.length > 0) this.#take(data);
  };

  /** Part of the current line: kept, or only its edges once the line is over the limit. */
  #take(part: Buffer): void {
    if (this.#skipping) {
      this.#skipping.tail = Buffer.concat([this.#skipping.tail, part]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.#size + part.length <= this.maxMessageBytes) {
      this.#parts.push(part);
      this.#size += part.length;
      return;
    }
    const line = Buffer.concat([...this.#parts, part]);
    this.#skipping = {
      head: line.subarray(0, EDGE_BYTES).toString("utf8"),
      tail: line.subarray(-EDGE_BYTES),
    };
    this.#parts = [];
    this.#size = 0;
  }

  #endLine(): void {
    if (this.#skipping) {
      const { head, tail } = this.#skipping;
      this.#skipping = undefined;
      const id = idAtEdges(head, tail.toString("utf8"));
      const limit = formatBytes(this.maxMessageBytes, "limit");
      this.onerror?.(new Error(`skipped a message over ${limit}`));
      this.#answer(
        errorReply(
          ErrorCode.InvalidRequest,
          `Invalid Request: the message is over ${limit}, the most splice reads in one message. Send less in one call: write a large file in parts (file with "append"), or edit it instead of replacing it.`,
          id,
        ),
      );
      return;
    }
    const line = Buffer.concat(this.#parts).toString("utf8").replace(/\r$/, "");
    this.#parts = [];
    this.#size = 0;
    if (line.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      this.onerror?.(error as Error);
      return this.#answer(
        errorReply(ErrorCode.ParseError, `Parse error: ${(error as Error).message}`),
      );
    }
    const message = JSONRPCMessageSchema.safeParse(json);
    if (!message.success) {
      this.onerror?.(new Error(NOT_JSON_RPC));
      return this.#answer(
        errorReply(ErrorCode.InvalidRequest, `Invalid Request: ${NOT_JSON_RPC}.`),
      );
    }
    this.onmessage?.(message.data);
  }

  #answer(reply: JSONRPCErrorResponse): void {
    this.send(reply).catch(() => {});
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.stdin.off("data", this.#ondata);
    this.stdin.off("error", this.#onerror);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.#parts = [];
    this.onclose?.();
  }
}
