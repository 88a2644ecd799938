/**
 * Who made a change: an MCP client's `clientInfo.name` from initialize is
 * recorded with its connection's changes, and the review API (undo's list)
 * gives it beside the history session. A real SDK client over Streamable
 * HTTP, a real project.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { serveHttp } from "../../src/hosts/mcp/http.js";
import { serveReview } from "../../src/review/server.js";
import { Project } from "../helpers/project.js";

describe("the client's name in history", () => {
  const closing: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closing.reverse()) await close();
  });

  it("records the MCP client's name with its changes, and the review API shows it", async () => {
    const project = new Project();
    const mcp = await serveHttp({ root: project.root, port: 0, clientRoots: false });
    closing.push(() => mcp.close());
    const client = new Client({ name: "demo-editor", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)));
    closing.push(() => client.close());
    await client.callTool({
      name: "write",
      arguments: { targets: [{ path: "a.txt", text: "hello\n" }] },
    });
    const review = await serveReview({ root: project.root });
    closing.push(() => review.close());
    const r = await fetch(`http://127.0.0.1:${review.port}/review/api/sessions`, {
      headers: { "x-splice-token": review.token },
    });
    const { sessions } = (await r.json()) as {
      sessions: { client?: string; tool?: string; session: string; files: { path: string }[] }[];
    };
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.client).toBe("demo-editor");
    // Recorded with the change, not read from its note.
    expect(sessions[0]!.tool).toBe("write");
    expect(sessions[0]!.session).toMatch(/^mcp-[0-9a-f-]{36}$/);
    expect(sessions[0]!.files.map((f) => f.path)).toEqual(["a.txt"]);
  });
});
