#!/usr/bin/env node
/**
 * A probe MCP server (stdio, official SDK) whose tools return one result
 * shape each, so the clients' choice between `content` and
 * `structuredContent` can be read off what reaches the model. Its text and
 * its JSON say different words ("TEXT" vs "JSON"), so which one arrived is
 * never in doubt. Plain JS, so a client can start it with `node` alone.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const text = (shape) => [{ type: "text", text: `TEXT of ${shape}: the text content block.` }];
const structured = (shape) => ({ JSON: `of ${shape}`, note: "the structuredContent object" });
const schema = {
  type: "object",
  properties: { JSON: { type: "string" }, note: { type: "string" } },
  required: ["JSON", "note"],
};

/** name → [description, outputSchema?, result] */
const SHAPES = {
  text_only: ["content only", undefined, { content: text("text_only") }],
  text_and_structured: [
    "content and structuredContent, no outputSchema (splice's shape)",
    undefined,
    { content: text("text_and_structured"), structuredContent: structured("text_and_structured") },
  ],
  declared_schema: [
    "content and structuredContent, with an outputSchema",
    schema,
    { content: text("declared_schema"), structuredContent: structured("declared_schema") },
  ],
  error_with_structured: [
    "isError with content and structuredContent (splice's errors)",
    undefined,
    {
      isError: true,
      content: text("error_with_structured"),
      structuredContent: structured("error_with_structured"),
    },
  ],
};

const server = new Server(
  { name: "splice-probe", version: "1.0.0" },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: Object.entries(SHAPES).map(([name, [description, outputSchema]]) => ({
    name,
    description,
    inputSchema: { type: "object", properties: {} },
    ...(outputSchema ? { outputSchema } : {}),
  })),
}));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const shape = SHAPES[request.params.name];
  if (!shape) throw new Error(`no tool ${request.params.name}`);
  return shape[2];
});
await server.connect(new StdioServerTransport());
