/**
 * Results shaped for the client that asked (src/hosts/mcp/clients.ts): a
 * client known to show its model an error result whole (Gemini CLI) gets the
 * error's text alone, so the model reads splice's sentence once; any other
 * client keeps the JSON copy programs read. The built CLI over stdio, the
 * official SDK client introducing itself by each client's real name.
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { RESULT_META_KEY } from "../../../src/hosts/mcp/result.js";
import { Project } from "../../helpers/project.js";

const BIN = fileURLToPath(new URL("../../../bin/splice", import.meta.url));

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function connectAs(name: string, root: string, args: string[] = []): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "serve", "--root", root, ...args],
      stderr: "pipe",
    }),
  );
  cleanups.push(() => client.close());
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/**
 * What Gemini CLI 0.61.0 hands its model for an isError result
 * (DiscoveredMCPToolInvocation.execute): the call and the raw result, as JSON.
 */
function geminiErrorText(name: string, args: unknown, result: CallToolResult): string {
  const raw = [{ functionResponse: { name, response: result } }];
  return `MCP tool '${name}' reported tool error for function call: ${JSON.stringify({ name, args })} with response: ${JSON.stringify(raw)}`;
}

const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe("results shaped for the client", () => {
  const refusal = { path: "../x", text: "x\n" };

  it("sends Gemini CLI an error's text alone, so its model reads the sentence once", async () => {
    const project = new Project();
    project.write("a.txt", "one\n");
    for (const flags of [[], ["--structured"]]) {
      const gemini = await connectAs("gemini-cli-mcp-client", project.root, flags);
      const refused = await call(gemini, "write", refusal);
      expect(refused.isError).toBe(true);
      expect(Object.keys(refused).sort()).toEqual(["content", "isError"]);
      const [block] = refused.content as { type: string; text: string }[];
      expect(block!.text).toMatch(/^guard: Path '\.\.\/x' resolves outside the project root /);
      const seen = geminiErrorText("write", refusal, refused);
      const message = JSON.stringify(block!.text).slice(1, 60);
      expect(occurrences(seen, message)).toBe(1);
      expect(seen).not.toContain("splice/result");
      // Its successful results still carry the JSON: Gemini CLI passes only their text on.
      const read = await call(gemini, "read", { path: "a.txt" });
      expect(read.isError).toBeFalsy();
      const json = flags.length ? read.structuredContent : read._meta?.[RESULT_META_KEY];
      expect(json).toMatchObject({ results: [{ path: "a.txt" }] });
    }
  });

  it("keeps an error's JSON copy for other clients, which do not show it to the model", async () => {
    const project = new Project();
    for (const name of ["claude-code", "codex-mcp-client", "some-program"]) {
      const client = await connectAs(name, project.root);
      const refused = await call(client, "write", refusal);
      expect(refused.isError).toBe(true);
      expect(refused._meta?.[RESULT_META_KEY]).toMatchObject({
        error: { code: "guard", reason: "outside_root" },
      });
    }
  });
});
