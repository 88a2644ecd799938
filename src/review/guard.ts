/**
 * The review page's door. The page can undo files, so every request must
 * prove it comes from the person who started the server, in their own tab:
 * - Host must name this server (127.0.0.1:port, localhost:port or the bound
 *   host): a hostile name resolved to 127.0.0.1 (DNS rebinding) is refused.
 * - The per-start token on every API call: a header, or `?token=` on the
 *   page and the event stream (a browser can put no header on those).
 * - A change is a POST of JSON whose Origin (or Sec-Fetch-Site) says it comes
 *   from this origin: another page in the same browser cannot forge an undo,
 *   even one that learned the URL.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export interface Refusal {
  status: 400 | 401 | 403 | 404 | 405 | 415;
  code: string;
  message: string;
}

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** A fresh token for one start of the page: 128 random bits, URL-safe. */
export function newReviewToken(): string {
  return randomBytes(16).toString("base64url");
}

/** The Host values a browser on this machine sends for this server. */
export function allowedHosts(host: string, port: number): Set<string> {
  const bound = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return new Set([bound, ...LOOPBACK].map((h) => `${h.toLowerCase()}:${port}`));
}

/** Equal-time comparison (hashed first, so the lengths match). */
function same(presented: string, token: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

/** The token a request presents: `X-Splice-Token`, `Authorization: Bearer`, or (GET only) `?token=`. */
function presented(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers["x-splice-token"];
  if (typeof header === "string") return header;
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1]?.trim();
  if (bearer !== undefined) return bearer;
  return req.method === "GET" ? (url.searchParams.get("token") ?? undefined) : undefined;
}

/** Whether a state-changing request comes from a page of this very origin. */
function sameOrigin(req: IncomingMessage): Refusal | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) {
    return {
      status: 403,
      code: "cross_origin",
      message: `Origin "${origin}" may not change files here: only the review page itself (http://${req.headers.host}) can.`,
    };
  }
  const site = req.headers["sec-fetch-site"];
  if (typeof site === "string" && site !== "same-origin" && site !== "none") {
    return {
      status: 403,
      code: "cross_origin",
      message: `A ${site} request may not change files here: only the review page itself can.`,
    };
  }
  // A form post is a "simple" request a foreign page can send without asking; JSON is not.
  if (!(req.headers["content-type"] ?? "").startsWith("application/json")) {
    return {
      status: 415,
      code: "bad_request",
      message: "Send the action as JSON (Content-Type: application/json).",
    };
  }
  return undefined;
}

/**
 * Why the request is refused, or undefined when it may go on. `changes`:
 * the route writes files (POST only, same origin).
 */
export function refusal(
  req: IncomingMessage,
  url: URL,
  options: { hosts: ReadonlySet<string>; token: string; changes: boolean },
): Refusal | undefined {
  const host = (req.headers.host ?? "").toLowerCase();
  if (!options.hosts.has(host)) {
    return {
      status: 403,
      code: "bad_host",
      message: `Host "${req.headers.host ?? ""}" is not this server; open the page at the address splice review printed.`,
    };
  }
  const token = presented(req, url);
  if (token === undefined || !same(token, options.token)) {
    return {
      status: 401,
      code: "bad_token",
      message: `${token === undefined ? "No" : "Wrong"} review token: open the page at the address splice review printed (it ends in ?token=…).`,
    };
  }
  if (!options.changes) {
    if (req.method === "GET" || req.method === "HEAD") return undefined;
    return {
      status: 405,
      code: "bad_method",
      message: `${req.method} is not allowed here; use GET.`,
    };
  }
  if (req.method !== "POST") {
    return {
      status: 405,
      code: "bad_method",
      message: `${req.method} may not change files; the page sends a POST.`,
    };
  }
  return sameOrigin(req);
}
