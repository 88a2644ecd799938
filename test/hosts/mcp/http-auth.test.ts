/**
 * A server started with a token, as clients meet it: the official SDK
 * client over real HTTP, with and without an OAuth provider (what Claude
 * Code and Gemini CLI bring), ends up saying that a bearer token is needed
 * and how to send it, instead of failing in OAuth client registration.
 */

import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpServer, serveHttp } from "../../../src/hosts/mcp/http.js";
import { Project } from "../../helpers/project.js";

const TOKEN = "t0ken-Qm3v1Kp9xYc2TzR8";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function start(token = TOKEN): Promise<HttpServer> {
  const project = new Project();
  project.write("a.txt", "one\n");
  const server = await serveHttp({ root: project.root, port: 0, ...(token ? { token } : {}) });
  cleanups.push(() => server.close());
  return server;
}

/** What an OAuth-capable client keeps (Claude Code's and Gemini CLI's are of this shape), in memory. */
class RememberingProvider implements OAuthClientProvider {
  registered = 0;
  redirected = 0;
  readonly redirectUrl = "http://127.0.0.1:1/callback";
  readonly clientMetadata = { client_name: "test", redirect_uris: [this.redirectUrl] };
  clientInformation() {
    return undefined;
  }
  saveClientInformation() {
    this.registered++;
  }
  tokens() {
    return undefined;
  }
  saveTokens() {}
  redirectToAuthorization() {
    this.redirected++;
  }
  saveCodeVerifier() {}
  codeVerifier() {
    return "";
  }
}

/** The error connecting raises, or undefined when it connected. */
async function connectError(
  server: HttpServer,
  options: { authorization?: string; authProvider?: OAuthClientProvider } = {},
): Promise<Error | undefined> {
  const client = new Client({ name: "t", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    ...(options.authorization
      ? { requestInit: { headers: { authorization: options.authorization } } }
      : {}),
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
  });
  try {
    await client.connect(transport);
    cleanups.push(() => client.close());
    return undefined;
  } catch (error) {
    await client.close().catch(() => {});
    return error as Error;
  }
}

describe("a client without the token", () => {
  it("hears that a bearer token is needed and how to send it (SDK client, no OAuth)", async () => {
    const server = await start();
    const missing = await connectError(server);
    expect(missing?.message).toContain(
      "Unauthorized: this server needs a bearer token, not OAuth; configure your client to send the header Authorization: Bearer <token>, with the token splice serve was started with (--token or SPLICE_TOKEN).",
    );
    const wrong = await connectError(server, { authorization: "Bearer guess" });
    expect(wrong?.message).toContain(
      "Unauthorized: the bearer token is not this server's; send the header Authorization: Bearer <token>",
    );
    // Not a bearer header at all is a missing token.
    const bare = await connectError(server, { authorization: TOKEN });
    expect(bare?.message).toContain("this server needs a bearer token");
  });

  it("hears the same from OAuth discovery, and registers nowhere (SDK client with an OAuth provider)", async () => {
    const server = await start();
    const provider = new RememberingProvider();
    const error = await connectError(server, { authProvider: provider });
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).errorCode).toBe("access_denied");
    expect(error?.message).toBe(
      "This server needs a bearer token, not OAuth: configure your client to send the header Authorization: Bearer <token>, with the token splice serve was started with (--token or SPLICE_TOKEN).",
    );
    expect(provider.registered).toBe(0);
    expect(provider.redirected).toBe(0);
  });

  it("with the token, connects and calls", async () => {
    const server = await start();
    const client = new Client({ name: "t", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    cleanups.push(() => client.close());
    const result = (await client.callTool({
      name: "read",
      arguments: { path: "a.txt" },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect((result.content[0] as { text: string }).text).toMatch(/^¶a\.txt#[0-9A-F]{4}\n1\| one$/m);
  });
});

describe("the discovery documents", () => {
  it("name the resource and no authorization server, without the token", async () => {
    const server = await start();
    const origin = new URL(server.url).origin;
    const unauthorized = await fetch(server.url, { method: "POST", body: "{}" });
    expect(unauthorized.status).toBe(401);
    const challenge = unauthorized.headers.get("www-authenticate")!;
    expect(challenge).toBe(
      `Bearer realm="splice", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", error_description="Unauthorized: this server needs a bearer token, not OAuth; configure your client to send the header Authorization: Bearer <token>, with the token splice serve was started with (--token or SPLICE_TOKEN)."`,
    );
    const wrong = await fetch(server.url, {
      method: "POST",
      body: "{}",
      headers: { authorization: "Bearer guess" },
    });
    expect(wrong.headers.get("www-authenticate")).toContain(', error="invalid_token", ');
    for (const path of [
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
    ]) {
      const answer = await fetch(`${origin}${path}`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({
        resource: server.url,
        bearer_methods_supported: ["header"],
        resource_name: "splice",
      });
    }
    const metadata = await fetch(`${origin}/.well-known/oauth-authorization-server`);
    expect(metadata.status).toBe(404);
    const register = await fetch(`${origin}/register`, { method: "POST", body: "{}" });
    expect(register.status).toBe(400);
    expect((await register.json()).error).toBe("access_denied");
    // Everything else still wants the token.
    expect((await fetch(`${origin}/elsewhere`)).status).toBe(401);
  });

  it("are not served when the server takes no token", async () => {
    const server = await start("");
    const origin = new URL(server.url).origin;
    expect((await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
    expect((await fetch(`${origin}/register`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it("keep the Host check: a rebinding page gets 403, not the document", async () => {
    const server = await start();
    const { port } = new URL(server.url);
    const answer = await new Promise<number>((resolve, reject) => {
      import("node:http").then(({ get }) =>
        get(
          `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`,
          { headers: { host: `evil.example:${port}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        ).on("error", reject),
      );
    });
    expect(answer).toBe(403);
  });
});
