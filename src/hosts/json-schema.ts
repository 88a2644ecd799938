/**
 * A tool's input as JSON Schema, the one shape every host publishes (MCP
 * `inputSchema`, Anthropic `input_schema`, OpenAI `parameters`, AI SDK
 * `jsonSchema`, Gemini `parametersJsonSchema`). Draft 2020-12 without the
 * `$schema` key: some hosts reject a `$schema` they do not know, and none
 * needs it. It keeps to the keywords every host documents (see
 * test/hosts/portable.test.ts): no tuples, no type arrays, no `const`, no
 * string lengths, no `propertyNames`; Gemini CLI and Codex pass an MCP schema
 * to their models as it is, so it must be portable before any adapter.
 */
import { z } from "zod";
import type { Tool } from "../toolkit/index.js";

/** zod's `.int()` bounds: true of every JSON number a model writes, so only noise in a prompt. */
const SAFE = Number.MAX_SAFE_INTEGER;

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The subschemas a node holds, by the keywords zod emits. */
function children(node: Schema): unknown[] {
  const out: unknown[] = [node.items, node.additionalProperties];
  if (Array.isArray(node.anyOf)) out.push(...node.anyOf);
  for (const map of [node.properties, node.$defs])
    if (isSchema(map)) out.push(...Object.values(map));
  return out;
}

/**
 * One node made portable, in place. String lengths, `propertyNames` (JSON
 * keys are strings anyway) and zod's safe-integer bounds go: outside
 * Gemini's subset, and parseArgs still checks the lengths. So does
 * `minItems: 1`, which no model needs told (an empty list is never meant) and
 * which costs tokens on every turn. `additionalProperties: false` goes too:
 * parseArgs takes other agents' spellings of a field (`file_path`,
 * `old_string`) and refuses a field it does not know with a sentence that
 * lists the real ones, where a client that checks a call against a closed
 * schema itself (Gemini CLI) would refuse both with its own message first.
 * The OpenAI adapter closes every object again for strict mode. `const` becomes a
 * one-value `enum`; a type array becomes an `anyOf` of single types (Ajv's
 * strict mode and Gemini's OpenAPI schema take no type arrays).
 */
function portable(node: Schema): void {
  if (node.minimum === -SAFE) delete node.minimum;
  if (node.maximum === SAFE) delete node.maximum;
  delete node.minLength;
  delete node.maxLength;
  delete node.propertyNames;
  if (node.minItems === 1) delete node.minItems;
  if (node.additionalProperties === false) delete node.additionalProperties;
  if ("const" in node) {
    node.enum = [node.const];
    delete node.const;
  }
  if (Array.isArray(node.type)) {
    node.anyOf = node.type.map((type) => ({ type }));
    delete node.type;
  }
  for (const child of children(node)) if (isSchema(child)) portable(child);
}

/** The input schema of a tool, as every host publishes it. */
export function toolJsonSchema(tool: Pick<Tool, "name" | "input">): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input, {
    target: "draft-2020-12",
    // What a model sends: optional fields with defaults stay optional.
    io: "input",
    // A refinement JSON Schema cannot express is still checked by parseArgs.
    unrepresentable: "any",
  }) as Schema;
  delete schema.$schema;
  portable(schema);
  // Every host requires an object at the top; a tool without arguments still gets one.
  if (schema.type !== "object") {
    throw new Error(`Tool ${tool.name}: its input must be an object schema to be published.`);
  }
  schema.properties ??= {};
  return schema;
}
