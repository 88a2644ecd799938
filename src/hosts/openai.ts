/**
 * OpenAI function tools for the Responses and the Chat Completions APIs, and
 * their calls answered. The wire shapes are written out here (the `openai`
 * package is not a dependency): a function tool `{type: "function", name,
 * description, parameters, strict}` (Chat nests all but `type` under
 * `function`); a call's `arguments` is a JSON string.
 *
 * Strict mode constrains the model to the schema, but only accepts a subset
 * of JSON Schema: every property listed in `required`, `additionalProperties:
 * false` on every object, no tuples, no `allOf`/`oneOf`/`not`. `strictSchema`
 * rewrites a schema into that subset when it can do so exactly (an optional
 * field becomes required-but-nullable, and dispatch reads its `null` as
 * absent again); otherwise the tool is sent with `strict: false`. A
 * free-form JSON field (doc's `value`) is sent as JSON text (`json-text.ts`).
 */
import { isDeepStrictEqual } from "node:util";
import type { ToolError } from "../errors.js";
import { argumentsObject, type Tool, type Toolkit } from "../toolkit/index.js";
import { dispatch, dispatchAll, type ModelCall, type ModelReply } from "./dispatch.js";
import { toolJsonSchema } from "./json-schema.js";
import { fromJsonText, type JsonTextPaths, withJsonText } from "./json-text.js";

type Schema = Record<string, unknown>;

export interface OpenAIToolOptions {
  /** Ask for strict schemas (default true); a tool whose schema cannot be strict is sent non-strict. */
  strict?: boolean;
}

export interface OpenAIFunction {
  name: string;
  description: string;
  parameters: Schema;
  strict: boolean;
}

/** A Responses API function tool. */
export interface OpenAIResponsesTool extends OpenAIFunction {
  type: "function";
}

/** A Chat Completions function tool. */
export interface OpenAIChatTool {
  type: "function";
  function: OpenAIFunction;
}

/** The parts of a Responses `function_call` output item dispatch reads. */
export interface OpenAIFunctionCall {
  call_id: string;
  name: string;
  arguments: string;
}

/** A Responses output part: the text, or an image as a data URL. */
export type OpenAIOutputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" };

export interface OpenAIFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  /** The text alone, or the text and then each image (a read of an image file). */
  output: string | OpenAIOutputPart[];
}

/** The parts of a Chat Completions `tool_calls[i]` dispatch reads. */
export interface OpenAIChatToolCall {
  id: string;
  function: { name: string; arguments: string };
}

export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export type StrictSchema = { strict: true; schema: Schema } | { strict: false; reason: string };

class NotStrict extends Error {}

const isObject = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const words = (list: string) => new Set(list.split(" "));
/** Keywords strict mode takes as they are. */
const KEPT = words(
  "type description title enum const anyOf $ref $defs properties required additionalProperties " +
    "items minItems maxItems pattern format minimum maximum exclusiveMinimum exclusiveMaximum multipleOf",
);
/** Annotations strict mode does not take and no validation needs. */
const DROPPED = words("default examples $comment deprecated readOnly writeOnly");
/** Value limits strict mode cannot express; dispatch still enforces them (parseArgs). */
const RECHECKED = words("minLength maxLength uniqueItems minProperties maxProperties");
/** The string formats strict mode knows; others are dropped and left to parseArgs. */
const FORMATS = words("date-time time date duration email hostname ipv4 ipv6 uuid");
const SCALARS = new Set(["string", "number", "integer", "boolean"]);

const where = (at: string) => (at === "" ? "the arguments" : `"${at}"`);

function resolveRef(ref: unknown, root: Schema): unknown {
  if (ref === "#") return root;
  const m = typeof ref === "string" ? /^#\/\$defs\/([^/]+)$/.exec(ref) : null;
  return m && isObject(root.$defs) ? root.$defs[m[1]!] : undefined;
}

/** Whether null is a valid value (then it cannot also stand for "absent"). */
function acceptsNull(node: unknown, root: Schema): boolean {
  if (!isObject(node)) return node === true;
  if (node.$ref !== undefined) return acceptsNull(resolveRef(node.$ref, root), root);
  if (Array.isArray(node.anyOf)) return node.anyOf.some((s) => acceptsNull(s, root));
  if (Array.isArray(node.oneOf)) return node.oneOf.some((s) => acceptsNull(s, root));
  if (Array.isArray(node.enum)) return node.enum.includes(null);
  if ("const" in node) return node.const === null;
  if (node.type === undefined) return true;
  return node.type === "null" || (Array.isArray(node.type) && node.type.includes("null"));
}

/** A tuple whose items all share one schema is an array with a length; any other is refused. */
function untuple(node: Schema, at: string): Schema {
  const draft7 = Array.isArray(node.items);
  const prefix = draft7 ? node.items : node.prefixItems;
  if (!Array.isArray(prefix)) return node;
  const rest = draft7 ? node.additionalItems : node.items;
  const [first, ...others] = prefix;
  const same = (s: unknown) => isDeepStrictEqual(s, first);
  if (first === undefined || !others.every(same) || !(rest === false || same(rest))) {
    throw new NotStrict(`${where(at)} is a tuple of mixed item types`);
  }
  const { prefixItems: _p, additionalItems: _a, ...plain } = node;
  const n = prefix.length;
  const max = typeof node.maxItems === "number" ? node.maxItems : Number.POSITIVE_INFINITY;
  return { ...plain, items: first, ...(rest === false ? { maxItems: Math.min(max, n) } : {}) };
}

