/**
 * The MCP server on a remote root (`splice serve --root box:/srv/app`): the
 * real SDK client, linked in memory; the client's own roots (folders of its
 * machine) do not replace the remote root.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type CallToolResult, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/hosts/mcp/server.js";

describe("the MCP server on a remote root", () => {
  it("reads and edits there, and keeps the remote root when the client offers its roots", async () => {
    const there = mkdtempSync(join(tmpdir(), "splice-mcp-remote-"));
    const clientFolder = mkdtempSync(join(tmpdir(), "splice-mcp-client-"));
    writeFileSync(join(there, "a.txt"), "there\n");
    writeFileSync(join(clientFolder, "a.txt"), "client\n");
    const { server } = createMcpServer({
      root: `box:${there}`,
      remotes: { box: ["sh", "-c"] },
      history: { dir: mkdtempSync(join(tmpdir(), "splice-mcp-remote-history-")) },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "t", version: "1" }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: `file://${clientFolder}` }],
    }));
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
        return (r.content[0] as { text: string }).text;
      };
      const read = await call("read", { targets: [{ path: "a.txt" }] });
      expect(read).toContain("1| there");
      const tag = /#([0-9A-F]{4})/.exec(read)![1]!;
      await call("edit", {
        targets: [{ path: "a.txt", file_hash: tag, ops: "replace 1:\n+edited" }],
      });
      expect(readFileSync(join(there, "a.txt"), "utf8")).toBe("edited\n");
      expect(readFileSync(join(clientFolder, "a.txt"), "utf8")).toBe("client\n");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
