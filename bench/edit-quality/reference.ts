/**
 * (c) The reference MCP filesystem server (@modelcontextprotocol/server-filesystem)
 * driven over stdio by the MCP SDK client: one server process for all cases,
 * its allowed directory the engine's scratch folder; `edit_file` with one
 * edit per case. An isError result (or a protocol error) is a refusal.
 */
import { mkdirSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Engine, finish, placeCase } from "./engines.js";

export const REFERENCE_BIN = fileURLToPath(
  new URL("../../node_modules/.bin/mcp-server-filesystem", import.meta.url),
);

function textOf(result: CallToolResult): string {
  return result.content
    .map((part) => (part.type === "text" ? part.text : `[${part.type}]`))
    .join("\n");
}

export async function referenceServer(dir: string): Promise<Engine> {
  mkdirSync(dir, { recursive: true });
  const root = realpathSync(dir);
  const client = new Client({ name: "bench-edit-quality", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [realpathSync(REFERENCE_BIN), root],
      stderr: "ignore",
    }),
  );
  const version = client.getServerVersion();
  return {
    name: "reference",
    how: `${version?.name ?? "server-filesystem"} ${version?.version ?? ""} edit_file over stdio (MCP SDK Client)`,
    async run(c) {
      const { abs } = placeCase(root, c, c.original);
      try {
        const result = (await client.callTool({
          name: "edit_file",
          arguments: { path: abs, edits: [{ oldText: c.oldText, newText: c.newText }] },
        })) as CallToolResult;
        if (result.isError) {
          return finish(root, c, abs, {
            reported: "refused",
            message: textOf(result).split("\n", 1)[0],
          });
        }
        return finish(root, c, abs, { reported: "applied" });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return finish(root, c, abs, { reported: "refused", message: message.split("\n", 1)[0] });
      }
    },
    close: () => client.close(),
  };
}
