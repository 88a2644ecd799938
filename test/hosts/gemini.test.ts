/**
 * The Gemini adapter with the real @google/genai SDK: the SDK builds and
 * sends the request (to a local HTTP server standing in for the API, so no
 * network), the declarations arrive as published, and the model's function
 * calls in the reply are answered with functionResponse parts the SDK sends
 * back on the next turn.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GoogleGenAI } from "@google/genai";
import { afterEach, describe, expect, it } from "vitest";
import {
  dispatchGemini,
  dispatchGeminiAll,
  geminiOpenApiSchema,
  geminiTools,
} from "../../src/hosts/gemini.js";
import { toolJsonSchema } from "../../src/hosts/json-schema.js";
import { createToolkit } from "../../src/toolkit/index.js";
import { Project } from "../helpers/project.js";

type Json = Record<string, unknown>;

interface FakeApi {
  url: string;
  requests: Json[];
  close(): Promise<void>;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((done) => s.close(done));
});

async function body(request: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Json;
}

/** A local server that answers each generateContent with the next reply. */
async function fakeApi(replies: Json[]): Promise<FakeApi> {
  const requests: Json[] = [];
  const server = createServer(async (request, response) => {
    requests.push(await body(request));
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(replies.shift() ?? {}));
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

const modelTurn = (parts: Json[]) => ({
  candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }],
});

describe("the Gemini adapter", () => {
  it("declares every tool with parametersJsonSchema, sent by the SDK as published", async () => {
    const p = new Project();
    p.write("a.txt", "one\ntwo\n");
    const kit = createToolkit({ root: p.root, lsp: false });
    const api = await fakeApi([
      modelTurn([
        { functionCall: { id: "c1", name: "read", args: { targets: [{ path: "a.txt" }] } } },
        {
          functionCall: {
            id: "c2",
            name: "edit",
            args: {
              targets: [{ path: "a.txt", edits: [{ old_text: "two", new_text: "2" }] }],
              wait_for_previous: true,
            },
          },
        },
        { functionCall: { id: "c3", name: "nope", args: {} } },
      ]),
      modelTurn([{ text: "Done." }]),
    ]);
    const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: api.url } });
    const config = { tools: geminiTools(kit) };
    const user = { role: "user", parts: [{ text: "Change two to 2." }] };
    const first = await ai.models.generateContent({
      model: "gemini-2.5-flash",
      contents: [user],
      config,
    });

    const sent = api.requests[0]!.tools as { functionDeclarations: Json[] }[];
    expect(sent).toHaveLength(1);
    const declarations = sent[0]!.functionDeclarations;
    expect(declarations.map((d) => d.name)).toEqual(kit.tools.map((t) => t.name));
    for (const [i, tool] of kit.tools.entries()) {
      expect(declarations[i]).toEqual({
        name: tool.name,
        description: tool.description,
        parametersJsonSchema: toolJsonSchema(tool),
      });
    }

    const parts = await dispatchGeminiAll(kit, first.functionCalls);
    expect(parts.map((part) => part.functionResponse?.id)).toEqual(["c1", "c2", "c3"]);
    expect(parts[0]!.functionResponse).toMatchObject({ name: "read" });
    expect(String(parts[0]!.functionResponse!.response!.output)).toMatch(
      /^¶a\.txt#[0-9A-F]{4}\n1\| one\n2\| two$/,
    );
    // Gemini CLI's injected wait_for_previous is ignored; the edit ran after the read.
    expect(Object.keys(parts[1]!.functionResponse!.response!)).toEqual(["output"]);
    expect(p.text("a.txt")).toBe("one\n2\n");
    expect(String(parts[2]!.functionResponse!.response!.error)).toMatch(
      /^unknown_tool: There is no tool named "nope"\./,
    );

    const modelContent = first.candidates![0]!.content!;
    await ai.models.generateContent({
      model: "gemini-2.5-flash",
      contents: [user, modelContent, { role: "user", parts }],
      config,
    });
    const turns = api.requests[1]!.contents as { role: string; parts: Json[] }[];
    expect(turns.at(-1)).toEqual({ role: "user", parts: JSON.parse(JSON.stringify(parts)) });
  });

  it("sends the OpenAPI dialect through the SDK unchanged, and reads JSON text fields back", async () => {
    const p = new Project();
    p.write("package.json", '{\n  "name": "x"\n}\n');
    const kit = createToolkit({ root: p.root, lsp: false });
    const api = await fakeApi([modelTurn([{ text: "ok" }])]);
    const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: api.url } });
    await ai.models.generateContent({
      model: "gemini-2.5-flash",
      contents: "hi",
      config: { tools: geminiTools(kit, { dialect: "openapi" }) },
    });
    const sent = (api.requests[0]!.tools as { functionDeclarations: Json[] }[])[0]!;
    const doc = sent.functionDeclarations.find((d) => d.name === "doc")!;
    // The SDK's own OpenAPI processing leaves the schema as the adapter made it.
    expect(doc.parameters).toEqual(geminiOpenApiSchema(kit.find("doc")));
    expect(doc).not.toHaveProperty("parametersJsonSchema");

    const part = await dispatchGemini(kit, {
      id: "c1",
      name: "doc",
      args: {
        action: "set",
        path: "package.json",
        selector: "scripts",
        value_json: '{"test": "vitest"}',
      },
    });
    expect(part.functionResponse?.response).toHaveProperty("output");
    expect(JSON.parse(p.text("package.json"))).toEqual({ name: "x", scripts: { test: "vitest" } });
  });

  it("answers a call with no name or bad arguments with an error response", async () => {
    const kit = createToolkit({ root: new Project().root });
    const noName = await dispatchGemini(kit, { args: {} });
    expect(String(noName.functionResponse!.response!.error)).toMatch(/^unknown_tool: /);
    const bad = await dispatchGemini(kit, { name: "read", args: { targets: [] } });
    expect(String(bad.functionResponse!.response!.error)).toMatch(
      /^invalid_input: Invalid arguments for read: targets: Too small/,
    );
    expect(await dispatchGeminiAll(kit, undefined)).toEqual([]);
  });
});
