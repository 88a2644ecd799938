/**
 * What a model pays for splice's tool list on every turn, measured one way
 * for the tokens benchmark and for the budget test
 * (test/toolkit/tool-list-budget.test.ts): a real tools/list from splice's MCP
 * server over a linked transport (the working tree, no build), each tool
 * counted as a host sends it to the model, JSON of `{name, description,
 * input_schema}` (the Anthropic Messages shape; OpenAI's `{type, name,
 * description, parameters}` differs by a few tokens per tool). MCP's `title`
 * and `annotations` are for the client, not the model. Tokens are o200k
 * (gpt-tokenizer; GPT-4o and later).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { createMcpServer, type McpServerOptions } from "../src/hosts/mcp/server.js";

/**
 * The most o200k tokens each set's list may cost with short descriptions
 * (issue #39); the budget test fails above them.
 */
export const TOOL_LIST_BUDGETS = { full: 4_000, coding: 2_000, minimal: 1_100 } as const;

/** What a host sends the model for one tool. */
export function modelShape(tool: McpTool): Record<string, unknown> {
  return { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
}

/** The whole list as one JSON array, the way it travels in a request. */
export const listText = (tools: readonly McpTool[]) => JSON.stringify(tools.map(modelShape));

/** o200k tokens of the list. */
export const listTokens = (tools: readonly McpTool[]) => encode(listText(tools)).length;

/** The tools `splice serve` lists with these options, through the MCP SDK's client. */
export async function servedTools(
  root: string,
  options: McpServerOptions = {},
): Promise<McpTool[]> {
  const server = createMcpServer({ ...options, root, clientRoots: false });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.server.connect(serverSide);
  const client = new Client({ name: "splice-tool-list", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await server.release();
  }
}
