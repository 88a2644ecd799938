import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toolJsonSchema } from "../../src/hosts/json-schema.js";
import {
  dispatchOpenAIChat,
  dispatchOpenAIChatAll,
  dispatchOpenAIResponses,
  dispatchOpenAIResponsesAll,
  dropNullOptionals,
  openaiChatTools,
  openaiResponsesTools,
  strictSchema,
} from "../../src/hosts/openai.js";
import { createToolkit } from "../../src/toolkit/index.js";
import { defineTool, type Tool } from "../../src/tools/define.js";
import { readTool } from "../../src/tools/read/index.js";
import { Project } from "../helpers/project.js";

/** A tool with the given input, for schemas no splice tool has (yet). */
function toolWith(input: z.ZodType): Tool {
  return defineTool({
    name: "probe",
    kind: "read",
    needsApproval: false,
    description: "A probe.",
    manual: "A probe.",
    example: {},
    input,
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    footprint: () => ({ reads: [], writes: [] }),
    summarize: () => ({ subject: "", summary: "probe" }),
    call: async () => ({}),
  }) as Tool;
}

const strictOf = (input: z.ZodType) => strictSchema(toolJsonSchema(toolWith(input)));

describe("strict schemas", () => {
  it("spell optional fields as required-but-nullable and close every object", () => {
    const result = strictOf(
      z.strictObject({
        path: z.string().describe("A path."),
        depth: z.number().int().min(1).optional(),
        mode: z.enum(["a", "b"]).optional().describe("A mode."),
        inner: z.object({ flag: z.boolean().optional() }).optional(),
      }),
    );
    expect(result).toEqual({
      strict: true,
      schema: {
        type: "object",
        properties: {
          path: { type: "string", description: "A path." },
          depth: { type: ["integer", "null"], minimum: 1 },
          mode: {
            description: "A mode.",
            anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }],
          },
          inner: {
            anyOf: [
              {
                type: "object",
                properties: { flag: { type: ["boolean", "null"] } },
                required: ["flag"],
                additionalProperties: false,
              },
              { type: "null" },
            ],
          },
        },
        required: ["path", "depth", "mode", "inner"],
        additionalProperties: false,
      },
    });
  });

  it("turns a tuple of one item type into an array with a fixed length", () => {
    const kit = createToolkit({ root: new Project().root });
    const read = openaiResponsesTools(kit).find((t) => t.name === "read")!;
    expect(read.strict).toBe(true);
    type Node = {
      properties: Record<string, Node>;
      items: Node;
      required: string[];
      anyOf: Node[];
    };
    const pair = { type: "array", items: { type: "integer" }, minItems: 2, maxItems: 2 };
    // One target's fields at the top, and targets (itself optional, so nullable) for several.
    const top = read.parameters as Node;
    expect(top.properties.line_range!.anyOf).toEqual([{ type: "string" }, pair, { type: "null" }]);
    const target = top.properties.targets!.anyOf[0]!.items;
    expect(target.required).toEqual(expect.arrayContaining(["path", "line_range"]));
    expect(target.properties.line_range!.anyOf).toEqual([
      { type: "string" },
      pair,
      { type: "null" },
    ]);
  });

  it("drops value limits strict mode lacks, leaving them to dispatch", () => {
    const result = strictOf(z.strictObject({ pattern: z.string().min(1).max(80) }));
    expect(result).toEqual({
      strict: true,
      schema: {
        type: "object",
        properties: { pattern: { type: "string" } },
        required: ["pattern"],
        additionalProperties: false,
      },
    });
  });

  it.each([
    [
      "a tuple of mixed item types",
      z.strictObject({ pair: z.tuple([z.string(), z.number()]) }),
      '"pair" is a tuple of mixed item types',
    ],
    [
      "a record",
      z.strictObject({ env: z.record(z.string(), z.string()) }),
      '"env" allows fields beyond its listed properties',
    ],
    [
      "an optional field that may also be null",
      z.strictObject({ note: z.string().nullable().optional() }),
      '"note" is optional and also accepts null',
    ],
    ["a field of any value", z.strictObject({ value: z.any() }), '"value" accepts any value'],
    [
      "an array of anything",
      z.strictObject({ list: z.array(z.unknown()) }),
      '"list[]" accepts any value',
    ],
  ])("finds no strict form for %s, saying why", (_, input, reason) => {
    expect(strictOf(input)).toEqual({ strict: false, reason });
  });

  it.each([
    ["a tuple of mixed item types", z.strictObject({ pair: z.tuple([z.string(), z.number()]) })],
    [
      "an optional field that may also be null",
      z.strictObject({ note: z.string().nullable().optional() }),
    ],
  ])("falls back to a non-strict tool for %s", (_, input) => {
    const probe = toolWith(input);
    const [responses] = openaiResponsesTools({ tools: [probe] });
    expect(responses).toMatchObject({ type: "function", name: "probe", strict: false });
    expect(responses!.parameters).toEqual(toolJsonSchema(probe));
    const [chat] = openaiChatTools({ tools: [probe] });
    expect(chat).toEqual({
      type: "function",
      function: {
        name: "probe",
        description: "A probe.",
        parameters: toolJsonSchema(probe),
        strict: false,
      },
    });
  });

  it("refuses keywords outside strict mode's subset, and a union at the top", () => {
    const both = { allOf: [{ type: "string" }, { type: "string", pattern: "x" }] };
    expect(strictSchema({ type: "object", properties: { both }, required: ["both"] })).toEqual({
      strict: false,
      reason: '"both" uses "allOf"',
    });
    expect(strictSchema({ anyOf: [{ type: "object" }, { type: "object" }] })).toEqual({
      strict: false,
      reason: "the arguments are a union",
    });
  });

  it("sends the plain schema when strict is turned off", () => {
    const kit = createToolkit({ root: new Project().root });
    for (const t of openaiResponsesTools(kit, { strict: false })) {
      expect(t.strict).toBe(false);
      expect(t.parameters).toEqual(toolJsonSchema(kit.find(t.name)));
    }
  });
});

