/**
 * The review page's server: the page, a JSON API and an event stream, all
 * under /review. Every answer comes from a tool call (undo's list, history,
 * undo, rollback) on the toolkit it is given, so the page can do nothing the
 * tools cannot, and the tools' guard keeps it inside the root. `splice
 * review` runs it alone (`serveReview`); `splice serve --http` mounts
 * `reviewRoutes` beside /mcp.
 */
import { type FSWatcher, watch } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isToolError } from "../errors.js";
import type { Listener } from "../events.js";
import { createToolkit, type Toolkit } from "../toolkit/index.js";
import { listen } from "../util/listen.js";
import { allowedHosts, newReviewToken, type Refusal, refusal } from "./guard.js";
import { reviewPage } from "./html.js";

export const REVIEW_PATH = "/review";
/** The history session of what a person does on the page: the timeline names it so. */
export const REVIEW_SESSION = "review";
/**
 * How long the history folder's events are gathered before history is
 * asked whether a backup session appeared: one change is several appends.
 */
const SETTLE_MS = 30;
/** undo's own ceiling for one page of its list; the page asks for the next as it scrolls. */
const LIST_LIMIT = 200;
const MAX_BODY_BYTES = 64 * 1024;
/** A tool's refusal as HTTP says it; any other is 422 (understood, not done). */
const REFUSAL_STATUS: Partial<Record<string, number>> = {
  guard: 403,
  not_found: 404,
  conflict: 409,
  stale: 409,
};

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

interface Route {
  changes: boolean;
  run(url: URL, body: Record<string, unknown>): Promise<unknown>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    })
    .end(JSON.stringify(body));
}

function refuse(res: ServerResponse, r: Refusal): void {
  send(res, r.status, { error: { code: r.code, message: r.message } });
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new SyntaxError("the request body is too large");
    chunks.push(chunk);
  }
  const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new SyntaxError("the request body must be a JSON object");
  }
  return parsed as Record<string, unknown>;
}

/** The page's preview flag as the tools' `mode`. */
function mode(body: Record<string, unknown>): "preview" | "apply" {
  return body.preview === false ? "apply" : "preview";
}

/** Only the fields a tool call takes, so the page cannot pass anything else through. */
function pick(body: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((n) => body[n] !== undefined).map((n) => [n, body[n]]));
}

/**
 * What changes whenever anyone (this server, an agent in another process)
 * opens or finishes a backup session: a count of the journal's index, not
 * a list with diffs, since every append in the history folder asks it.
 */
function stamp(toolkit: Toolkit): string {
  const { count, newest } = toolkit.context.history.backupMark();
  return `${count} ${newest ?? ""}`;
}

/** Who noticed a change: this process's tools (their event bus) or the history folder's watch. */
type Noticed = "events" | "watch";

export function reviewRoutes(toolkit: Toolkit, token: string): ReviewRoutes {
  let hosts: ReadonlySet<string> = new Set();
  const streams = new Set<ServerResponse>();
  let last: string | undefined;
  let watcher: FSWatcher | undefined;
  let settling: NodeJS.Timeout | undefined;
  let telling: NodeJS.Immediate | undefined;

  const api: Record<string, Route> = {
    sessions: {
      changes: false,
      run: (url) =>
        toolkit.call("undo", {
          list: true,
          all_sessions: true,
          limit: Math.min(LIST_LIMIT, Number(url.searchParams.get("limit")) || LIST_LIMIT),
          ...pick(Object.fromEntries(url.searchParams), ["before"]),
        }),
    },
    history: {
      changes: false,
      run: (url) => toolkit.call("history", { path: url.searchParams.get("path") ?? "" }),
    },
    undo: {
      changes: true,
      run: (_, body) =>
        toolkit.call("undo", {
          ...pick(body, ["backup_session", "path", "force"]),
          all_sessions: true,
          mode: mode(body),
        }),
    },
    rollback: {
      changes: true,
      run: (_, body) =>
        toolkit.call("rollback", { ...pick(body, ["path", "hash"]), mode: mode(body) }),
    },
  };

  /** Tells every open page when a backup session appeared (by this process or any other). */
  const tell = (by: Noticed) => {
    let now: string | undefined;
    try {
      now = stamp(toolkit);
    } catch {
      return; // History unreadable for a moment (gc rewriting it): the next change sees it.
    }
    if (now === last) return;
    last = now;
    const data = JSON.stringify({ stamp: now, by });
    for (const res of streams) res.write(`event: sessions\ndata: ${data}\n\n`);
  };
  /**
   * Looks once the change is done: right after a tool's call said so, or
   * once the folder settles. A tool's word comes after its own appends were
   * seen in the folder, and makes waiting for them needless.
   */
  const soon = (by: Noticed) => {
    if (streams.size === 0) return;
    if (by === "events") {
      clearTimeout(settling);
      settling = undefined;
      telling ??= setImmediate(() => {
        telling = undefined;
        tell("events");
      });
    } else {
      settling ??= setTimeout(() => {
        settling = undefined;
        tell("watch");
      }, SETTLE_MS);
    }
  };
  const hear: Listener = (event) => {
    if (event.type === "files_changed") soon("events");
  };
  const off = toolkit.events.on(hear);

  /**
   * Other processes (an agent, a `splice` command) append to the same
   * journal: the history folder's events say when, instead of a timer. Any
   * event there may be one (the journal, its lock, a compaction's rename);
   * the stamp tells which made a backup session.
   */
  const watchHistory = () => {
    try {
      watcher = watch(toolkit.context.history.dir, { persistent: false }, () => soon("watch"));
      watcher.on("error", unwatch);
    } catch {
      // No folder to watch (history unavailable): only this process's changes are heard.
    }
  };
  const unwatch = () => {
    watcher?.close();
    watcher = undefined;
  };

  const events = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-store",
      connection: "keep-alive",
    });
    try {
      // What the page just loaded is the baseline; only what comes after is news. With no
      // page listening nobody was told, so the stamp is taken again.
      if (streams.size === 0) last = stamp(toolkit);
    } catch {}
    res.write("retry: 1000\nevent: hello\ndata: {}\n\n");
    streams.add(res);
    if (!watcher) watchHistory();
    req.once("close", () => {
      streams.delete(res);
      if (streams.size === 0) unwatch();
    });
  };

  const call = async (route: Route, req: IncomingMessage, res: ServerResponse, url: URL) => {
    let body: Record<string, unknown> = {};
    if (route.changes) {
      try {
        body = await readBody(req);
      } catch (error) {
        return send(res, 400, {
          error: { code: "bad_request", message: `Bad request: ${(error as Error).message}.` },
        });
      }
    }
    try {
      send(res, 200, await route.run(url, body));
    } catch (error) {
      if (!isToolError(error)) throw error;
      // The tool's own refusal (a conflict, a path outside the root): the page shows it as said.
      send(res, REFUSAL_STATUS[error.code] ?? 422, {
        error: { code: error.code, message: error.message, facts: error.facts, ...error.details },
      });
    }
  };

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
        events(req, res);
      } else if (route) {
        call(route, req, res, url).catch((error: unknown) => {
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
    hear,
    close() {
      off();
      unwatch();
      clearTimeout(settling);
      if (telling) clearImmediate(telling);
      for (const res of streams) res.end();
      streams.clear();
    },
  };
}

/** The toolkit the page acts through: every tool, on the page's own history session. */
export function reviewToolkit(root: string): Toolkit {
  return createToolkit({ root, history: { session: REVIEW_SESSION } });
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
