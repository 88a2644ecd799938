/**
 * One contract, every host: the Anthropic, OpenAI and AI SDK adapters, and
 * the MCP server driven by the real MCP SDK client over a linked in-memory
 * transport. The published schemas are valid JSON Schema that accept each
 * tool's example; every tool answers a call on a fixed temp project with
 * exactly the text the model reads, the same on every host; a bad call gets
 * a sentence back.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
} from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { aiSdkTools } from "../../src/hosts/ai-sdk.js";
import { anthropicTools, dispatchAnthropic } from "../../src/hosts/anthropic.js";
import {
  dispatchGemini,
  type GeminiDialect,
  geminiFunctionDeclarations,
} from "../../src/hosts/gemini.js";
import { toolJsonSchema } from "../../src/hosts/json-schema.js";
import { toJsonText, withJsonText } from "../../src/hosts/json-text.js";
import { createMcpServer } from "../../src/hosts/mcp/server.js";
import {
  dispatchOpenAIChat,
  dispatchOpenAIResponses,
  openaiChatTools,
  openaiResponsesTools,
} from "../../src/hosts/openai.js";
import {
  createToolkit,
  fullTools,
  LocalWorkspace,
  type Tool,
  type ToolkitOptions,
} from "../../src/index.js";
import { Project } from "../helpers/project.js";
import { scannedPdf } from "../helpers/scanned-pdf.js";

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** What a strict-mode model sends: every optional field that was left out, as null. */
function nullsForAbsent(schema: unknown, value: unknown): unknown {
  if (!isObject(schema)) return value;
  if (Array.isArray(schema.anyOf)) {
    const kind = Array.isArray(value) ? "array" : isObject(value) ? "object" : "other";
    const fits = schema.anyOf.filter((s) => isObject(s) && s.type === kind) as Schema[];
    // Of several object branches, the one that names every field the value has.
    const names = (s: Schema) => Object.keys(isObject(s.properties) ? s.properties : {});
    const branch = isObject(value)
      ? fits.find((s) => Object.keys(value).every((k) => names(s).includes(k)))
      : fits[0];
    return nullsForAbsent(branch, value);
  }
  if (Array.isArray(value)) return value.map((v) => nullsForAbsent(schema.items, v));
  if (!isObject(value) || !isObject(schema.properties)) return value;
  const out: Schema = {};
  for (const [key, property] of Object.entries(schema.properties)) {
    if (key in value) out[key] = nullsForAbsent(property, value[key]);
    else if (!(schema.required as string[] | undefined)?.includes(key)) out[key] = null;
  }
  return { ...value, ...out };
}

/** Where a schema breaks OpenAI's strict-mode rules (empty when it keeps them). */
function strictRuleBreaks(node: unknown, at = "$"): string[] {
  if (!isObject(node)) return [`${at}: not a schema object`];
  const breaks: string[] = [];
  for (const key of ["prefixItems", "oneOf", "allOf", "not", "if", "patternProperties"]) {
    if (key in node) breaks.push(`${at}: uses ${key}`);
  }
  if (!["type", "anyOf", "enum", "const", "$ref"].some((k) => k in node)) {
    breaks.push(`${at}: accepts anything`);
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes("object") || "properties" in node) {
    const properties = isObject(node.properties) ? node.properties : {};
    if (node.additionalProperties !== false) breaks.push(`${at}: additionalProperties not false`);
    const required = [...((node.required as string[] | undefined) ?? [])].sort();
    if (JSON.stringify(required) !== JSON.stringify(Object.keys(properties).sort())) {
      breaks.push(`${at}: not every property is required`);
    }
    for (const [k, v] of Object.entries(properties))
      breaks.push(...strictRuleBreaks(v, `${at}.${k}`));
  }
  if (node.items !== undefined) breaks.push(...strictRuleBreaks(node.items, `${at}[]`));
  if (Array.isArray(node.anyOf)) {
    for (const [i, s] of node.anyOf.entries()) breaks.push(...strictRuleBreaks(s, `${at}|${i}`));
  }
  return breaks;
}

/** An image as the host carried it: its MIME type and base64 bytes. */
interface Seen {
  mime: string;
  data: string;
}

interface Reply {
  text: string;
  /** The images beside the text, read back out of the host's own content types. */
  images: Seen[];
  /** undefined where the wire has no error flag (OpenAI). */
  isError: boolean | undefined;
}

/** One host as its model meets it: the tools it publishes, and calls as the model sends them. */
interface Host {
  schemas(): Promise<Map<string, { schema: Schema; strict: boolean }>>;
  call(name: string, args: unknown): Promise<Reply>;
}

