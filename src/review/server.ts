/**
 * The review page's server: the page, a JSON API (api.ts) and an event
 * stream (stream.ts), all under /review. Every answer comes from a tool call
 * (undo's list, history, undo, rollback) on the toolkit it is given, so the
 * page can do nothing the tools cannot, and the tools' guard keeps it inside
 * the root. `splice
 * review` runs it alone (`serveReview`); `splice serve --http` mounts
 * `reviewRoutes` beside /mcp.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Listener } from "../events.js";
import { createToolkit, type Toolkit } from "../toolkit/index.js";
import { listen } from "../util/listen.js";
import { apiRoutes, callRoute, send } from "./api.js";
import { allowedHosts, newReviewToken, type Refusal, refusal } from "./guard.js";
import { reviewPage } from "./html.js";
import { SessionStream } from "./stream.js";

export const REVIEW_PATH = "/review";
/** The history session of what a person does on the page: the timeline names it so. */
export const REVIEW_SESSION = "review";

export interface ReviewRoutes {
  /** Answers a request under /review; false when the path is not the page's. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Sets the Host values the server answers to, once its port is known. */
  listening(host: string, port: number): void;
  /**
   * Told of another toolkit's events in this process (an MCP connection's,
   * through `ToolkitOptions.listeners`): its changes reach the page at once.
   */
  readonly hear: Listener;
  /** Ends the event streams. */
  close(): void;
}

function refuse(res: ServerResponse, r: Refusal): void {
  send(res, r.status, { error: { code: r.code, message: r.message } });
}

export function reviewRoutes(toolkit: Toolkit, token: string): ReviewRoutes {
  let hosts: ReadonlySet<string> = new Set();
  const api = apiRoutes(toolkit);
  const stream = new SessionStream(toolkit);

  return {
    handle(req, res) {
      const url = new URL(req.url ?? "/", "http://review");
      const path = url.pathname.replace(/\/+$/, "");
      if (path !== REVIEW_PATH && !path.startsWith(`${REVIEW_PATH}/`)) return false;
      const route = path.startsWith(`${REVIEW_PATH}/api/`)
        ? api[path.slice(`${REVIEW_PATH}/api/`.length)]
        : undefined;
      const why = refusal(req, url, { hosts, token, changes: route?.changes ?? false });
      if (why) {
        refuse(res, why);
        return true;
      }
      if (path === REVIEW_PATH) {
        res
          .writeHead(200, {
            "content-type": "text/html; charset=utf-8",
            "cache-control": "no-store",
            // Everything is inline and bundled; the page talks only to this server.
            "content-security-policy":
              "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
            "referrer-policy": "no-referrer",
            "x-content-type-options": "nosniff",
          })
          .end(reviewPage());
      } else if (path === `${REVIEW_PATH}/events`) {
        stream.open(req, res);
      } else if (route) {
        callRoute(route, req, res, url).catch((error: unknown) => {
          if (!res.headersSent) {
            send(res, 500, { error: { code: "internal", message: String(error) } });
          } else res.end();
        });
      } else {
        send(res, 404, {
          error: {
            code: "not_found",
            message: `No such page: ${path}. The page is ${REVIEW_PATH}.`,
          },
        });
      }
      return true;
    },
    listening(host, port) {
      hosts = allowedHosts(host, port);
    },
    hear: stream.hear,
    close() {
      stream.close();
    },
  };
}

/**
 * The toolkit the page acts through: every tool, on the page's own history
 * session. A language server still starting does not hold a click: its
 * verdict comes later (lsp-health), as on the command line.
 */
export function reviewToolkit(root: string): Toolkit {
  return createToolkit({
    root,
    history: { session: REVIEW_SESSION },
    lsp: { coldStart: "background" },
  });
}

export interface ReviewServerOptions {
  /** The project whose history the page shows. */
  root: string;
  /** 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1: this machine only. */
  host?: string;
  /** Default: a fresh random one. */
  token?: string;
}

export interface ReviewServer {
  /** The page's address with its token: what a person opens. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Told of another toolkit's events in this process, so its changes reach the page at once. */
  readonly hear: Listener;
  close(): Promise<void>;
}

/** The page's address for a server on `host:port`. */
export function reviewUrl(host: string, port: number, token: string): string {
  const shown = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `http://${shown}:${port}${REVIEW_PATH}?token=${encodeURIComponent(token)}`;
}

export async function serveReview(options: ReviewServerOptions): Promise<ReviewServer> {
  const { root, port: wanted = 0, host = "127.0.0.1", token = newReviewToken() } = options;
  const toolkit = reviewToolkit(root);
  const routes = reviewRoutes(toolkit, token);
  const http = createServer((req, res) => {
    if (routes.handle(req, res)) return;
    send(res, 404, {
      error: { code: "not_found", message: `Nothing here: the page is ${REVIEW_PATH}?token=…` },
    });
  });
  const port = await listen(http, wanted, host);
  routes.listening(host, port);
  return {
    url: reviewUrl(host, port, token),
    port,
    token,
    hear: routes.hear,
    close: async () => {
      routes.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await toolkit.close();
    },
  };
}