function orNull(node: Schema): Schema {
  const { type } = node;
  if (node.enum === undefined && !("const" in node)) {
    if (typeof type === "string" && SCALARS.has(type)) return { ...node, type: [type, "null"] };
    if (Array.isArray(node.anyOf)) return { ...node, anyOf: [...node.anyOf, { type: "null" }] };
  }
  const { description, title, ...rest } = node;
  return {
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    anyOf: [rest, { type: "null" }],
  };
}

function strictObject(node: Schema, out: Schema, at: string, root: Schema): void {
  const properties = isObject(node.properties) ? node.properties : {};
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const strictProperties: Schema = {};
  for (const [key, value] of Object.entries(properties)) {
    const path = at === "" ? key : `${at}.${key}`;
    const converted = strictNode(value, path, root);
    if (required.has(key)) {
      strictProperties[key] = converted;
    } else if (acceptsNull(value, root)) {
      throw new NotStrict(`${where(path)} is optional and also accepts null`);
    } else {
      strictProperties[key] = orNull(converted);
    }
  }
  out.properties = strictProperties;
  out.required = Object.keys(strictProperties);
  out.additionalProperties = false;
}

function strictNode(input: unknown, at: string, root: Schema): Schema {
  if (!isObject(input)) throw new NotStrict(`${where(at)} accepts any value`);
  const node = untuple(input, at);
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
    throw new NotStrict(`${where(at)} allows fields beyond its listed properties`);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key) || RECHECKED.has(key)) continue;
    if (key === "format" && !FORMATS.has(String(value))) continue;
    if (!KEPT.has(key)) throw new NotStrict(`${where(at)} uses "${key}"`);
    if (key === "items") out.items = strictNode(value, `${at}[]`, root);
    else if (key === "anyOf" && Array.isArray(value)) {
      out.anyOf = value.map((s) => strictNode(s, at, root));
    } else if (key === "$defs" && isObject(value)) {
      const defs = Object.entries(value).map(([k, s]) => [k, strictNode(s, `$defs.${k}`, root)]);
      out.$defs = Object.fromEntries(defs);
    } else if (key !== "properties" && key !== "required" && key !== "additionalProperties") {
      out[key] = value;
    }
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes("object") || node.properties !== undefined) {
    strictObject(node, out, at, root);
  }
  if (types.includes("array") && out.items === undefined) {
    throw new NotStrict(`${where(at)} is an array of any values`);
  }
  if (!["type", "anyOf", "enum", "const", "$ref"].some((k) => k in out)) {
    throw new NotStrict(`${where(at)} accepts any value`);
  }
  return out;
}

/**
 * The schema in strict mode's subset, or why it cannot be: the result
 * accepts exactly the same calls, optional fields spelled as `null`, except
 * for value limits strict mode lacks (string lengths, unknown formats), which
 * dispatch still checks.
 */
export function strictSchema(schema: Schema): StrictSchema {
  try {
    if (Array.isArray(schema.anyOf)) throw new NotStrict("the arguments are a union");
    return { strict: true, schema: strictNode(schema, "", schema) };
  } catch (error) {
    if (error instanceof NotStrict) return { strict: false, reason: error.message };
    throw error;
  }
}

/** Whether a branch of a union is for objects (or arrays) and the value is one. */
function holds(branch: unknown, value: unknown, root: Schema): boolean {
  const s = isObject(branch) && branch.$ref !== undefined ? resolveRef(branch.$ref, root) : branch;
  if (!isObject(s)) return false;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (Array.isArray(value)) return types.includes("array");
  return isObject(value) && (types.includes("object") || isObject(s.properties));
}

/** Removes `null` where the schema has an optional field that cannot be null: strict mode's "absent". */
export function dropNullOptionals(
  schema: unknown,
  value: unknown,
  root = schema as Schema,
): unknown {
  if (!isObject(schema)) return value;
  if (schema.$ref !== undefined)
    return dropNullOptionals(resolveRef(schema.$ref, root), value, root);
  if (Array.isArray(schema.anyOf)) {
    // Only a branch the value's JSON type picks out unambiguously is followed.
    const fits = schema.anyOf.filter((s) => holds(s, value, root));
    return fits.length === 1 ? dropNullOptionals(fits[0], value, root) : value;
  }
  if (Array.isArray(value)) {
    return isObject(schema.items)
      ? value.map((v) => dropNullOptionals(schema.items, v, root))
      : value;
  }
  if (!isObject(value) || !isObject(schema.properties)) return value;
  const properties = schema.properties;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const out: Schema = {};
  for (const [key, v] of Object.entries(value)) {
    const property = properties[key];
    if (property === undefined) out[key] = v;
    else if (v !== null) out[key] = dropNullOptionals(property, v, root);
    else if (required.includes(key) || acceptsNull(property, root)) out[key] = v;
  }
  return out;
}

