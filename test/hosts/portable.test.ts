/**
 * Every tool's input schema keeps every host's documented rules, as that
 * host receives it: the MCP schema (what Codex and Gemini CLI pass on as it
 * is) for the Inspector's strict lint, Anthropic and Gemini's JSON Schema
 * dialect; the OpenAI adapter's strict schemas; the Gemini adapter's
 * OpenAPI schemas. The rules live in test/helpers/schema-rules.ts.
 */
import { describe, expect, it } from "vitest";
import { anthropicTools } from "../../src/hosts/anthropic.js";
import { geminiFunctionDeclarations } from "../../src/hosts/gemini.js";
import { toolJsonSchema } from "../../src/hosts/json-schema.js";
import { openaiResponsesTools } from "../../src/hosts/openai.js";
import { createToolkit, fullTools } from "../../src/index.js";
import { Project } from "../helpers/project.js";
import {
  anthropicBreaks,
  geminiJsonSchemaBreaks,
  geminiOpenApiBreaks,
  inspectorStrictBreaks,
  openaiStrictBreaks,
} from "../helpers/schema-rules.js";

type Schema = Record<string, unknown>;

const kit = createToolkit({ root: new Project().root });

/** Breaks by tool, leaving out the tools that keep the rules: `{}` is a pass. */
function failures(entries: [string, Schema][], rules: (s: Schema) => string[]) {
  const out: Record<string, string[]> = {};
  for (const [name, schema] of entries) {
    const breaks = rules(schema);
    if (breaks.length > 0) out[name] = breaks;
  }
  return out;
}

const mcp = fullTools.map((t): [string, Schema] => [t.name, toolJsonSchema(t)]);

describe("every tool's schema", () => {
  it("passes the MCP Inspector's strict lint as the MCP server publishes it", () => {
    expect(failures(mcp, inspectorStrictBreaks)).toEqual({});
  });

  it("passes Gemini's parametersJsonSchema rules as published over MCP (Gemini CLI sends it as is)", () => {
    expect(failures(mcp, geminiJsonSchemaBreaks)).toEqual({});
  });

  it("passes Anthropic's input_schema rules", () => {
    const published = anthropicTools(kit).map((t): [string, Schema] => [t.name, t.input_schema]);
    expect(failures(published, anthropicBreaks)).toEqual({});
  });

  it("is strict for OpenAI, and passes strict mode's rules", () => {
    const published = openaiResponsesTools(kit);
    expect(published.filter((t) => !t.strict).map((t) => t.name)).toEqual([]);
    expect(
      failures(
        published.map((t) => [t.name, t.parameters]),
        openaiStrictBreaks,
      ),
    ).toEqual({});
  });

  it("passes Gemini's rules in both dialects of the Gemini adapter", () => {
    const openapi = geminiFunctionDeclarations(kit, { dialect: "openapi" });
    expect(
      failures(
        openapi.map((d) => [d.name!, d.parameters as Schema]),
        geminiOpenApiBreaks,
      ),
    ).toEqual({});
    const json = geminiFunctionDeclarations(kit);
    expect(
      failures(
        json.map((d) => [d.name!, d.parametersJsonSchema as Schema]),
        geminiJsonSchemaBreaks,
      ),
    ).toEqual({});
  });
});

describe("the rule checkers", () => {
  // The schema read.line_range had: a tuple, which Codex rewrote to an array of strings.
  const tuple: Schema = {
    type: "object",
    properties: {
      line_range: {
        anyOf: [
          { type: "string" },
          { type: "array", prefixItems: [{ type: "integer" }, { type: "integer" }], items: false },
        ],
      },
      row: { type: "array", items: { type: ["string", "number"] } },
      value: { description: "any JSON value" },
    },
    additionalProperties: false,
  };

  it("find what the old schemas broke, host by host", () => {
    expect(inspectorStrictBreaks(tuple)).toEqual(
      expect.arrayContaining([
        "$.line_range|1: a tuple (prefixItems)",
        "$.line_range|1[]: a boolean schema",
        "$.row[]: type is an array (type-union)",
      ]),
    );
    expect(
      geminiJsonSchemaBreaks({ ...tuple, properties: { s: { type: "string", maxLength: 9 } } }),
    ).toEqual(['$.s: uses "maxLength"']);
    expect(openaiStrictBreaks(tuple)).toEqual(
      expect.arrayContaining([
        '$.line_range|1: uses "prefixItems"',
        "$.value: accepts any value",
        "$: not every property is required",
      ]),
    );
    expect(geminiOpenApiBreaks(tuple)).toEqual(
      expect.arrayContaining([
        "$: the root is not type OBJECT",
        '$: uses "additionalProperties"',
        "$.value: no type",
      ]),
    );
    expect(anthropicBreaks({ anyOf: [tuple], type: "object" })).toEqual(["$: anyOf at the top"]);
    expect(anthropicBreaks({ type: "object", properties: { "a b": { type: "string" } } })).toEqual([
      '$: property name "a b"',
    ]);
  });
});