interface Adapter {
  name: string;
  /** Strict OpenAI schemas: every field is required, absent ones are sent as null. */
  strict: boolean;
  /**
   * How a call to a tool the model was not given is answered: an error
   * result, a protocol error (MCP), or never (the AI SDK answers it itself).
   */
  unknownTool: "result" | "protocol" | "sdk";
  open(options: ToolkitOptions): Promise<Host>;
}

/** What a strict-mode model sends for a call: free-form fields as JSON text, absent ones as null. */
function strictArgs(tool: Tool, args: unknown): unknown {
  const { schema, paths } = withJsonText(toolJsonSchema(tool));
  return nullsForAbsent(schema, toJsonText(args, paths));
}

/** The arguments a strict-mode model would send: every optional field present, null when absent. */
function asSent(name: string, args: unknown, strict: boolean): unknown {
  const tool = fullTools.find((t) => t.name === name);
  return strict && tool ? strictArgs(tool, args) : args;
}

function openai(strict: boolean, api: "responses" | "chat"): Adapter {
  return {
    name: `openai ${api}${strict ? " strict" : ""}`,
    strict,
    unknownTool: "result",
    open: async (options) => {
      const kit = createToolkit(options);
      return {
        schemas: async () =>
          new Map(
            api === "responses"
              ? openaiResponsesTools(kit, { strict }).map((t) => [
                  t.name,
                  { schema: t.parameters, strict: t.strict },
                ])
              : openaiChatTools(kit, { strict }).map((t) => [
                  t.function.name,
                  { schema: t.function.parameters, strict: t.function.strict },
                ]),
          ),
        call: async (name, args) => {
          const text = JSON.stringify(asSent(name, args, strict));
          if (api === "responses") {
            const out = await dispatchOpenAIResponses(kit, {
              call_id: "call_1",
              name,
              arguments: text,
            });
            expect(out).toMatchObject({ type: "function_call_output", call_id: "call_1" });
            if (typeof out.output === "string") {
              return { text: out.output, images: [], isError: undefined };
            }
            const [first, ...rest] = out.output;
            expect(first).toMatchObject({ type: "input_text" });
            const images = rest.map((part) => {
              expect(part).toMatchObject({ type: "input_image", detail: "auto" });
              const url = (part as { image_url: string }).image_url;
              const m = /^data:([^;]+);base64,(.*)$/.exec(url)!;
              return { mime: m[1]!, data: m[2]! };
            });
            return { text: (first as { text: string }).text, images, isError: undefined };
          }
          const message = await dispatchOpenAIChat(kit, {
            id: "call_2",
            function: { name, arguments: text },
          });
          expect(message).toMatchObject({ role: "tool", tool_call_id: "call_2" });
          // A Chat tool message is text only: an image is named in a notice, not sent.
          return { text: message.content, images: [], isError: undefined };
        },
      };
    },
  };
}

/**
 * Gemini, by dialect. The OpenAPI one has no unknown-field check of its own
 * (`additionalProperties` is not in it), so its schemas are checked here as
 * the JSON Schema they came from; its model sends free-form fields as JSON text.
 */
function gemini(dialect: GeminiDialect): Adapter {
  return {
    name: `gemini ${dialect}`,
    strict: false,
    unknownTool: "result",
    open: async (options) => {
      const kit = createToolkit(options);
      return {
        schemas: async () =>
          new Map(
            geminiFunctionDeclarations(kit, { dialect }).map((d) => [
              d.name!,
              {
                schema:
                  dialect === "openapi"
                    ? toolJsonSchema(kit.find(d.name!))
                    : (d.parametersJsonSchema as Schema),
                strict: false,
              },
            ]),
          ),
        call: async (name, args) => {
          const tool = fullTools.find((t) => t.name === name);
          const sent =
            dialect === "openapi" && tool
              ? toJsonText(args, withJsonText(toolJsonSchema(tool)).paths)
              : args;
          const part = await dispatchGemini(kit, {
            id: "g1",
            name,
            args: sent as Record<string, unknown>,
          });
          const response = part.functionResponse!;
          expect(response).toMatchObject({ id: "g1", name });
          const isError = "error" in response.response!;
          const images = (response.parts ?? []).map((part) => ({
            mime: part.inlineData!.mimeType!,
            data: part.inlineData!.data!,
          }));
          const text = String(response.response![isError ? "error" : "output"]);
          return { text, images, isError };
        },
      };
    },
  };
}

