import { describe, expect, it } from "vitest";
import { anthropicTools, dispatchAnthropicAll } from "../../src/hosts/anthropic.js";
import { toolJsonSchema } from "../../src/hosts/json-schema.js";
import { createToolkit } from "../../src/toolkit/index.js";
import { Project } from "../helpers/project.js";

describe("the Anthropic adapter", () => {
  it("lists each tool as name, description and input_schema", () => {
    const kit = createToolkit({ root: new Project().root, tools: "minimal" });
    expect(anthropicTools(kit)).toEqual(
      kit.tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: toolJsonSchema(t),
      })),
    );
  });

  it("answers every tool_use block of a reply in order, skipping other blocks", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    const kit = createToolkit({ root: p.root });
    const results = await dispatchAnthropicAll(kit, [
      { type: "text", text: "Let me look." } as { type: string },
      {
        type: "tool_use",
        id: "toolu_1",
        name: "write",
        input: { targets: [{ path: "b.txt", text: "b\n" }] },
      } as { type: string },
      { type: "tool_use", id: "toolu_2", name: "read", input: { targets: [{ path: "a.txt" }] } },
      { type: "tool_use", id: "toolu_3", name: "read", input: { targets: [{ path: "b.txt" }] } },
      { type: "tool_use", id: "toolu_4", name: "read", input: { targets: [] } },
    ] as { type: string }[]);
    expect(results.map((r) => [r.type, r.tool_use_id, r.is_error ?? false])).toEqual([
      ["tool_result", "toolu_1", false],
      ["tool_result", "toolu_2", false],
      ["tool_result", "toolu_3", false],
      ["tool_result", "toolu_4", true],
    ]);
    expect(results[1]!.content).toMatch(/^¶a\.txt#[0-9A-F]{4}\n1\| a$/);
    // The read of b.txt ran after the write of b.txt in the same reply.
    expect(results[2]!.content).toMatch(/^¶b\.txt#[0-9A-F]{4}\n1\| b$/);
    expect(results[3]!.content).toMatch(
      /^invalid_input: Invalid arguments for read: targets: Too small: expected array to have >=1 items/,
    );
  });
});
