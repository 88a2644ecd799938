/**
 * A change made outside splice reaches a real MCP client (the SDK's) as a
 * logging notification: over stdio from the built `splice serve` (watching by
 * default, and not with --no-watch) and over Streamable HTTP in-process.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { serveHttp } from "../../../src/hosts/mcp/http.js";
import { Project } from "../../helpers/project.js";

const BIN = fileURLToPath(new URL("../../../bin/splice", import.meta.url));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function listening(transport: Transport): Promise<{ client: Client; messages: string[] }> {
  const client = new Client({ name: "splice-test", version: "1.0.0" });
  const messages: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    if (n.params.level === "notice") messages.push(String(n.params.data));
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, messages };
}

async function until(check: () => boolean, ms = 8_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

const stdio = (root: string, ...args: string[]) =>
  new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "serve", "--root", root, ...args],
    stderr: "pipe",
  });

describe.skipIf(process.env.SPLICE_TEST_REMOTE)("the MCP server's root watch", () => {
  it("tells a stdio client of a file changed outside splice, with the backup session to undo", async () => {
    const p = new Project();
    p.write("notes.md", "# one\n");
    const { client, messages } = await listening(stdio(p.root));
    await client.callTool({ name: "read", arguments: { targets: [{ path: "notes.md" }] } });
    writeFileSync(join(p.root, "notes.md"), "# two\n");
    expect(await until(() => messages.length > 0)).toBe(true);
    expect(messages[0]).toMatch(
      /^1 file changed outside splice in .+: notes\.md \(changed\); kept in history, undo backup session \S+ to put them back$/,
    );
  });

  it("tells nothing with --no-watch", async () => {
    const p = new Project();
    const { client, messages } = await listening(stdio(p.root, "--no-watch"));
    await client.callTool({ name: "list", arguments: {} });
    writeFileSync(join(p.root, "made.txt"), "x\n");
    expect(await until(() => messages.length > 0, 1_500)).toBe(false);
  });

  it("tells an HTTP client too", async () => {
    const p = new Project();
    const server = await serveHttp({ root: p.root, port: 0, watch: true });
    cleanups.push(() => server.close());
    const { client, messages } = await listening(
      new StreamableHTTPClientTransport(new URL(server.url)),
    );
    // The free-standing stream (GET) carries notifications outside a call.
    await client.callTool({ name: "list", arguments: {} });
    writeFileSync(join(p.root, "made.txt"), "x\n");
    expect(await until(() => messages.length > 0)).toBe(true);
    expect(messages[0]).toContain("made.txt (created)");
  });
});
