/**
 * A tool's input as JSON Schema, the one shape every host publishes (MCP
 * `inputSchema`, Anthropic `input_schema`, OpenAI `parameters`, AI SDK
 * `jsonSchema`). Draft 2020-12 without the `$schema` key: some hosts reject
 * a `$schema` they do not know, and none needs it.
 */
import { z } from "zod";
import type { Tool } from "../toolkit/index.js";

/** zod's `.int()` bounds: true of every JSON number a model writes, so only noise in a prompt. */
const SAFE = Number.MAX_SAFE_INTEGER;

function dropSafeIntegerBounds(schema: Record<string, unknown>): void {
  if (schema.minimum === -SAFE) delete schema.minimum;
  if (schema.maximum === SAFE) delete schema.maximum;
}

/**
 * The input schema of a tool. Strict objects keep `additionalProperties:
 * false`, so a host that validates before calling refuses unknown fields the
 * same way `parseArgs` does.
 */
export function toolJsonSchema(tool: Pick<Tool, "name" | "input">): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input, {
    target: "draft-2020-12",
    // What a model sends: optional fields with defaults stay optional.
    io: "input",
    // A refinement JSON Schema cannot express is still checked by parseArgs.
    unrepresentable: "any",
    override: (ctx) => dropSafeIntegerBounds(ctx.jsonSchema as Record<string, unknown>),
  }) as Record<string, unknown>;
  delete schema.$schema;
  // Every host requires an object at the top; a tool without arguments still gets one.
  if (schema.type !== "object") {
    throw new Error(`Tool ${tool.name}: its input must be an object schema to be published.`);
  }
  schema.properties ??= {};
  return schema;
}
