/**
 * splice's MCP server over Streamable HTTP (node:http, stateful mode): each
 * client that initializes gets a session id and its own server object, so
 * its own history session. Bound to 127.0.0.1 by default, and guarded the
 * way the spec's security warning asks: a page in a browser must not reach
 * it through DNS rebinding (Host and Origin checks), and a token, when set,
 * must come with every request.
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { listen } from "../../util/listen.js";
import { SessionEventStore } from "./event-store.js";
import { rootsBound } from "./roots.js";
import { createMcpServer, type McpServerOptions } from "./server.js";
import { formatLimit } from "./stdio.js";

export interface HttpServeOptions extends McpServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1: reachable from this machine only. */
  host?: string;
  /** Require `Authorization: Bearer <token>` on every request. */
  token?: string;
  /**
   * A session no request has used for this long is closed (its history
   * session stays on disk); the client starts a new one on the 404 that
   * follows. Default SESSION_IDLE_MS; 0 keeps sessions until DELETE.
   */
  sessionIdleMs?: number;
  /** Pages served beside /mcp (the review page), each behind its own checks. */
  routes?: HttpRoutes;
}

/** A set of pages that answers the requests it owns and leaves the rest to MCP. */
export interface HttpRoutes {
  /** True when it answered the request. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** The bound host and port, once listening (their Host check needs the port). */
  listening(host: string, port: number): void;
  close(): void;
}

export interface HttpServer {
  /** The endpoint, e.g. http://127.0.0.1:3000/mcp. */
  readonly url: string;
  readonly port: number;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

export const MCP_PATH = "/mcp";
/** Clients rarely send DELETE: an abandoned session would otherwise live as long as the server. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** The SSE `retry` field: how long a client waits before it resumes a stream that broke. */
export const SSE_RETRY_MS = 1000;
/** An initialize (the one request read before a session exists) is small; calls may carry files. */
const MAX_INITIALIZE_BYTES = 1024 * 1024;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (status === 401) headers["www-authenticate"] = 'Bearer realm="splice"';
  res
    .writeHead(status, headers)
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** The Host values a client on this machine sends: the bound host or a loopback name, with the port. */
function allowedHosts(host: string, port: number): Set<string> {
  const bound = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return new Set([bound, ...LOOPBACK].map((h) => `${h.toLowerCase()}:${port}`));
}

function loopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK.has(url.hostname);
  } catch {
    return false;
  }
}

/** Equal-time comparison of the presented token (hashed, so lengths match). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim() ?? "";
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_INITIALIZE_BYTES) {
      throw new Error(
        `a request without a session id is over ${formatLimit(MAX_INITIALIZE_BYTES)}`,
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

export async function serveHttp(options: HttpServeOptions): Promise<HttpServer> {
  const {
    port: wanted,
    host = "127.0.0.1",
    token,
    sessionIdleMs = SESSION_IDLE_MS,
    routes,
    ...serverOptions
  } = options;
  const log = options.log ?? (() => {});
  // A bad --roots-within fails here, not at each client's initialize.
  rootsBound(serverOptions.root ?? process.cwd(), serverOptions.rootsWithin);
  const sessions = new Map<string, Session>();
  let hosts = new Set<string>();

  /** Refuses what must not reach a session; true when a reply was sent. */
  const refused = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!hosts.has((req.headers.host ?? "").toLowerCase())) {
      reply(res, 403, -32000, `Forbidden: Host "${req.headers.host}" is not this server.`);
      return true;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !loopbackOrigin(origin)) {
      reply(res, 403, -32000, `Forbidden: Origin "${origin}" may not use this server.`);
      return true;
    }
    if (token !== undefined && !tokenMatches(req.headers.authorization, token)) {
      reply(res, 401, -32001, "Unauthorized: send Authorization: Bearer <token>.");
      return true;
    }
    if (new URL(req.url ?? "/", "http://x").pathname !== MCP_PATH) {
      reply(res, 404, -32601, `Not found: the MCP endpoint is ${MCP_PATH}.`);
      return true;
    }
    return false;
  };

  /** A request without a session id must be an initialize; it opens a new session. */
  const open = async (req: IncomingMessage, res: ServerResponse) => {
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
      return reply(res, 400, -32700, `Parse error: ${(error as Error).message}.`);
    }
    if (!isInitializeRequest(body)) {
      return reply(res, 400, -32000, "Bad Request: no session id; send initialize first.");
    }
    const mcp = createMcpServer(serverOptions);
    const { server, maxMessageBytes } = mcp;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      // Answered with 413 and a JSON-RPC error naming the limit; the session goes on.
      maxRequestBodySize: maxMessageBytes,
      // Streams start with an event id and `retry`, and resume after a break (2025-11-25).
      eventStore: new SessionEventStore(),
      retryInterval: SSE_RETRY_MS,
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
    });
    const session = new Session(transport);
    server.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void mcp.release();
    };
    await server.connect(transport);
    await session.handle(req, res, body);
  };

  /** Closes the sessions no request has used for sessionIdleMs. */
  const expire = () => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (!session.idleSince(now, sessionIdleMs)) continue;
      sessions.delete(id);
      log(`session ${id} expired after ${Math.round(sessionIdleMs / 1000)} s without a request`);
      session.transport.close().catch(() => {});
    }
  };
  const sweeper =
    sessionIdleMs > 0
      ? setInterval(expire, Math.min(60_000, Math.max(10, sessionIdleMs / 4)))
      : undefined;
  sweeper?.unref();

  const http = createServer((req, res) => {
    if (routes?.handle(req, res) || refused(req, res)) return;
    const id = req.headers["mcp-session-id"];
    const handled =
      typeof id === "string"
        ? (sessions.get(id)?.handle(req, res) ??
          reply(res, 404, -32001, "Session not found: initialize a new session."))
        : req.method === "POST"
          ? open(req, res)
          : reply(res, 400, -32000, "Bad Request: no session id; POST initialize first.");
    Promise.resolve(handled).catch((error: unknown) => {
      log(`HTTP request failed: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) reply(res, 500, -32603, "Internal error.");
      else res.end();
    });
  });

  const port = await listen(http, wanted, host);
  hosts = allowedHosts(host, port);
  routes?.listening(host, port);
  const shown = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shown}:${port}${MCP_PATH}`;
  log(`serving over HTTP at ${url}${token ? " (bearer token required)" : ""}`);

  return {
    url,
    port,
    close: async () => {
      if (sweeper) clearInterval(sweeper);
      routes?.close();
      await Promise.all([...sessions.values()].map((s) => s.transport.close()));
      sessions.clear();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
