/**
 * splice's MCP server over Streamable HTTP (node:http, stateful mode): each
 * client that initializes gets a session id and its own server object, so
 * its own history session. Bound to 127.0.0.1 by default, and guarded the
 * way the spec's security warning asks: a page in a browser must not reach
 * it through DNS rebinding (Host and Origin checks), and a token, when set,
 * must come with every request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listen } from "../../util/listen.js";
import { allowedHosts, MCP_PATH, type RequestRules, refused, reply } from "./http-guard.js";
import { HttpSessions } from "./http-sessions.js";
import { rootsBound } from "./roots.js";
import type { McpServerOptions } from "./server.js";

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

/** Clients rarely send DELETE: an abandoned session would otherwise live as long as the server. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;

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
  const sessions = new HttpSessions(serverOptions, sessionIdleMs, log);
  const rules: RequestRules = { hosts: new Set(), token };

  const http = createServer((req, res) => {
    if (routes?.handle(req, res) || refused(req, res, rules)) return;
    Promise.resolve(sessions.handle(req, res)).catch((error: unknown) => {
      log(`HTTP request failed: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) reply(res, 500, -32603, "Internal error.");
      else res.end();
    });
  });

  const port = await listen(http, wanted, host);
  rules.hosts = allowedHosts(host, port);
  routes?.listening(host, port);
  const shown = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shown}:${port}${MCP_PATH}`;
  log(`serving over HTTP at ${url}${token ? " (bearer token required)" : ""}`);

  return {
    url,
    port,
    close: async () => {
      routes?.close();
      await sessions.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