describe("free-form JSON fields", () => {
  it("are strict as JSON text fields, read back into the field before the call", async () => {
    const p = new Project();
    p.write("package.json", '{\n  "name": "x"\n}\n');
    const kit = createToolkit({ root: p.root, lsp: false });
    const doc = openaiResponsesTools(kit).find((t) => t.name === "doc")!;
    expect(doc.strict).toBe(true);
    const properties = doc.parameters.properties as Record<string, { type: unknown }>;
    expect(properties).not.toHaveProperty("value");
    expect(properties.value_json).toMatchObject({ type: ["string", "null"] });
    const call = (args: Record<string, unknown>) =>
      dispatchOpenAIResponses(kit, {
        call_id: "c",
        name: "doc",
        arguments: JSON.stringify({ path: "package.json", action: "set", ...args }),
      });
    await call({ selector: "scripts", value_json: '{"test": "vitest"}', where_json: null });
    expect(p.text("package.json")).toContain('"scripts": {\n    "test": "vitest"\n  }');
    // A string sent in the field itself (non-strict) is that string, not JSON text.
    await call({ selector: "version", value: "42" });
    expect(p.text("package.json")).toContain('"version": "42"');
    const bad = await call({ selector: "x", value_json: "{oops" });
    expect(bad.output).toMatch(
      /^invalid_input: value_json is not JSON text \(.+\)\. Send the value as JSON: "\\"a string\\"" for a string/,
    );
  });
});

