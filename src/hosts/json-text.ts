/**
 * Free-form JSON fields (doc's `value` and `where`, a plan step's `args`)
 * for hosts whose schemas cannot say "any JSON value": OpenAI strict mode
 * and Gemini's OpenAPI `parameters`. Such a field `F` is published as the
 * string field `F_json`, its value as JSON text, and read back into `F`
 * before the call is checked. A distinct name keeps it exact: a string sent
 * in `F` is still that string.
 */
import { ToolError } from "../errors.js";

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const SUFFIX = "_json";

/** One step of a path to a field: a property, or any item of an array. */
type Step = string | typeof ITEM;
const ITEM = Symbol("item");

/** Where the JSON text fields are: each path ends at the field's own name (without the suffix). */
export type JsonTextPaths = readonly (readonly Step[])[];

/** A value no typed schema describes: any value, an open map, or a list of either. */
function freeForm(node: unknown): boolean {
  if (!isObject(node)) return node === true;
  if (!["type", "anyOf", "enum", "const", "$ref"].some((k) => k in node)) return true;
  if (node.type === "object" && node.additionalProperties !== undefined) {
    return node.additionalProperties !== false;
  }
  return node.type === "array" && freeForm(node.items);
}

function encodeNode(node: unknown, at: Step[], paths: Step[][]): unknown {
  if (!isObject(node)) return node;
  const out: Schema = { ...node };
  if (isObject(node.items)) out.items = encodeNode(node.items, [...at, ITEM], paths);
  if (Array.isArray(node.anyOf)) out.anyOf = node.anyOf.map((s) => encodeNode(s, at, paths));
  if (!isObject(node.properties)) return out;
  const properties: Schema = {};
  const renamed = new Map<string, string>();
  for (const [key, value] of Object.entries(node.properties)) {
    if (!freeForm(value)) {
      properties[key] = encodeNode(value, [...at, key], paths);
      continue;
    }
    const described = isObject(value) && typeof value.description === "string";
    const what = described
      ? `${(value.description as string).replace(/\.$/, "")}, as`
      : "A value in";
    properties[key + SUFFIX] = {
      type: "string",
      description: `${what} JSON text: "\\"text\\"", "42", "{\\"a\\": 1}".`,
    };
    renamed.set(key, key + SUFFIX);
    paths.push([...at, key]);
  }
  out.properties = properties;
  if (Array.isArray(node.required)) {
    out.required = node.required.map((k) => renamed.get(k as string) ?? k);
  }
  return out;
}

/** The schema with every free-form field as a JSON text field, and where those fields are. */
export function withJsonText(schema: Schema): { schema: Schema; paths: JsonTextPaths } {
  const paths: Step[][] = [];
  const encoded = encodeNode(schema, [], paths) as Schema;
  return { schema: encoded, paths };
}

function decodeAt(value: unknown, path: readonly Step[], shown: string): unknown {
  const [step, ...rest] = path;
  if (step === ITEM) {
    return Array.isArray(value) ? value.map((v, i) => decodeAt(v, rest, `${shown}[${i}]`)) : value;
  }
  if (!isObject(value) || step === undefined) return value;
  const name = shown === "" ? step : `${shown}.${step}`;
  if (rest.length > 0) {
    return step in value ? { ...value, [step]: decodeAt(value[step], rest, name) } : value;
  }
  const key = step + SUFFIX;
  if (!(key in value)) return value;
  const { [key]: text, ...others } = value;
  // Strict mode sends an absent optional field as null.
  if (text === null || text === undefined) return others;
  if (typeof text !== "string") return { ...others, [step]: text };
  try {
    return { ...others, [step]: JSON.parse(text) };
  } catch (error) {
    const why = error instanceof Error ? ` (${error.message})` : "";
    throw new ToolError(
      "invalid_input",
      `${name}${SUFFIX} is not JSON text${why}. Send the value as JSON: "\\"a string\\"" for a string, "[1, 2]" for a list.`,
    );
  }
}

/** The arguments with each `F_json` read back into `F`; throws a ToolError for text that is not JSON. */
export function fromJsonText(args: unknown, paths: JsonTextPaths): unknown {
  return paths.reduce((value, path) => decodeAt(value, path, ""), args);
}

function encodeAt(value: unknown, path: readonly Step[]): unknown {
  const [step, ...rest] = path;
  if (step === ITEM) return Array.isArray(value) ? value.map((v) => encodeAt(v, rest)) : value;
  if (!isObject(value) || step === undefined || !(step in value)) return value;
  if (rest.length > 0) return { ...value, [step]: encodeAt(value[step], rest) };
  const { [step]: field, ...others } = value;
  return { ...others, [step + SUFFIX]: JSON.stringify(field) };
}

/** The arguments as a model sends them to the JSON text schema (for tests and examples). */
export function toJsonText(args: unknown, paths: JsonTextPaths): unknown {
  return paths.reduce((value, path) => encodeAt(value, path), args);
}
