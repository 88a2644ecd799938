/**
 * What an HTTP request must pass before it reaches an MCP session, as the
 * spec's security warning asks: a page in a browser must not reach the
 * server through DNS rebinding (Host and Origin checks), and a token, when
 * set, must come with every request but the OAuth discovery a client without
 * it makes (http-auth.ts), which is told to send it.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { answerDiscovery, challenge, unauthorized } from "./http-auth.js";

export const MCP_PATH = "/mcp";
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A JSON-RPC error as the HTTP answer. */
export function reply(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** The Host values a client on this machine sends: the bound host or a loopback name, with the port. */
export function allowedHosts(host: string, port: number): Set<string> {
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

/** The bearer token a request presents, or undefined. */
function presentedToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim();
}

/** Equal-time comparison of the presented token (hashed, so lengths match). */
function tokenMatches(presented: string, token: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

/** What requests must show: the Host values of this server, and the token when one is set. */
export interface RequestRules {
  hosts: Set<string>;
  token: string | undefined;
}

/** Refuses what must not reach a session; true when a reply was sent. */
export function refused(req: IncomingMessage, res: ServerResponse, rules: RequestRules): boolean {
  if (!rules.hosts.has((req.headers.host ?? "").toLowerCase())) {
    reply(res, 403, -32000, `Forbidden: Host "${req.headers.host}" is not this server.`);
    return true;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !loopbackOrigin(origin)) {
    reply(res, 403, -32000, `Forbidden: Origin "${origin}" may not use this server.`);
    return true;
  }
  const path = new URL(req.url ?? "/", "http://x").pathname;
  if (rules.token !== undefined) {
    if (answerDiscovery(req, res, path, MCP_PATH)) return true;
    const presented = presentedToken(req.headers.authorization);
    if (presented === undefined || !tokenMatches(presented, rules.token)) {
      const given = presented !== undefined;
      reply(res, 401, -32001, unauthorized(given), {
        "www-authenticate": challenge(req, MCP_PATH, given),
      });
      return true;
    }
  }
  if (path !== MCP_PATH) {
    reply(res, 404, -32601, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    return true;
  }
  return false;
}
