/**
 * The Gemini API through `@google/genai`: splice's tools as function
 * declarations, and a reply's `functionCall` parts answered with
 * `functionResponse` parts. Only types come from the SDK; nothing here loads it.
 *
 * Two dialects. `json_schema` (the default) sends `parametersJsonSchema`,
 * the portable schema every host gets. `openapi` sends `parameters`, the
 * OpenAPI 3.0 subset the SDK's `Schema` type describes (Vertex AI and older
 * models take only this): single upper-case types, no `additionalProperties`
 * (parseArgs still refuses unknown fields), `enum` for strings only, and a
 * free-form JSON field as JSON text (`json-text.ts`).
 */
import type {
  FunctionCall,
  FunctionDeclaration,
  Tool as GeminiTool,
  Part,
  Schema,
} from "@google/genai";
import type { ToolError } from "../errors.js";
import { argumentsObject, type Tool, type Toolkit } from "../toolkit/index.js";
import { dispatch, dispatchAll, type ModelCall, type ModelReply } from "./dispatch.js";
import { toolJsonSchema } from "./json-schema.js";
import { fromJsonText, type JsonTextPaths, withJsonText } from "./json-text.js";

export type GeminiDialect = "json_schema" | "openapi";

export interface GeminiToolOptions {
  /** `json_schema` (default): `parametersJsonSchema`; `openapi`: `parameters`. */
  dialect?: GeminiDialect;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keywords `Schema` takes as they are. */
const KEPT = new Set(["description", "title", "format", "pattern", "minimum", "maximum"]);
/** `Schema`'s int64 fields, which the SDK types as decimal strings. */
const COUNTS = new Set(["minItems", "maxItems", "minProperties", "maxProperties"]);
/** What the subset has no word for and parseArgs checks anyway. */
const DROPPED = new Set(["additionalProperties", "default", "examples", "$comment"]);

function openapiNode(node: unknown, tool: string): Schema {
  if (!isObject(node)) throw new Error(`Tool ${tool}: a boolean schema has no Gemini form.`);
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "type") out.type = String(value).toUpperCase();
    else if (key === "items") out.items = openapiNode(value, tool);
    else if (key === "anyOf" && Array.isArray(value)) {
      out.anyOf = value.map((s) => openapiNode(s, tool));
    } else if (key === "properties" && isObject(value)) {
      const entries = Object.entries(value).map(([k, s]) => [k, openapiNode(s, tool)]);
      out.properties = Object.fromEntries(entries);
    } else if (key === "required") out.required = value;
    else if (key === "enum" && Array.isArray(value)) {
      // Only strings can be an enum there; `syntax: true` stays a boolean.
      if (value.every((v) => typeof v === "string")) out.enum = value;
    } else if (COUNTS.has(key)) out[key] = String(value);
    else if (KEPT.has(key)) out[key] = value;
    else if (!DROPPED.has(key)) {
      throw new Error(`Tool ${tool}: schema keyword "${key}" has no Gemini OpenAPI form.`);
    }
  }
  return out as Schema;
}

/** The tool's schema in Gemini's OpenAPI subset (`FunctionDeclaration.parameters`). */
export function geminiOpenApiSchema(tool: Pick<Tool, "name" | "input">): Schema {
  return openapiNode(withJsonText(toolJsonSchema(tool)).schema, tool.name);
}

function declaration(tool: Tool, dialect: GeminiDialect): FunctionDeclaration {
  const { name, description } = tool;
  return dialect === "openapi"
    ? { name, description, parameters: geminiOpenApiSchema(tool) }
    : { name, description, parametersJsonSchema: toolJsonSchema(tool) };
}

/** The function declarations, one per tool. */
export function geminiFunctionDeclarations(
  toolkit: Pick<Toolkit, "tools">,
  options: GeminiToolOptions = {},
): FunctionDeclaration[] {
  return toolkit.tools.map((t) => declaration(t, options.dialect ?? "json_schema"));
}

/** The `config.tools` for `models.generateContent`: one tool holding every declaration. */
export function geminiTools(
  toolkit: Pick<Toolkit, "tools">,
  options: GeminiToolOptions = {},
): GeminiTool[] {
  return [{ functionDeclarations: geminiFunctionDeclarations(toolkit, options) }];
}

const jsonTextPaths = new WeakMap<Tool, JsonTextPaths>();

function pathsOf(tool: Tool): JsonTextPaths {
  let paths = jsonTextPaths.get(tool);
  if (!paths) {
    paths = withJsonText(toolJsonSchema(tool)).paths;
    jsonTextPaths.set(tool, paths);
  }
  return paths;
}

/** A call as the model sent it; JSON text fields of the `openapi` dialect are read back. */
function readCall(toolkit: Toolkit, call: FunctionCall): ModelCall {
  const name = call.name ?? "";
  try {
    const tool = toolkit.find(name);
    return { name, args: fromJsonText(argumentsObject(tool, call.args), pathsOf(tool)) };
  } catch (error) {
    return { name, args: undefined, failure: error as ToolError };
  }
}

/**
 * The part that answers a call: the text the model reads, as `output` or, for
 * a failure, `error`; images as the response's inline-data `parts`.
 */
function responsePart(call: FunctionCall, reply: ModelReply): Part {
  const parts = reply.images.map((image) => ({
    inlineData: { mimeType: image.mime_type, data: image.data },
  }));
  return {
    functionResponse: {
      ...(call.id === undefined ? {} : { id: call.id }),
      name: call.name ?? "",
      response: reply.isError ? { error: reply.text } : { output: reply.text },
      ...(parts.length > 0 ? { parts } : {}),
    },
  };
}

/** Runs one `functionCall`; a bad call or a failure is an `error` response, never a throw. */
export async function dispatchGemini(toolkit: Toolkit, call: FunctionCall): Promise<Part> {
  return responsePart(call, await dispatch(toolkit, readCall(toolkit, call)));
}

/**
 * Runs every call of a reply (`response.functionCalls`), side by side where
 * their footprints allow, and returns the `functionResponse` parts in the
 * same order: the parts of the next `user` turn.
 */
export async function dispatchGeminiAll(
  toolkit: Toolkit,
  calls: readonly FunctionCall[] | undefined,
): Promise<Part[]> {
  const list = calls ?? [];
  const replies = await dispatchAll(
    toolkit,
    list.map((c) => readCall(toolkit, c)),
  );
  return list.map((c, i) => responsePart(c, replies[i]!));
}
