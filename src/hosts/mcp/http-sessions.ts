/**
 * The MCP sessions of an HTTP server (stateful mode): a request without a
 * session id must be an initialize and opens one, with its own server object
 * and so its own history session; a session no request used for a while is
 * closed.
 */

import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { formatBytes } from "../../util/format.js";
import { SessionEventStore } from "./event-store.js";
import { reply } from "./http-guard.js";
import { createMcpServer, type McpServerOptions } from "./server.js";

/** The SSE `retry` field: how long a client waits before it resumes a stream that broke. */
export const SSE_RETRY_MS = 1000;
/** An initialize (the one request read before a session exists) is small; calls may carry files. */
const MAX_INITIALIZE_BYTES = 1024 * 1024;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_INITIALIZE_BYTES) {
      throw new Error(
        `a request without a session id is over ${formatBytes(MAX_INITIALIZE_BYTES, "limit")}`,
      );
    }
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** One client's session: its transport, and when a request last used it. */
class Session {
  #open = 0;
  #last = Date.now();

  constructor(readonly transport: StreamableHTTPServerTransport) {}

  /** Handles a request; the session is busy until its response ends (an SSE stream may stay open). */
  async handle(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    this.#open++;
    this.#last = Date.now();
    res.once("close", () => {
      this.#open--;
      this.#last = Date.now();
    });
    await this.transport.handleRequest(req, res, body);
  }

  idleSince(now: number, idleMs: number): boolean {
    return this.#open === 0 && now - this.#last >= idleMs;
  }
}

export class HttpSessions {
  readonly #sessions = new Map<string, Session>();
  /** Sessions closing: their aborted calls settling, their roots being released. */
  readonly #releasing = new Set<Promise<void>>();
  readonly #sweeper: NodeJS.Timeout | undefined;

  constructor(
    readonly options: McpServerOptions,
    readonly idleMs: number,
    readonly log: (line: string) => void,
  ) {
    this.#sweeper =
      idleMs > 0
        ? setInterval(() => this.#expire(), Math.min(60_000, Math.max(10, idleMs / 4)))
        : undefined;
    this.#sweeper?.unref();
  }

  /** Hands a request to its session; a request without a session id must be an initialize. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> | void {
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      return (
        this.#sessions.get(id)?.handle(req, res) ??
        reply(res, 404, -32001, "Session not found: initialize a new session.")
      );
    }
    if (req.method === "POST") return this.#open(req, res);
    return reply(res, 400, -32000, "Bad Request: no session id; POST initialize first.");
  }

  /** A request without a session id must be an initialize; it opens a new session. */
  async #open(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
      return reply(res, 400, -32700, `Parse error: ${(error as Error).message}.`);
    }
    if (!isInitializeRequest(body)) {
      return reply(res, 400, -32000, "Bad Request: no session id; send initialize first.");
    }
    const mcp = createMcpServer(this.options);
    const { server, maxMessageBytes } = mcp;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      // Answered with 413 and a JSON-RPC error naming the limit; the session goes on.
      maxRequestBodySize: maxMessageBytes,
      // Streams start with an event id and `retry`, and resume after a break (2025-11-25).
      eventStore: new SessionEventStore(),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (id) => {
        this.#sessions.set(id, session);
      },
    });
    const session = new Session(transport);
    server.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
      const released = mcp.release().finally(() => this.#releasing.delete(released));
      this.#releasing.add(released);
    };
    await server.connect(transport);
    await session.handle(req, res, body);
  }

  /** Closes the sessions no request has used for idleMs. */
  #expire(): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions) {
      if (!session.idleSince(now, this.idleMs)) continue;
      this.#sessions.delete(id);
      this.log(`session ${id} expired after ${Math.round(this.idleMs / 1000)} s without a request`);
      session.transport.close().catch(() => {});
    }
  }

  /** Ends every session. */
  async close(): Promise<void> {
    if (this.#sweeper) clearInterval(this.#sweeper);
    await Promise.all([...this.#sessions.values()].map((s) => s.transport.close()));
    this.#sessions.clear();
    await Promise.allSettled([...this.#releasing]);
  }
}
