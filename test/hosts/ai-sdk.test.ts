/**
 * The AI SDK tools inside the SDK's own loop: `generateText` with an
 * in-process mock model that asks for tool calls, then reads what the SDK
 * sent back to it.
 */
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { ToolError } from "../../src/errors.js";
import { aiSdkTools } from "../../src/hosts/ai-sdk.js";
import { createToolkit, fullTools } from "../../src/toolkit/index.js";
import { Project } from "../helpers/project.js";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls the given tools once, then answers "done". */
function modelCalling(calls: { name: string; input: unknown }[]) {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: calls.map((c, i) => ({
          type: "tool-call" as const,
          toolCallId: `call-${i + 1}`,
          toolName: c.name,
          input: JSON.stringify(c.input),
        })),
        finishReason: { unified: "tool-calls", raw: "tool_use" },
        usage,
        warnings: [],
      },
      {
        content: [{ type: "text", text: "done" }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      },
    ],
  });
}

/** The tool results the SDK sent to the model in its second request. */
function sentBack(model: MockLanguageModelV3) {
  const prompt = model.doGenerateCalls[1]!.prompt;
  return prompt
    .filter((m) => m.role === "tool")
    .flatMap((m) => m.content)
    .map((part) => (part.type === "tool-result" ? [part.toolCallId, part.output] : [part.type]));
}

describe("the AI SDK adapter", () => {
  it("runs tool calls from generateText and sends their text back to the model", async () => {
    const p = new Project();
    p.write("a.txt", "one\ntwo\n");
    const kit = createToolkit({ root: p.root });
    const model = modelCalling([{ name: "read", input: { targets: [{ path: "a.txt" }] } }]);
    const result = await generateText({
      model,
      tools: aiSdkTools(kit),
      prompt: "Read a.txt",
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("done");
    const [[id, output]] = sentBack(model) as [[string, { type: string; value: string }]];
    expect(id).toBe("call-1");
    expect(output.type).toBe("text");
    expect(output.value).toMatch(/^¶a\.txt#[0-9A-F]{4}\n1\| one\n2\| two$/);
    // The model was offered every tool with its JSON Schema.
    const offered = model.doGenerateCalls[0]!.tools!;
    expect(offered.map((t) => t.name)).toEqual(kit.tools.map((t) => t.name));
    expect(offered[0]).toMatchObject({ type: "function", inputSchema: { type: "object" } });
  });

  it("edits through the loop and reports failures to the model as error results", async () => {
    const p = new Project();
    p.write("a.txt", "one\ntwo\n");
    const kit = createToolkit({ root: p.root });
    const read = (await kit.call("read", { targets: [{ path: "a.txt" }] })) as {
      results: { file_hash: string }[];
    };
    const tag = read.results[0]!.file_hash;
    const model = modelCalling([
      { name: "edit", input: { targets: [{ path: "a.txt", file_hash: tag, ops: "delete 1" }] } },
      { name: "read", input: { targets: "a.txt" } },
      { name: "rollback", input: { path: "never.txt", hash: "" } },
      { name: "nope", input: {} },
    ]);
    const result = await generateText({
      model,
      tools: aiSdkTools(kit),
      prompt: "Delete line 1",
      stopWhen: stepCountIs(3),
    });
    expect(p.text("a.txt")).toBe("two\n");
    const back = new Map(sentBack(model) as [string, { type: string; value: string }][]);
    expect(back.get("call-1")).toMatchObject({
      type: "text",
      value: expect.stringMatching(/^¶a\.txt#[0-9A-F]{4}\n@@ -1 \+0,0 @@$/),
    });
    expect(back.get("call-2")).toEqual({
      type: "error-text",
      value: `invalid_input: Invalid arguments for read: targets: Invalid input: expected array, received string. A valid call looks like: ${JSON.stringify(kit.find("read").example)}`,
    });
    expect(back.get("call-3")).toEqual({
      type: "error-text",
      value:
        'not_found: splice has no earlier version of never.txt to go back to. Call history with {"path": "never.txt"} to see what it knows.',
    });
    // An unknown tool never reaches splice; the SDK names the real ones.
    expect(back.get("call-4")).toMatchObject({
      type: "error-text",
      value: expect.stringContaining(fullTools.map((t) => t.name).join(", ")),
    });
    // Code finds the ToolError behind the sentence.
    const errors = result.steps[0]!.content.filter((part) => part.type === "tool-error");
    const rollbackError = errors.find((e) => e.toolName === "rollback")!.error as Error;
    expect(rollbackError.cause).toBeInstanceOf(ToolError);
    expect((rollbackError.cause as ToolError).code).toBe("not_found");
  });

  it("can leave approval of edits to the SDK", async () => {
    const p = new Project();
    const kit = createToolkit({ root: p.root });
    const model = modelCalling([
      { name: "write", input: { targets: [{ path: "x.txt", text: "x\n" }] } },
    ]);
    const result = await generateText({
      model,
      tools: aiSdkTools(kit, { approvals: true }),
      prompt: "Write x.txt",
      stopWhen: stepCountIs(3),
    });
    expect(result.content.some((part) => part.type === "tool-approval-request")).toBe(true);
    expect(() => p.text("x.txt")).toThrow(/ENOENT/);
  });
});
