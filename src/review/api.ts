/**
 * The review page's JSON API, one route per resource: the list of backup
 * sessions (undo's list), a file's history, undo and rollback. Each is a
 * tool call on the page's toolkit, with only the fields that tool takes.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isToolError } from "../errors.js";
import type { Toolkit } from "../toolkit/index.js";

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

/** One resource of the API: whether it changes files (a POST with a body), and the tool call it is. */
export interface Route {
  changes: boolean;
  run(url: URL, body: Record<string, unknown>): Promise<unknown>;
}

/** A JSON answer; never cached, never sniffed. */
export function send(res: ServerResponse, status: number, body: unknown): void {
  res
    .writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    })
    .end(JSON.stringify(body));
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

/** The routes under /review/api/, by name. */
export function apiRoutes(toolkit: Toolkit): Record<string, Route> {
  return {
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
}

/** Runs a route and answers with its result, or the tool's refusal as HTTP says it. */
export async function callRoute(
  route: Route,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
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
}