/** Closed after each test: MCP clients, then their servers. */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const adapters: Adapter[] = [
  {
    name: "anthropic",
    strict: false,
    unknownTool: "result",
    open: async (options) => {
      const kit = createToolkit(options);
      return {
        schemas: async () =>
          new Map(
            anthropicTools(kit).map((t) => [
              t.name,
              { schema: t.input_schema as Schema, strict: false },
            ]),
          ),
        call: async (name, input) => {
          const block = await dispatchAnthropic(kit, { id: "toolu_1", name, input });
          expect(block).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
          const isError = block.is_error === true;
          if (typeof block.content === "string")
            return { text: block.content, images: [], isError };
          const [first, ...rest] = block.content!;
          expect(first).toMatchObject({ type: "text" });
          const images = rest.map((b) => {
            expect(b).toMatchObject({ type: "image", source: { type: "base64" } });
            const source = (b as { source: { media_type: string; data: string } }).source;
            return { mime: source.media_type, data: source.data };
          });
          return { text: (first as { text: string }).text, images, isError };
        },
      };
    },
  },
  openai(true, "responses"),
  openai(false, "responses"),
  openai(true, "chat"),
  gemini("json_schema"),
  gemini("openapi"),
  {
    name: "ai-sdk",
    strict: false,
    unknownTool: "sdk",
    open: async (options) => {
      const tools = aiSdkTools(createToolkit(options));
      return {
        schemas: async () =>
          new Map(
            Object.entries(tools).map(([name, t]) => [
              name,
              { schema: (t.inputSchema as { jsonSchema: Schema }).jsonSchema, strict: false },
            ]),
          ),
        call: async (name, input) => {
          const t = tools[name]!;
          let output: Awaited<ReturnType<NonNullable<typeof t.execute>>>;
          try {
            output = await t.execute!(input, { toolCallId: "c1", messages: [] });
          } catch (error) {
            return { text: (error as Error).message, images: [], isError: true };
          }
          // What the SDK sends the model: the tool's own toModelOutput of what execute returned.
          const sent = await t.toModelOutput!({ toolCallId: "c1", input, output: output as never });
          if (sent.type === "text") return { text: sent.value, images: [], isError: false };
          expect(sent.type).toBe("content");
          const parts = (
            sent as { value: { type: string; text?: string; data?: string; mediaType?: string }[] }
          ).value;
          expect(parts[0]).toMatchObject({ type: "text" });
          const images = parts.slice(1).map((part) => {
            expect(part.type).toBe("image-data");
            return { mime: part.mediaType!, data: part.data! };
          });
          return { text: parts[0]!.text!, images, isError: false };
        },
      };
    },
  },
  {
    name: "mcp",
    strict: false,
    unknownTool: "protocol",
    // The real SDK client, linked in memory to the server: one connection, one history session.
    open: async (options) => {
      const { server } = createMcpServer(options);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: "splice-test", version: "1.0.0" });
      await server.connect(serverSide);
      await client.connect(clientSide);
      cleanups.push(
        () => server.close(),
        () => client.close(),
      );
      return {
        schemas: async () =>
          new Map(
            (await client.listTools()).tools.map((t) => [
              t.name,
              { schema: t.inputSchema as Schema, strict: false },
            ]),
          ),
        call: async (name, args) => {
          const result = (await client.callTool({
            name,
            arguments: args as Record<string, unknown>,
          })) as CallToolResult;
          // The result as the SDK's client checks it: a valid CallToolResult.
          expect(CallToolResultSchema.safeParse(result).success).toBe(true);
          const [first, ...rest] = result.content;
          expect(first).toMatchObject({ type: "text" });
          const images = rest.map((c) => {
            expect(c).toMatchObject({ type: "image" });
            const image = c as { mimeType: string; data: string };
            return { mime: image.mimeType, data: image.data };
          });
          return {
            text: (first as { text: string }).text,
            images,
            isError: result.isError === true,
          };
        },
      };
    },
  },
];

const ajv = new Ajv2020({ allowUnionTypes: true });

function expectError(reply: Reply, text: string | RegExp) {
  if (typeof text === "string") expect(reply.text).toBe(text);
  else expect(reply.text).toMatch(text);
  if (reply.isError !== undefined) expect(reply.isError).toBe(true);
}

function expectOk(reply: Reply, text: string) {
  expect(reply.text).toBe(text);
  if (reply.isError !== undefined) expect(reply.isError).toBe(false);
}

