/**
 * Rule checkers for the schemas each host accepts, written from the hosts'
 * documented rules. Each returns the places a schema breaks them ("$.a.b:
 * why"); an empty list is a pass.
 *
 * - OpenAI strict function calling: the Structured Outputs guide's
 *   "Supported schemas" (types, keywords, every object closed and fully
 *   required, the root an object and not a union, 10 levels of nesting,
 *   5,000 properties, 1,000 enum values).
 * - Gemini `parameters`: the OpenAPI 3.0 subset of `Schema` in
 *   `@google/genai` (its fields, `Type`'s values, `enum` for strings,
 *   parameter names `[A-Za-z_][A-Za-z0-9_]{0,63}`); an OBJECT needs
 *   properties and an ARRAY its items.
 * - Gemini `parametersJsonSchema`: the JSON Schema keywords the Gemini API
 *   documents as supported ($id, $defs, $ref, $anchor, type, format, title,
 *   description, enum, items, prefixItems, minItems, maxItems, minimum,
 *   maximum, anyOf, oneOf, properties, additionalProperties, required,
 *   propertyOrdering); the root must describe an object.
 * - Anthropic `input_schema`: a JSON Schema whose root is `type: "object"`
 *   with no oneOf/allOf/anyOf at the top, property names
 *   `^[a-zA-Z0-9_.-]{1,64}$`.
 * - MCP Inspector `--strict` (modelcontextprotocol/inspector#2121,
 *   `core/json/schemaLint.ts`; `--strict` fails on its errors): the root is
 *   an object schema, no boolean subschema anywhere (Claude Code refuses a
 *   bare `true`), and here its `type-union` warning too (a type array).
 *   Ajv's strict mode (the validator the MCP SDK uses) must compile it.
 */
import { Ajv2020 } from "ajv/dist/2020.js";

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const words = (list: string) => new Set(list.split(/\s+/).filter(Boolean));

/** Visits every subschema with its path; `visit` returns the breaks found at that node. */
function walk(
  node: unknown,
  visit: (node: unknown, at: string, depth: number) => string[],
  at = "$",
  depth = 0,
): string[] {
  const breaks = visit(node, at, depth);
  if (!isObject(node)) return breaks;
  if (isObject(node.properties)) {
    for (const [k, v] of Object.entries(node.properties)) {
      breaks.push(...walk(v, visit, `${at}.${k}`, depth + 1));
    }
  }
  if (node.items !== undefined) breaks.push(...walk(node.items, visit, `${at}[]`, depth + 1));
  if (Array.isArray(node.prefixItems)) {
    for (const [i, s] of node.prefixItems.entries()) {
      breaks.push(...walk(s, visit, `${at}[${i}]`, depth + 1));
    }
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = node[key];
    if (Array.isArray(list)) {
      for (const [i, s] of list.entries()) breaks.push(...walk(s, visit, `${at}|${i}`, depth));
    }
  }
  if (isObject(node.additionalProperties)) {
    breaks.push(...walk(node.additionalProperties, visit, `${at}{}`, depth + 1));
  }
  if (isObject(node.$defs)) {
    for (const [k, v] of Object.entries(node.$defs)) {
      breaks.push(...walk(v, visit, `${at}.$defs.${k}`, depth));
    }
  }
  return breaks;
}

const OPENAI_KEYWORDS = words(`
  type description title enum const anyOf $ref $defs properties required additionalProperties
  items minItems maxItems pattern format minimum maximum exclusiveMinimum exclusiveMaximum multipleOf`);
const OPENAI_FORMATS = words("date-time time date duration email hostname ipv4 ipv6 uuid");
const OPENAI_TYPES = words("string number integer boolean object array null");

export function openaiStrictBreaks(schema: Schema): string[] {
  const breaks: string[] = [];
  if (schema.type !== "object") breaks.push("$: the root is not type object");
  if ("anyOf" in schema) breaks.push("$: the root is a union");
  let properties = 0;
  let enumValues = 0;
  breaks.push(
    ...walk(schema, (node, at, depth) => {
      if (!isObject(node)) return [`${at}: not a schema object`];
      const out: string[] = [];
      if (depth > 10) out.push(`${at}: nested deeper than 10 levels`);
      for (const key of Object.keys(node)) {
        if (!OPENAI_KEYWORDS.has(key)) out.push(`${at}: uses "${key}"`);
      }
      if (typeof node.format === "string" && !OPENAI_FORMATS.has(node.format)) {
        out.push(`${at}: format "${node.format}"`);
      }
      const types = Array.isArray(node.type)
        ? node.type
        : node.type === undefined
          ? []
          : [node.type];
      for (const t of types) if (!OPENAI_TYPES.has(String(t))) out.push(`${at}: type ${String(t)}`);
      if (!["type", "anyOf", "enum", "const", "$ref"].some((k) => k in node)) {
        out.push(`${at}: accepts any value`);
      }
      if (Array.isArray(node.enum)) enumValues += node.enum.length;
      if (types.includes("array") && node.items === undefined)
        out.push(`${at}: array without items`);
      if (types.includes("object") || "properties" in node) {
        const own = isObject(node.properties) ? Object.keys(node.properties) : [];
        properties += own.length;
        if (node.additionalProperties !== false)
          out.push(`${at}: additionalProperties is not false`);
        const required = Array.isArray(node.required) ? node.required : [];
        if (own.some((k) => !required.includes(k)) || required.length !== own.length) {
          out.push(`${at}: not every property is required`);
        }
      }
      return out;
    }),
  );
  if (properties > 5000) breaks.push(`$: ${properties} properties, more than 5,000`);
  if (enumValues > 1000) breaks.push(`$: ${enumValues} enum values, more than 1,000`);
  return breaks;
}

