/**
 * The fake providers of bench/clients speak their APIs well enough for the
 * official SDKs, play the script in order, and record a tool result as the
 * model would read it; the tap relays MCP stdio unchanged and logs each call.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropic } from "../../bench/clients/fake-anthropic.js";
import { startFakeGemini } from "../../bench/clients/fake-gemini.js";
import { startFakeOpenAI } from "../../bench/clients/fake-openai.js";
import type { FakeServer } from "../../bench/clients/http.js";
import { clientToolName, ScriptedModel, stepId } from "../../bench/clients/script.js";

const STEPS = [
  { tool: "read", args: { targets: [{ path: "a.ts" }] } },
  { tool: "edit", args: { targets: [{ path: "a.ts" }] } },
];

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("clientToolName", () => {
  it("finds a tool under the server's prefix, never a longer tool that ends the same way", () => {
    const offered = ["Read", "mcp__splice__ast_edit", "mcp__splice__edit", "mcp_splice_read"];
    expect(clientToolName(offered, "edit")).toBe("mcp__splice__edit");
    expect(clientToolName(offered, "read")).toBe("mcp_splice_read");
    expect(clientToolName(["mcp__splice__ast_edit"], "edit")).toBeUndefined();
  });
});

describe("fake Anthropic Messages API", () => {
  it("streams the scripted tool call to the SDK and records the tool_result text", async () => {
    const model = new ScriptedModel(STEPS);
    server = await startFakeAnthropic(model);
    const client = new Anthropic({ apiKey: "fake", baseURL: server.url });
    const tools = ["mcp__splice__read", "mcp__splice__edit"].map((name) => ({
      name,
      input_schema: { type: "object" as const },
    }));
    const first = await client.messages
      .stream({ model: "m", max_tokens: 10, tools, messages: [{ role: "user", content: "go" }] })
      .finalMessage();
    expect(first.stop_reason).toBe("tool_use");
    expect(first.content).toEqual([
      { type: "tool_use", id: stepId(0), name: "mcp__splice__read", input: STEPS[0]!.args },
    ]);
    const second = await client.messages.create({
      model: "m",
      max_tokens: 10,
      tools,
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: first.content },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: stepId(0),
              content: [{ type: "text", text: "¶a.ts#AB12" }],
            },
          ],
        },
      ],
    });
    expect(second.content[0]).toMatchObject({ type: "tool_use", name: "mcp__splice__edit" });
    expect(model.seen).toEqual([
      { step: 0, tool: "read", text: "¶a.ts#AB12", raw: [{ type: "text", text: "¶a.ts#AB12" }] },
    ]);
  });
});

describe("fake Gemini API", () => {
  it("streams the scripted function call to the SDK and records the functionResponse", async () => {
    const model = new ScriptedModel(STEPS);
    server = await startFakeGemini(model);
    const ai = new GoogleGenAI({ apiKey: "fake", httpOptions: { baseUrl: server.url } });
    const config = {
      tools: [{ functionDeclarations: [{ name: "mcp_splice_read" }, { name: "mcp_splice_edit" }] }],
    };
    const calls = [];
    for await (const chunk of await ai.models.generateContentStream({
      model: "g",
      contents: "go",
      config,
    })) {
      calls.push(...(chunk.functionCalls ?? []));
    }
    expect(calls).toEqual([{ id: stepId(0), name: "mcp_splice_read", args: STEPS[0]!.args }]);
    const reply = await ai.models.generateContent({
      model: "g",
      config,
      contents: [
        { role: "user", parts: [{ text: "go" }] },
        { role: "model", parts: [{ functionCall: calls[0]! }] },
        {
          role: "user",
          parts: [
            {
              functionResponse: {
                id: stepId(0),
                name: "mcp_splice_read",
                response: { output: "text" },
              },
            },
          ],
        },
      ],
    });
    expect(reply.functionCalls?.[0]?.name).toBe("mcp_splice_edit");
    expect(model.seen.map((s) => [s.tool, s.text])).toEqual([["read", "text"]]);
  });
});

describe("fake OpenAI Responses API", () => {
  it("calls a namespaced tool by name and namespace, and records a function_call_output", async () => {
    const model = new ScriptedModel(STEPS);
    server = await startFakeOpenAI(model);
    const tools = [
      {
        type: "namespace",
        name: "mcp__splice",
        tools: [
          { type: "function", name: "read" },
          { type: "function", name: "edit" },
        ],
      },
    ];
    const post = (input: unknown[]) =>
      fetch(`${server!.url}/v1/responses`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", stream: true, tools, input }),
      }).then((r) => r.text());
    const done = (sse: string) =>
      sse
        .split("\n")
        .filter((l) => l.startsWith("data: "))
        .map((l) => JSON.parse(l.slice(6)))
        .find((e) => e.type === "response.output_item.done").item;
    const first = done(await post([{ type: "message", role: "user", content: "go" }]));
    expect(first).toMatchObject({
      type: "function_call",
      name: "read",
      namespace: "mcp__splice",
      call_id: stepId(0),
    });
    expect(JSON.parse(first.arguments)).toEqual(STEPS[0]!.args);
    const output = [
      { type: "input_text", text: "Wall time: 0.1 seconds\nOutput:\n" },
      { type: "input_text", text: "{}" },
    ];
    const second = done(
      await post([first, { type: "function_call_output", call_id: stepId(0), output }]),
    );
    expect(second).toMatchObject({ name: "edit", call_id: stepId(1) });
    expect(model.seen.map((s) => s.text)).toEqual(["Wall time: 0.1 seconds\nOutput:\n{}"]);
  });
});

describe("tap.mjs", () => {
  it("passes MCP stdio through unchanged and logs each tools/call with its result", async () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-tap-"));
    try {
      const log = join(dir, "tap.jsonl");
      // A stand-in server: answers every request line with a result naming its id.
      const echo = `process.stdin.on("data", (d) => { for (const l of d.toString().split("\\n").filter(Boolean)) { const m = JSON.parse(l); process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "r" + m.id }] } }) + "\\n"); } });`;
      const tap = fileURLToPath(new URL("../../bench/clients/tap.mjs", import.meta.url));
      const child = spawn(process.execPath, [tap, log, "--", process.execPath, "-e", echo]);
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      const requests = [
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "read", arguments: { a: 1 } },
        },
      ];
      child.stdin.write(`${requests.map((r) => JSON.stringify(r)).join("\n")}\n`);
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (out.split("\n").length > 2) {
            clearInterval(poll);
            resolve();
          }
        }, 10);
      });
      child.stdin.end();
      await new Promise((resolve) => child.on("exit", resolve));
      expect(
        out
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l).id),
      ).toEqual([1, 2]);
      const logged = readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(logged).toEqual([
        { name: "read", arguments: { a: 1 }, result: { content: [{ type: "text", text: "r2" }] } },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