const tagOf = (text: string) => /^¶[^#\n]+#([0-9A-F]{4})$/m.exec(text)![1]!;

/**
 * A reply with what differs from run to run named instead: times, backup
 * session ids, history sessions (`lib-…` in a toolkit, `mcp-…` per MCP
 * connection) and how long a command took. Everything else stays exact.
 */
function steady(reply: Reply): Reply {
  const text = reply.text
    .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\b/g, "<time>")
    .replace(/\b\d{8}-\d{6}-[0-9a-f]{6}\b/g, "<backup-session>")
    .replace(
      /\b(?:lib|mcp)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g,
      "<session>",
    )
    .replace(/^\[exit (\d+) after \d+\.\d s\]$/gm, "[exit $1 after <seconds> s]");
  return { ...reply, text };
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** The fixed project every exact expectation below is written against. */
function fixedProject(): Project {
  const p = new Project();
  p.write("src/a.txt", "one\ntwo\nthree\n");
  p.write("src/main.ts", "function main() {\n  const answer = 41;\n  console.log(answer);\n}\n");
  p.write(
    "src/config.ts",
    'export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\nparseConfig("{}");\n',
  );
  p.write("src/old-name.ts", "export const x = 1;\n");
  p.write("config.json", '{\n  "scripts": {\n    "build": "tsc"\n  }\n}\n');
  p.write("README.md", "# Demo\n\n## Install\n\nClone it.\n\n## Use\n\nRun it.\n");
  p.write("messy.txt", "trailing   \nno final newline");
  return p;
}

describe.each(adapters)("the $name adapter", (adapter) => {
  /** Every tool a test below called: the last test checks none was left out. */
  const called = new Set<string>();

  async function open(options: Partial<ToolkitOptions> = {}) {
    const p = fixedProject();
    const host = await adapter.open({ root: p.root, ...options });
    const call = (name: string, args: unknown) => {
      called.add(name);
      return host.call(name, args);
    };
    return { p, host, call };
  }

  it("publishes every tool with a schema that compiles and accepts its example", async () => {
    const { host } = await open();
    const schemas = await host.schemas();
    expect([...schemas.keys()]).toEqual(fullTools.map((t) => t.name));
    for (const tool of fullTools) {
      const { schema, strict } = schemas.get(tool.name)!;
      expect(schema.type).toBe("object");
      expect(schema).not.toHaveProperty("$schema");
      const validate = ajv.compile(schema);
      const example = strict ? strictArgs(tool, tool.example) : tool.example;
      expect(validate(example), `${tool.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      // An unknown field passes the schema (other agents' spellings must reach parseArgs,
      // which refuses the rest with the real fields named); strict mode closes every object.
      expect(validate({ ...(example as object), surprise: 1 })).toBe(!strict);
      if (strict) expect(strictRuleBreaks(schema), tool.name).toEqual([]);
    }
    if (adapter.strict) {
      // Free-form JSON fields (doc's value, plan's step args) go as JSON text, so every tool is strict.
      const loose = [...schemas].filter(([, s]) => !s.strict).map(([name]) => name);
      expect(loose).toEqual([]);
    }
  });

  it("reads, edits, writes, rolls back and shows history, answering with what the model should read", async () => {
    const { p, call } = await open();
    const read = await call("read", { targets: [{ path: "src/a.txt" }, { path: "gone.txt" }] });
    const tag = tagOf(read.text);
    expectOk(
      read,
      `¶src/a.txt#${tag}\n1| one\n2| two\n3| three\n\n[gone.txt: not_found: gone.txt does not exist. Check the path, or create it with the write tool.]`,
    );
    const lines = await call("read", { targets: [{ path: "src/a.txt", line_range: [2, 3] }] });
    expectOk(lines, `¶src/a.txt#${tag}\n2| two\n3| three\n[showing lines 2..3 of 3]`);

    const edit = await call("edit", {
      targets: [{ path: "src/a.txt", file_hash: tag, ops: "replace 2:\n+TWO" }],
    });
    const edited = tagOf(edit.text);
    expectOk(edit, `¶src/a.txt#${edited}\n@@ -2 +2 @@\n2| TWO`);
    expect(p.text("src/a.txt")).toBe("one\nTWO\nthree\n");

    const write = await call("write", { targets: [{ path: "src/b.txt", text: "new\n" }] });
    expectOk(write, `¶src/b.txt#${tagOf(write.text)}\n@@ -0,0 +1 @@\n1| new`);

    const rollback = await call("rollback", { path: "src/a.txt", hash: "" });
    expectOk(rollback, `¶src/a.txt#${tag}\n@@ -2 +2 @@\n2| two`);
    expect(p.text("src/a.txt")).toBe("one\ntwo\nthree\n");

    // Both versions, newest event first: the rollback made one current and replaced the other.
    const version = { at: "<time>", kind: "rollback" };
    const made = { session: "<session>", size: 14, note: `rollback to ${tag}` };
    // What wrote each version: an MCP connection's session is named by its client.
    const client = adapter.name === "mcp" ? { client: "splice-test" } : {};
    const maker = (tool: string) => ({
      at: "<time>",
      session: "<session>",
      tool,
      ...client,
      backup_session: "<backup-session>",
    });
    expectOk(
      steady(await call("history", { path: "src/a.txt" })),
      pretty({
        path: "src/a.txt",
        current_hash: tag,
        versions: [
          {
            file_hash: tag,
            ...version,
            replaced: false,
            ...made,
            current: true,
            made_by: maker("rollback"),
          },
          {
            file_hash: edited,
            ...version,
            replaced: true,
            ...made,
            current: false,
            made_by: maker("edit"),
          },
        ],
      }),
    );
  });

  it("lists, searches and runs a command", async () => {
    const { call } = await open();
    expectOk(await call("list", { path: "src" }), "a.txt\nconfig.ts\nmain.ts\nold-name.ts");
    expectOk(await call("list", {}), "src/\nREADME.md\nconfig.json\nmessy.txt");
    expectOk(await call("search", { pattern: "three", path: "src" }), "src/a.txt:3: three");
    expectOk(
      steady(await call("run", { command: "echo splice-ran" })),
      "$ echo splice-ran\nsplice-ran\n\n[exit 0 after <seconds> s]",
    );
  });

  it("outlines a folder, one tagged header per file", async () => {
    const { call } = await open();
    expectOk(
      await call("outline", { path: "src" }),
      [
        "¶src/config.ts#9AA7",
        "1..3 function parseConfig(text: string)",
        "¶src/main.ts#FBF8",
        "1..4 function main()",
        "¶src/old-name.ts#B40D",
        "1 x = 1",
      ].join("\n"),
    );
  });

  it("applies a Codex patch", async () => {
    const { p, call } = await open();
    const patch =
      "*** Begin Patch\n*** Update File: src/main.ts\n@@ function main() {\n-  const answer = 41;\n+  const answer = 42;\n*** End Patch\n";
    expectOk(
      await call("patch", { patch }),
      ["¶src/main.ts#94A3", "@@ -2 +2 @@", "2|   const answer = 42;"].join("\n"),
    );
    expect(p.text("src/main.ts")).toContain("const answer = 42;");
  });

  it("renames a file", async () => {
    const { p, call } = await open();
    expectOk(
      await call("file", { action: "rename", path: "src/old-name.ts", to: "src/new-name.ts" }),
      [
        "¶src/new-name.ts#B40D",
        "diff --git a/src/old-name.ts b/src/new-name.ts",
        "rename from src/old-name.ts",
        "rename to src/new-name.ts",
      ].join("\n"),
    );
    expect(existsSync(join(p.root, "src/old-name.ts"))).toBe(false);
    expect(p.text("src/new-name.ts")).toBe("export const x = 1;\n");
  });

  it("gets and sets a JSON value, and appends to a Markdown section", async () => {
    const { p, call } = await open();
    expectOk(
      await call("doc", { action: "get", path: "config.json", selector: "scripts" }),
      '¶config.json#3528\nscripts = {\n  "build": "tsc"\n}',
    );
    expectOk(
      await call("doc", {
        action: "set",
        path: "config.json",
        selector: "scripts.test",
        value: "vitest run",
      }),
      [
        "¶config.json#296E",
        "@@ -3 +3,2 @@",
        '3|     "build": "tsc",',
        '4|     "test": "vitest run"',
      ].join("\n"),
    );
    expect(JSON.parse(p.text("config.json"))).toEqual({
      scripts: { build: "tsc", test: "vitest run" },
    });
    expectOk(
      await call("md", {
        action: "append_to_section",
        path: "README.md",
        heading: "Install",
        text: "Run `npm ci`.",
      }),
      ["¶README.md#B27E", "@@ -6,0 +7,2 @@", "7| Run `npm ci`.", "8| "].join("\n"),
    );
  });

  it("previews a syntax rewrite and a rename, writing nothing", async () => {
    const { p, call } = await open();
    expectOk(
      await call("ast_edit", {
        ops: [{ pat: "console.log($$$ARGS)", out: "logger.debug($$$ARGS)" }],
        paths: ["src"],
        mode: "preview",
      }),
      [
        'ast_edit (1 op): 1 match in 1 file, 3 files scanned; 1 file would change (preview: nothing written). Run again with mode "apply" to write.',
        "¶src/main.ts#A716",
        "--- a/src/main.ts",
        "+++ b/src/main.ts",
        "@@ -1,4 +1,4 @@",
        " function main() {",
        "   const answer = 41;",
        "-  console.log(answer);",
        "+  logger.debug(answer);",
        " }",
      ].join("\n"),
    );
    expectOk(
      await call("ast_rename", {
        name: "parseConfig",
        new_name: "loadConfig",
        paths: ["src"],
        mode: "preview",
      }),
      [
        'ast_rename (parseConfig -> loadConfig): 2 matches in 1 file, 3 files scanned; 1 file would change (preview: nothing written). Run again with mode "apply" to write.',
        "¶src/config.ts#8CC1",
        "--- a/src/config.ts",
        "+++ b/src/config.ts",
        "@@ -1,4 +1,4 @@",
        "-export function parseConfig(text: string) {",
        "+export function loadConfig(text: string) {",
        "   return JSON.parse(text);",
        " }",
        '-parseConfig("{}");',
        '+loadConfig("{}");',
      ].join("\n"),
    );
    expect(p.text("src/main.ts")).toContain("console.log(answer);");
    expect(p.text("src/config.ts")).toContain("parseConfig");
  });

  it("tidies a file, then finds it tidy", async () => {
    const { p, call } = await open();
    expectOk(
      await call("tidy", { paths: ["messy.txt"] }),
      [
        "tidy: 1 of 1 file tidied:",
        "messy.txt: trailing whitespace removed (1 line); final line break added",
        "--- a/messy.txt",
        "+++ b/messy.txt",
        "@@ -1,2 +1,2 @@",
        "-trailing   ",
        "+trailing",
        "-no final newline",
        "\\ No newline at end of file",
        "+no final newline",
      ].join("\n"),
    );
    expect(p.text("messy.txt")).toBe("trailing\nno final newline\n");
    expectOk(
      await call("tidy", { paths: ["messy.txt"], mode: "check" }),
      "tidy: 1 file checked, all tidy.",
    );
  });

  it("previews a plan on an overlay: the combined diff, nothing written", async () => {
    const { p, call } = await open();
    const steps = [
      {
        tool: "edit",
        args: { targets: [{ path: "src/a.txt", edits: [{ old_text: "two", new_text: "2" }] }] },
      },
      { tool: "file", args: { action: "rename", path: "src/old-name.ts", to: "src/renamed.ts" } },
    ];
    expectOk(
      await call("plan", { steps, mode: "preview" }),
      [
        "plan (strict): 2 steps previewed (nothing was written)",
        "1. edit src/a.txt: applied (src/a.txt)",
        "2. rename src/old-name.ts to src/renamed.ts: applied (src/renamed.ts, src/old-name.ts)",
        "--- a/src/a.txt",
        "+++ b/src/a.txt",
        "@@ -1,3 +1,3 @@",
        " one",
        "-two",
        "+2",
        " three",
        "--- a/src/renamed.ts",
        "+++ b/src/renamed.ts",
        "@@ -0,0 +1,1 @@",
        "+export const x = 1;",
        "--- a/src/old-name.ts",
        "+++ b/src/old-name.ts",
        "@@ -1,1 +0,0 @@",
        "-export const x = 1;",
      ].join("\n"),
    );
    expect(p.text("src/a.txt")).toBe("one\ntwo\nthree\n");
    expect(existsSync(join(p.root, "src/renamed.ts"))).toBe(false);
  });

  it("lists backup sessions and undoes the newest", async () => {
    const { p, call } = await open();
    const before = p.text("README.md");
    await call("md", {
      action: "append_to_section",
      path: "README.md",
      heading: "Install",
      text: "Run `npm ci`.",
    });
    expect(p.text("README.md")).toContain("Run `npm ci`.");
    const listed = await call("undo", { list: true, limit: 1 });
    const session = /^backup_session (\S+);/.exec(listed.text)![1]!;
    const readme = (sign: "+" | "-", range: string) =>
      `--- a/README.md\n+++ b/README.md\n@@ ${range} @@\n \n Clone it.\n \n${sign}Run \`npm ci\`.\n${sign}\n ## Use\n \n Run it.`;
    expectOk(
      steady(listed),
      `backup_session <backup-session>; at <time>; session <session>\nmodified README.md\n${readme("+", "-4,6 +4,8")}`,
    );

    const undo = await call("undo", {});
    // The session undone is the one listed; the undo is a backup session of its own.
    const [, undone, redo] = /^Undid (\S+); undo \{"backup_session": "([^"]+)"\}/.exec(undo.text)!;
    expect(undone).toBe(session);
    expect(redo).not.toBe(session);
    expectOk(
      steady(undo),
      [
        'Undid <backup-session>; undo {"backup_session": "<backup-session>"} redoes it.',
        "¶README.md#B741",
        "@@ -7,2 +6,0 @@",
      ].join("\n"),
    );
    expect(p.text("README.md")).toBe(before);
  });

  it("takes a checkpoint, lists what changed since and previews putting it back", async () => {
    const { p, call } = await open();
    expectOk(
      await call("checkpoint", { action: "create", name: "pre" }),
      'Checkpoint pre taken: 7 files noted. Call checkpoint with {"action": "diff", "name": "pre"} to see what changed since.',
    );
    p.write("src/a.txt", "one\n2\nthree\n");
    rmSync(join(p.root, "messy.txt"));
    expectOk(
      steady(await call("checkpoint", { action: "diff", name: "pre" })),
      [
        "Since checkpoint pre (<time>): 2 files changed (0 created, 1 changed, 1 deleted).",
        "deleted messy.txt (+0 -2)",
        "changed src/a.txt (+1 -1)",
      ].join("\n"),
    );
    expectOk(
      await call("checkpoint", { action: "restore", name: "pre" }),
      [
        'Restoring checkpoint pre would write what follows (nothing was written). Call checkpoint with {"action": "restore", "name": "pre", "apply": true} to write it.',
        "¶messy.txt#69D5",
        "@@ -0,0 +1,2 @@",
        "1| trailing   ",
        "2| no final newline",
        "[the final newline changed]",
        "¶src/a.txt#B628",
        "@@ -2 +2 @@",
        "2| two",
      ].join("\n"),
    );
    expect(p.text("src/a.txt")).toBe("one\n2\nthree\n");
  });

  it("reports the language servers' health", async () => {
    const { call } = await open();
    // Only TypeScript: its server (tsgo) comes with the project; others depend on the machine.
    expectOk(
      await call("lsp_health", { language: "typescript" }),
      "Edit validation is on by default.\ntypescript: tsgo not started; starts on the first edit it validates",
    );
  });

  it("gives a tool's full manual through help, and names the tools there are when asked for another", async () => {
    const { call } = await open({ tools: "coding" });
    const edit = fullTools.find((t) => t.name === "edit")!;
    expectOk(await call("help", { tool: "edit" }), edit.manual);
    // A tool of another set is not one this session can call: a result, not a protocol error.
    expectError(
      await call("help", { tool: "doc" }),
      'not_found: There is no tool named "doc" here. Ask about one of: read, outline, search, list, edit, patch, write, run, undo, help.',
    );
  });

  it("answers malformed calls with a sentence for the model", async () => {
    const { host } = await open();
    const example = JSON.stringify(fullTools.find((t) => t.name === "read")!.example);
    const unknown = `There is no tool named "nope". The tools are: ${fullTools.map((t) => t.name).join(", ")}.`;
    if (adapter.unknownTool === "result") {
      expectError(await host.call("nope", {}), `unknown_tool: ${unknown}`);
    }
    if (adapter.unknownTool === "protocol") {
      await expect(host.call("nope", {})).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
        message: `MCP error -32602: ${unknown}`,
      });
    }
    expectError(
      await host.call("read", {}),
      `invalid_input: Invalid arguments for read: no file named; send "path" and the fields that go with it, or "targets": [...] with one object like that per file. A valid call looks like: ${example}`,
    );
    expectError(
      await host.call("read", { targets: "src/a.txt" }),
      `invalid_input: Invalid arguments for read: targets: Invalid input: expected array, received string. A valid call looks like: ${example}`,
    );
    expectError(
      await host.call("history", { path: "a.txt", depth: 2 }),
      /^invalid_input: Invalid arguments for history: the arguments has unknown field\(s\) "depth" \(its fields are "path", "before", "all_sessions"\)\./,
    );
  });

  it("takes arguments as real clients send them: injected fields, other spellings, digits", async () => {
    const { host } = await open();
    // Gemini CLI adds wait_for_previous to every call; Claude Code's edit says old_string.
    expectOk(
      await host.call("list", { path: "src", wait_for_previous: true }),
      "a.txt\nconfig.ts\nmain.ts\nold-name.ts",
    );
    expectOk(
      await host.call("search", { pattern: "three", dir_path: "src", ignoreCase: true }),
      "src/a.txt:3: three",
    );
    expectError(
      await host.call("list", { path: "src", dir_path: "src" }),
      /^invalid_input: Invalid arguments for list: the arguments has both "dir_path" and "path", two spellings of one field; send only "path"\./,
    );
    const read = await host.call("read", {
      targets: [{ path: "src/a.txt", line_range: ["2", "3"] }],
    });
    expect(read.text).toMatch(/^¶src\/a\.txt#[0-9A-F]{4}\n2\| two\n3\| three/);
  });

  it("turns a failure inside a tool into an error result with its code", async () => {
    const { host } = await open();
    expectError(
      await host.call("rollback", { path: "none.txt", hash: "" }),
      'not_found: splice has no earlier version of none.txt to go back to. Call history with {"path": "none.txt"} to see what it knows.',
    );
  });

  it("reports an unexpected fault in one line, without a stack trace", async () => {
    const p = new Project();
    p.write("a.txt", "x\n");
    class FailingDisk extends LocalWorkspace {
      override async readFile(): Promise<Uint8Array> {
        throw new Error("EIO: i/o error, read\n    at readFile (node:fs:1:1)");
      }
    }
    const host = await adapter.open({
      root: p.root,
      workspace: new FailingDisk({ confineTo: p.root }),
    });
    const reply = await host.call("read", { targets: [{ path: "a.txt" }] });
    expectError(
      reply,
      "internal: the read tool failed unexpectedly (Error: EIO: i/o error, read). This is not a problem with your arguments; tell the user if it keeps happening.",
    );
  });

  it("shows an image file as the host's own image content beside its summary line", async () => {
    const { p, call } = await open();
    const png = await sharp({
      create: { width: 64, height: 40, channels: 3, background: "#3366cc" },
    })
      .png()
      .toBuffer();
    p.write("shot.png", png);
    const reply = await call("read", { targets: [{ path: "shot.png" }] });
    expect(reply.isError === true).toBe(false);
    const tag = reply.text.slice("¶shot.png#".length, "¶shot.png#".length + 4);
    const summary = `¶shot.png#${tag} image/png 64×40, ${png.length} bytes`;
    if (adapter.name === "openai chat strict") {
      expect(reply.text).toBe(
        `${summary}\n[1 image(s) not shown: a Chat Completions tool message carries text only; the Responses API shows them]`,
      );
      expect(reply.images).toEqual([]);
      return;
    }
    expect(reply.text).toBe(summary);
    expect(reply.images).toEqual([{ mime: "image/png", data: png.toString("base64") }]);
  });

  it("shows a PDF page with no text layer as the host's own image content", async () => {
    const { p, call } = await open();
    p.write("scan.pdf", await scannedPdf(["#3366cc"]));
    const reply = await call("read", { targets: [{ path: "scan.pdf" }] });
    expect(reply.isError === true).toBe(false);
    const lines = reply.text.split("\n");
    expect(lines.slice(1, 3)).toEqual([
      "[page 1 of 1]",
      "[no text layer: drawn as image 1 of this read, 1212×1568]",
    ]);
    expect(reply.text).toContain(
      "no text layer: page 1 holds no text (a scanned or image-only PDF); page 1 shown as image 1 of this read",
    );
    if (adapter.name === "openai chat strict") {
      expect(lines.at(-1)).toBe(
        "[1 image(s) not shown: a Chat Completions tool message carries text only; the Responses API shows them]",
      );
      expect(reply.images).toEqual([]);
      return;
    }
    expect(reply.images.map((i) => i.mime)).toEqual(["image/jpeg"]);
    const meta = await sharp(Buffer.from(reply.images[0]!.data, "base64")).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1212, 1568]);
  });

  it("reads a notebook's cells and changes one cell's source", async () => {
    const { p, call } = await open();
    const nb = {
      cells: [
        {
          cell_type: "code",
          execution_count: null,
          id: "c1",
          metadata: {},
          outputs: [],
          source: ["x = 1"],
        },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    };
    p.write("nb.ipynb", `${JSON.stringify(nb, null, 1)}\n`);
    const read = await call("read", { targets: [{ path: "nb.ipynb" }] });
    const tag = read.text.slice("¶nb.ipynb#".length, "¶nb.ipynb#".length + 4);
    expectOk(read, `¶nb.ipynb#${tag} notebook, 1 cell\n[cell 1 · code · id c1]\n1| x = 1`);
    const edited = await call("notebook", {
      action: "replace_source",
      path: "nb.ipynb",
      cell: "c1",
      source: "x = 2",
    });
    const after = edited.text.slice("¶nb.ipynb#".length, "¶nb.ipynb#".length + 4);
    expectOk(edited, `¶nb.ipynb#${after}\n@@ -10 +10 @@\n10|     "x = 2"`);
  });

  it("gave every tool an exact expectation above", () => {
    // A new tool fails here until a test above says what the model reads from it.
    expect([...called].sort()).toEqual(fullTools.map((t) => t.name).sort());
  });
});