/** The fields of `Schema` in @google/genai. */
const GEMINI_OPENAPI_FIELDS = words(`
  anyOf default description enum example format items maxItems maxLength maxProperties maximum
  minItems minLength minProperties minimum nullable pattern properties propertyOrdering required
  title type`);
const GEMINI_TYPES = words("STRING NUMBER INTEGER BOOLEAN ARRAY OBJECT NULL");
const GEMINI_PARAMETER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function geminiOpenApiBreaks(schema: Schema): string[] {
  const breaks: string[] = [];
  if (schema.type !== "OBJECT") breaks.push("$: the root is not type OBJECT");
  for (const name of Object.keys(isObject(schema.properties) ? schema.properties : {})) {
    if (!GEMINI_PARAMETER.test(name)) breaks.push(`$: parameter name "${name}"`);
  }
  breaks.push(
    ...walk(schema, (node, at) => {
      if (!isObject(node)) return [`${at}: not a schema object`];
      const out: string[] = [];
      for (const key of Object.keys(node)) {
        if (!GEMINI_OPENAPI_FIELDS.has(key)) out.push(`${at}: uses "${key}"`);
      }
      if ("type" in node && !GEMINI_TYPES.has(node.type as string)) {
        out.push(`${at}: type ${JSON.stringify(node.type)} is not one of Type`);
      }
      if ("type" in node && "anyOf" in node) out.push(`${at}: both type and anyOf`);
      if (!("type" in node) && !("anyOf" in node)) out.push(`${at}: no type`);
      if ("enum" in node) {
        const values = node.enum;
        if (
          node.type !== "STRING" ||
          !Array.isArray(values) ||
          values.some((v) => typeof v !== "string")
        ) {
          out.push(`${at}: enum on a non-string`);
        }
      }
      if (node.type === "OBJECT") {
        const own = isObject(node.properties) ? Object.keys(node.properties) : [];
        if (own.length === 0) out.push(`${at}: an OBJECT without properties`);
        const required = Array.isArray(node.required) ? node.required : [];
        for (const r of required) if (!own.includes(r)) out.push(`${at}: requires unknown "${r}"`);
      }
      if (node.type === "ARRAY" && !isObject(node.items)) out.push(`${at}: an ARRAY without items`);
      for (const key of [
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "minProperties",
        "maxProperties",
      ]) {
        if (key in node && !/^\d+$/.test(String(node[key])))
          out.push(`${at}: ${key} is not a count`);
      }
      return out;
    }),
  );
  return breaks;
}

const GEMINI_JSON_KEYWORDS = words(`
  $id $defs $ref $anchor type format title description enum items prefixItems minItems maxItems
  minimum maximum anyOf oneOf properties additionalProperties required propertyOrdering`);

export function geminiJsonSchemaBreaks(schema: Schema): string[] {
  const breaks: string[] = [];
  if (schema.type !== "object") breaks.push("$: the root does not describe an object");
  breaks.push(
    ...walk(schema, (node, at) => {
      if (!isObject(node)) return [`${at}: not a schema object`];
      return Object.keys(node)
        .filter((key) => !GEMINI_JSON_KEYWORDS.has(key))
        .map((key) => `${at}: uses "${key}"`);
    }),
  );
  return breaks;
}

const ANTHROPIC_PROPERTY = /^[a-zA-Z0-9_.-]{1,64}$/;

export function anthropicBreaks(schema: Schema): string[] {
  const breaks: string[] = [];
  if (schema.type !== "object") breaks.push('$: the root is not type "object"');
  for (const key of ["oneOf", "allOf", "anyOf"])
    if (key in schema) breaks.push(`$: ${key} at the top`);
  breaks.push(
    ...walk(schema, (node, at) =>
      Object.keys(isObject(node) && isObject(node.properties) ? node.properties : {})
        .filter((name) => !ANTHROPIC_PROPERTY.test(name))
        .map((name) => `${at}: property name "${name}"`),
    ),
  );
  try {
    new Ajv2020({ strict: false }).compile(schema);
  } catch (error) {
    breaks.push(`$: not valid JSON Schema (${(error as Error).message})`);
  }
  return breaks;
}

export function inspectorStrictBreaks(schema: Schema): string[] {
  const breaks: string[] = [];
  if (schema.type !== "object") breaks.push("$: the input root is not an object schema");
  breaks.push(
    ...walk(schema, (node, at) => {
      if (typeof node === "boolean") return [`${at}: a boolean schema`];
      if (!isObject(node)) return [`${at}: not a schema`];
      const out: string[] = [];
      if (Array.isArray(node.type)) out.push(`${at}: type is an array (type-union)`);
      if ("prefixItems" in node) out.push(`${at}: a tuple (prefixItems)`);
      return out;
    }),
  );
  try {
    // Ajv's strict mode throws on unknown keywords, type arrays, loose tuples and dangling required.
    new Ajv2020({
      strict: true,
      strictTypes: true,
      strictTuples: true,
      strictRequired: true,
    }).compile(schema);
  } catch (error) {
    breaks.push(`$: Ajv strict mode: ${(error as Error).message}`);
  }
  return breaks;
}
