/**
 * A client that declares roots and never answers roots/list (the real SDK
 * client, its handler left pending) costs one short wait per session: the
 * first call runs on the configured root after ROOTS_TIMEOUT_MS, the log
 * says so once, and no later call asks again.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { serveHttp } from "../../../src/hosts/mcp/http.js";
import { ROOTS_TIMEOUT_MS } from "../../../src/hosts/mcp/roots.js";
import { Project } from "../../helpers/project.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

const SILENT =
  /^the client did not answer roots\/list within 1 s; using the configured root (.+) \(--root\) until it says its roots changed$/;

describe("a client that never answers roots/list", () => {
  it("waits once per session, then uses --root, and says so once", async () => {
    const project = new Project();
    project.write("a.txt", "one\n");
    const logged: string[] = [];
    const server = await serveHttp({
      root: project.root,
      port: 0,
      log: (line) => logged.push(line),
    });
    cleanups.push(() => server.close());

    const client = new Client(
      { name: "silent", version: "1" },
      { capabilities: { roots: { listChanged: true } } },
    );
    let asked = 0;
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked++;
      return new Promise<never>(() => {});
    });
    const heard: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      heard.push(String(n.params.data));
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    cleanups.push(() => client.close());

    const read = async () => {
      const started = Date.now();
      const result = (await client.callTool({
        name: "read",
        arguments: { path: "a.txt" },
      })) as CallToolResult;
      expect((result.content[0] as { text: string }).text).toContain("1| one");
      return Date.now() - started;
    };
    // Two calls at once share the one question; then three more, one after another.
    const [first, second] = await Promise.all([read(), read()]);
    for (let i = 0; i < 3; i++) await read();

    expect(asked).toBe(1);
    // The wait is the timeout, not the SDK's minute or the 10 s it used to be.
    expect(Math.max(first, second)).toBeGreaterThanOrEqual(ROOTS_TIMEOUT_MS - 50);
    expect(Math.max(first, second)).toBeLessThan(ROOTS_TIMEOUT_MS + 5_000);
    const said = logged.filter((line) => SILENT.test(line));
    expect(said).toHaveLength(1);
    expect(SILENT.exec(said[0]!)![1]).toBe(project.root);
    expect(heard.filter((line) => SILENT.test(line))).toHaveLength(1);

    // A client that says its roots changed is asked again.
    await client.sendRootsListChanged();
    await read();
    expect(asked).toBe(2);
  }, 30_000);
});
