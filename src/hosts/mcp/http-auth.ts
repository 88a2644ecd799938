/**
 * What a client learns about authorization from a server started with
 * `--token`: a static bearer token the person configures, and no OAuth.
 *
 * Clients answer a 401 with the MCP authorization flow: the protected
 * resource metadata (RFC 9728), then the authorization server's metadata
 * (RFC 8414), then dynamic client registration at `/register`. When every
 * one of those answered 401, Claude Code reported "Dynamic Client
 * Registration rejected (HTTP 401)" and nothing about a token. So they are
 * answered without the token: the resource metadata names no authorization
 * server, the server metadata is not found, and each OAuth endpoint refuses
 * with an OAuth error whose `error_description` says to send the header; the
 * SDK's client raises that description, and Claude Code shows the body.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** RFC 9728 §3: the metadata of a resource at /mcp lives at this path followed by /mcp. */
export const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/** The one fix, for a person setting up a client: no quotes, it also travels in a header value. */
export const SEND_THE_TOKEN =
  "send the header Authorization: Bearer <token>, with the token splice serve was started with (--token or SPLICE_TOKEN)";

/** Why a request without the right token was refused: said in the 401's body and its header. */
export function unauthorized(presented: boolean): string {
  return presented
    ? `Unauthorized: the bearer token is not this server's; ${SEND_THE_TOKEN}.`
    : `Unauthorized: this server needs a bearer token, not OAuth; configure your client to ${SEND_THE_TOKEN}.`;
}

/** What an OAuth step hears: splice is no authorization server and registers no client. */
const NO_OAUTH = `This server needs a bearer token, not OAuth: configure your client to ${SEND_THE_TOKEN}.`;

/** The 401's WWW-Authenticate (RFC 6750 §3, with RFC 9728 §5.1's resource_metadata). */
export function challenge(req: IncomingMessage, mcpPath: string, presented: boolean): string {
  const metadata = `${origin(req)}${RESOURCE_METADATA_PATH}${mcpPath}`;
  const error = presented ? ', error="invalid_token"' : "";
  return `Bearer realm="splice", resource_metadata="${metadata}"${error}, error_description="${unauthorized(presented)}"`;
}

/** The origin the client reached: the Host it sent, already checked against this server's. */
function origin(req: IncomingMessage): string {
  return `http://${req.headers.host}`;
}

function json(res: ServerResponse, status: number, body: object): void {
  res
    .writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
    .end(JSON.stringify(body));
}

/** The OAuth endpoints a client falls back to when no authorization server is named (2025-03-26). */
const OAUTH_ENDPOINTS = new Set(["/register", "/authorize", "/token"]);

/**
 * Answers the discovery and OAuth paths of a server that wants a token;
 * true when it did. Host and Origin were checked before; the token is not,
 * since a client without it is who asks.
 */
export function answerDiscovery(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  mcpPath: string,
): boolean {
  if (path === RESOURCE_METADATA_PATH || path === `${RESOURCE_METADATA_PATH}${mcpPath}`) {
    // No authorization_servers: there is none to send the client to.
    json(res, 200, {
      resource: `${origin(req)}${mcpPath}`,
      bearer_methods_supported: ["header"],
      resource_name: "splice",
    });
    return true;
  }
  if (path.startsWith("/.well-known/") || path.startsWith(`${mcpPath}/.well-known/`)) {
    // The SDK tries the next metadata address on any 4xx, then falls back to /register.
    json(res, 404, { error: "not_found", error_description: NO_OAUTH });
    return true;
  }
  if (OAUTH_ENDPOINTS.has(path)) {
    // RFC 7591 §3.2.2 / RFC 6749 §5.2 error shape; access_denied makes no client retry.
    json(res, 400, { error: "access_denied", error_description: NO_OAUTH });
    return true;
  }
  return false;
}