describe("null as absent", () => {
  const schema = toolJsonSchema(
    toolWith(
      z.strictObject({
        targets: z.array(z.strictObject({ path: z.string(), range: z.string().optional() })),
        note: z.string().nullable(),
        label: z.union([z.string(), z.strictObject({ text: z.string().optional() })]).optional(),
      }),
    ),
  );

  it("removes null from optional fields that cannot be null, at any depth", () => {
    expect(
      dropNullOptionals(schema, {
        targets: [{ path: "a", range: null }],
        note: null,
        label: { text: null },
      }),
    ).toEqual({ targets: [{ path: "a" }], note: null, label: {} });
    expect(dropNullOptionals(schema, { targets: [], note: "x", label: null })).toEqual({
      targets: [],
      note: "x",
    });
  });

  it("lets a strict model's nulls through dispatch as absent fields", async () => {
    const p = new Project();
    p.write("a.txt", "one\ntwo\n");
    const kit = createToolkit({ root: p.root });
    const out = await dispatchOpenAIResponses(kit, {
      call_id: "c",
      name: "read",
      arguments: '{"targets": [{"path": "a.txt", "line_range": null}]}',
    });
    expect(out.output).toMatch(/^¶a\.txt#[0-9A-F]{4}\n1\| one\n2\| two$/);
  });
});

describe("OpenAI dispatch", () => {
  it("answers arguments that are not JSON with a sentence and a valid example", async () => {
    const kit = createToolkit({ root: new Project().root });
    const out = await dispatchOpenAIResponses(kit, {
      call_id: "c",
      name: "read",
      arguments: '{"targets": [{"path": ',
    });
    expect(out.output).toMatch(
      /^invalid_input: The arguments for read are not valid JSON \(.+\)\. Send one JSON object, e\.g\. \{"path":"src\/main\.ts","line_range":"1\.\.80"\}$/,
    );
    // The unknown tool is the first thing to fix.
    const unknown = await dispatchOpenAIResponses(kit, {
      call_id: "c",
      name: "nope",
      arguments: "{",
    });
    expect(unknown.output).toMatch(/^unknown_tool: There is no tool named "nope"\./);
    // Empty arguments are an empty object.
    const empty = await dispatchOpenAIResponses(kit, { call_id: "c", name: "read", arguments: "" });
    expect(empty.output).toMatch(/^invalid_input: Invalid arguments for read: no file named; /);
  });

  it("takes arguments already parsed, and answers null with a sentence", async () => {
    const p = new Project();
    p.write("a.txt", "one\n");
    const kit = createToolkit({ root: p.root });
    // Some OpenAI-compatible servers and wrappers hand over the object, not its JSON text.
    const given = (args: unknown) =>
      dispatchOpenAIChat(kit, { id: "1", function: { name: "read", arguments: args as string } });
    const parsed = await given({ targets: [{ path: "a.txt", line_range: null }] });
    expect(parsed.content).toMatch(/^¶a\.txt#[0-9A-F]{4}\n1\| one$/);
    expect((await given(null)).content).toBe(
      `invalid_input: The arguments for read must be a JSON object, not null. Send one JSON object, e.g. ${JSON.stringify(readTool.example)}`,
    );
    expect((await given(undefined)).content).toMatch(
      /^invalid_input: Invalid arguments for read: no file named; send "path" /,
    );
  });

  it("answers every call of a response in order, running what cannot collide side by side", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    const kit = createToolkit({ root: p.root });
    const outputs = await dispatchOpenAIResponsesAll(kit, [
      { type: "reasoning" },
      {
        type: "function_call",
        call_id: "1",
        name: "write",
        arguments: '{"targets": [{"path": "b.txt", "text": "b\\n"}]}',
      } as { type: string },
      {
        type: "function_call",
        call_id: "2",
        name: "read",
        arguments: '{"targets": [{"path": "b.txt"}]}',
      } as { type: string },
      { type: "function_call", call_id: "3", name: "read", arguments: "{" } as { type: string },
    ]);
    expect(outputs.map((o) => [o.type, o.call_id])).toEqual([
      ["function_call_output", "1"],
      ["function_call_output", "2"],
      ["function_call_output", "3"],
    ]);
    // The read of b.txt waited for the write of b.txt.
    expect(outputs[1]!.output).toMatch(/^¶b\.txt#[0-9A-F]{4}\n1\| b$/);
    expect(outputs[2]!.output).toMatch(/^invalid_input: The arguments for read are not valid JSON/);

    const messages = await dispatchOpenAIChatAll(kit, [
      { id: "x", function: { name: "read", arguments: '{"targets": [{"path": "a.txt"}]}' } },
      { id: "y", function: { name: "history", arguments: '{"path": "b.txt"}' } },
    ]);
    expect(messages.map((m) => [m.role, m.tool_call_id])).toEqual([
      ["tool", "x"],
      ["tool", "y"],
    ]);
    expect(messages[0]!.content).toMatch(/^¶a\.txt#[0-9A-F]{4}\n1\| a$/);
    expect(JSON.parse(messages[1]!.content)).toMatchObject({ path: "b.txt" });
  });
});