function openaiFunction(tool: Tool, wantStrict: boolean): OpenAIFunction {
  const parameters = toolJsonSchema(tool);
  const strict = wantStrict ? strictSchema(withJsonText(parameters).schema) : undefined;
  return strict?.strict
    ? { name: tool.name, description: tool.description, parameters: strict.schema, strict: true }
    : { name: tool.name, description: tool.description, parameters, strict: false };
}

/** The `tools` for `responses.create`. */
export function openaiResponsesTools(
  toolkit: Pick<Toolkit, "tools">,
  options: OpenAIToolOptions = {},
): OpenAIResponsesTool[] {
  return toolkit.tools.map((t) => ({
    type: "function",
    ...openaiFunction(t, options.strict ?? true),
  }));
}

/** The `tools` for `chat.completions.create`. */
export function openaiChatTools(
  toolkit: Pick<Toolkit, "tools">,
  options: OpenAIToolOptions = {},
): OpenAIChatTool[] {
  return toolkit.tools.map((t) => ({
    type: "function",
    function: openaiFunction(t, options.strict ?? true),
  }));
}

const schemas = new WeakMap<Tool, { schema: Schema; jsonText: JsonTextPaths }>();

function schemaOf(tool: Tool): { schema: Schema; jsonText: JsonTextPaths } {
  const known = schemas.get(tool);
  if (known) return known;
  const schema = toolJsonSchema(tool);
  const entry = { schema, jsonText: withJsonText(schema).paths };
  schemas.set(tool, entry);
  return entry;
}

/**
 * A call as the model sent it: the tool, and its arguments read. The API
 * sends JSON text; some compatible servers and wrappers hand over the object
 * already parsed, or nothing at all.
 */
function readCall(toolkit: Toolkit, name: string, given: unknown): ModelCall {
  try {
    const tool = toolkit.find(name);
    const { schema, jsonText } = schemaOf(tool);
    const args = fromJsonText(argumentsObject(tool, given), jsonText);
    return { name, args: dropNullOptionals(schema, args) };
  } catch (error) {
    return { name, args: undefined, failure: error as ToolError };
  }
}

function responsesOutput(reply: ModelReply): OpenAIFunctionCallOutput["output"] {
  if (reply.images.length === 0) return reply.text;
  return [
    { type: "input_text", text: reply.text },
    ...reply.images.map((image) => ({
      type: "input_image" as const,
      image_url: `data:${image.mime_type};base64,${image.data}`,
      detail: "auto" as const,
    })),
  ];
}

/** A Chat Completions tool message holds text only: the images are named, not sent. */
function chatContent(reply: ModelReply): string {
  if (reply.images.length === 0) return reply.text;
  const n = reply.images.length;
  return `${reply.text}\n[${n} image(s) not shown: a Chat Completions tool message carries text only; the Responses API shows them]`;
}

/** Answers one Responses `function_call` item with its `function_call_output` item. */
export async function dispatchOpenAIResponses(
  toolkit: Toolkit,
  call: OpenAIFunctionCall,
): Promise<OpenAIFunctionCallOutput> {
  const reply = await dispatch(toolkit, readCall(toolkit, call.name, call.arguments));
  return { type: "function_call_output", call_id: call.call_id, output: responsesOutput(reply) };
}

/** Answers one Chat `tool_calls` entry with its `tool` message. */
export async function dispatchOpenAIChat(
  toolkit: Toolkit,
  call: OpenAIChatToolCall,
): Promise<OpenAIToolMessage> {
  const reply = await dispatch(
    toolkit,
    readCall(toolkit, call.function.name, call.function.arguments),
  );
  return { role: "tool", tool_call_id: call.id, content: chatContent(reply) };
}

/**
 * Answers every `function_call` item of a response's `output` (other items
 * are skipped), side by side where footprints allow, in the model's order.
 */
export async function dispatchOpenAIResponsesAll(
  toolkit: Toolkit,
  output: readonly { type: string }[],
): Promise<OpenAIFunctionCallOutput[]> {
  const calls = output.filter(
    (item): item is OpenAIFunctionCall & { type: "function_call" } => item.type === "function_call",
  );
  const replies = await dispatchAll(
    toolkit,
    calls.map((c) => readCall(toolkit, c.name, c.arguments)),
  );
  return calls.map((c, i) => ({
    type: "function_call_output",
    call_id: c.call_id,
    output: responsesOutput(replies[i]!),
  }));
}

/** Answers every entry of a Chat message's `tool_calls`, side by side where footprints allow. */
export async function dispatchOpenAIChatAll(
  toolkit: Toolkit,
  toolCalls: readonly OpenAIChatToolCall[],
): Promise<OpenAIToolMessage[]> {
  const replies = await dispatchAll(
    toolkit,
    toolCalls.map((c) => readCall(toolkit, c.function.name, c.function.arguments)),
  );
  return toolCalls.map((c, i) => ({
    role: "tool",
    tool_call_id: c.id,
    content: chatContent(replies[i]!),
  }));
}
