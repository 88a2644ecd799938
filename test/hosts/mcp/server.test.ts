/**
 * splice's MCP server driven by the real MCP SDK client, one suite for both
 * transports: stdio (the built CLI as a child process) and Streamable HTTP
 * (in-process, on a free port). Asserts what the model sees.
 */

import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type Root,
} from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it } from "vitest";
import { serveHttp } from "../../../src/hosts/mcp/http.js";
import { RESULT_META_KEY } from "../../../src/hosts/mcp/result.js";
import { codingTools, fullTools, minimalTools } from "../../../src/toolkit/index.js";
import { readTool } from "../../../src/tools/read/index.js";
import { alive, sleep } from "../../helpers/processes.js";
import { numbered, Project } from "../../helpers/project.js";

const BIN = fileURLToPath(new URL("../../../bin/splice", import.meta.url));

interface Launch {
  /** A new MCP connection (a new session) to the same server. */
  connect(roots?: Root[]): Promise<Client>;
}

interface Harness {
  name: string;
  launch(root: string, args?: string[]): Promise<Launch>;
}

/** Closed after each test: clients first, then servers. */
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function connectClient(transport: Transport, roots?: Root[]): Promise<Client> {
  const client = new Client(
    { name: "splice-test", version: "1.0.0" },
    roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

const stdio: Harness = {
  name: "stdio",
  launch: async (root, args = []) => ({
    connect: (roots) =>
      connectClient(
        new StdioClientTransport({
          command: process.execPath,
          args: [BIN, "serve", "--root", root, ...args],
          stderr: "pipe",
        }),
        roots,
      ),
  }),
};

const http: Harness = {
  name: "http",
  launch: async (root, args = []) => {
    // The flags splice serve takes, as options.
    const flag = (name: string) => args[args.indexOf(name) + 1] as never;
    const server = await serveHttp({
      root,
      port: 0,
      ...(args.includes("--tools") ? { tools: flag("--tools") } : {}),
      ...(args.includes("--descriptions") ? { descriptions: flag("--descriptions") } : {}),
      structured: args.includes("--structured"),
      ...(args.includes("--roots-within") ? { rootsWithin: flag("--roots-within") } : {}),
    });
    cleanups.push(() => server.close());
    return {
      connect: (roots) =>
        connectClient(new StreamableHTTPClientTransport(new URL(server.url)), roots),
    };
  },
};

const text = (result: unknown) => {
  const { content } = result as CallToolResult;
  expect(content).toHaveLength(1);
  return (content[0] as { text: string }).text;
};

async function call(client: Client, name: string, args: unknown): Promise<CallToolResult> {
  return (await client.callTool({
    name,
    arguments: args as Record<string, unknown>,
  })) as CallToolResult;
}

/** The result's JSON, which travels under _meta unless the server runs with --structured. */
function json<T>(result: CallToolResult): T {
  return result._meta?.[RESULT_META_KEY] as T;
}

/**
 * What a client hands its model for a result, as their published source and
 * issue threads describe it: Claude Code (anthropics/claude-code#79944) and
 * Codex (codex-rs protocol `as_function_call_output_payload`) send
 * `JSON.stringify(structuredContent)` whenever it is present and the text
 * blocks otherwise; Gemini CLI sends the text blocks.
 */
function seenByModel(result: CallToolResult, client: "claude-code" | "codex" | "gemini"): string {
  const texts = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  if (client === "gemini" || result.structuredContent === undefined) return texts;
  return JSON.stringify(result.structuredContent);
}

async function readTag(client: Client, path: string): Promise<string> {
  const result = await call(client, "read", { targets: [{ path }] });
  expect(result.isError).toBeFalsy();
  const [first] = json<{ results: { file_hash: string }[] }>(result).results;
  return first!.file_hash;
}

describe.each([stdio, http])("MCP server over $name", (harness) => {
  it("lists every tool with its schema, title and annotations", async () => {
    const project = new Project();
    const client = await (await harness.launch(project.root)).connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(fullTools.map((t) => t.name));
    const ajv = new Ajv2020({ allowUnionTypes: true });
    for (const tool of tools) {
      const source = fullTools.find((t) => t.name === tool.name)!;
      expect(tool.description).toBe(source.description);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema).not.toHaveProperty("$schema");
      // Open: an unknown field or another agent's spelling reaches parseArgs, which answers it.
      expect(tool.inputSchema).not.toHaveProperty("additionalProperties");
      // A valid schema that accepts the tool's own example call.
      expect(ajv.validate(tool.inputSchema, source.example), ajv.errorsText()).toBe(true);
      expect(tool.title).toMatch(/^[A-Z]/);
      expect(tool.annotations).toEqual({ title: tool.title, ...source.annotations });
    }
  });

  it("reads with hashline text and the JSON result, then edits with the tag", async () => {
    const project = new Project();
    project.write("a.txt", "one\ntwo\nthree\n");
    const client = await (await harness.launch(project.root)).connect();

    const read = await call(client, "read", { targets: [{ path: "a.txt" }] });
    const tag = json<{ results: { file_hash: string }[] }>(read).results[0]!.file_hash;
    expect(read.isError).toBeFalsy();
    expect(text(read)).toBe(`¶a.txt#${tag}\n1| one\n2| two\n3| three`);

    const edit = await call(client, "edit", {
      targets: [{ path: "a.txt", file_hash: tag, ops: "replace 2:\n+TWO" }],
    });
    expect(edit.isError).toBeFalsy();
    const [result] = json<{ results: { header: string; diff: string }[] }>(edit).results;
    // The model reads the changed lines; code gets the whole diff.
    expect(text(edit)).toBe(`${result!.header}\n@@ -2 +2 @@\n2| TWO`);
    expect(result!.diff).toContain("-two\n+TWO");
    expect(project.text("a.txt")).toBe("one\nTWO\nthree\n");
  });

  it("shows the model splice's text in Claude Code, Codex and Gemini CLI", async () => {
    const project = new Project();
    project.write("a.txt", 'say "hi"\n');
    const client = await (await harness.launch(project.root)).connect();
    const read = await call(client, "read", { targets: [{ path: "a.txt" }] });
    const tag = json<{ results: { file_hash: string }[] }>(read).results[0]!.file_hash;
    const refused = await call(client, "write", { targets: [{ path: "../x", text: "x\n" }] });
    for (const model of ["claude-code", "codex", "gemini"] as const) {
      expect(seenByModel(read, model)).toBe(`¶a.txt#${tag}\n1| say "hi"`);
      expect(seenByModel(refused, model)).toMatch(/^guard: Path '\.\.\/x' resolves outside/);
    }
    expect(read.structuredContent).toBeUndefined();
    expect(json(read)).toMatchObject({ results: [{ path: "a.txt", file_hash: tag }] });
  });

  it("sends structuredContent with --structured, for clients that are programs", async () => {
    const project = new Project();
    project.write("a.txt", "one\n");
    const client = await (await harness.launch(project.root, ["--structured"])).connect();
    const read = await call(client, "read", { targets: [{ path: "a.txt" }] });
    expect(read.structuredContent).toMatchObject({ results: [{ path: "a.txt" }] });
    expect(read._meta?.[RESULT_META_KEY]).toBeUndefined();
    expect(text(read)).toMatch(/^¶a\.txt#[0-9A-F]{4}\n1\| one$/);
    // The price: Claude Code and Codex now show the model the JSON, not the text.
    expect(seenByModel(read, "claude-code")).toBe(JSON.stringify(read.structuredContent));
  });

  it("takes a call without arguments as {}", async () => {
    const project = new Project();
    project.write("a.txt", "one\n");
    const client = await (await harness.launch(project.root)).connect();
    const bare = (name: string) =>
      client.request({ method: "tools/call", params: { name } }, CallToolResultSchema);
    const list = await bare("list");
    expect(list.isError).toBeFalsy();
    expect(text(list)).toContain("a.txt");
    const read = await bare("read");
    expect(read.isError).toBe(true);
    expect(text(read)).toMatch(/^invalid_input: Invalid arguments for read: no file named; /);
  });

  it("tells the client how to use splice, with whole titles", async () => {
    const project = new Project();
    const client = await (await harness.launch(project.root)).connect();
    const instructions = client.getInstructions() ?? "";
    expect(instructions).toContain("Read a file before you change it");
    expect(instructions).toContain('"file_hash": TAG');
    expect(instructions).toContain("undo with {}");
    const { tools } = await client.listTools();
    const title = (name: string) => tools.find((t) => t.name === name)?.title;
    expect(title("file")).toBe("Create a file, add lines to its end or start, rename or delete it");
    expect(title("read")).toBe("Read files with line numbers");
    const minimal = await (await harness.launch(project.root, ["--tools", "minimal"])).connect();
    expect(minimal.getInstructions()).not.toContain("undo");
  });

  it("sends a run's output as progress while it runs, when the client asks", async () => {
    const project = new Project();
    const client = await (await harness.launch(project.root)).connect();
    const seen: { progress: number; message?: string; at: number }[] = [];
    const started = Date.now();
    const result = (await client.callTool(
      { name: "run", arguments: { command: "for i in 1 2 3; do echo line $i; sleep 0.3; done" } },
      undefined,
      { onprogress: (p) => seen.push({ ...p, at: Date.now() - started }) },
    )) as CallToolResult;
    const finished = Date.now() - started;
    expect(text(result)).toContain("line 3");
    expect(seen.length).toBeGreaterThanOrEqual(3);
    // Each line arrives while the command still runs, not with the result.
    expect(seen[0]!.at).toBeLessThan(finished - 400);
    expect(seen.map((p) => p.message).join("")).toBe("line 1\nline 2\nline 3\n");
    const values = seen.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
  });

  it("reports a folder outline's files as progress, and nothing without a token", async () => {
    const project = new Project();
    for (let i = 0; i < 5; i++) project.write(`src/f${i}.ts`, `export function f${i}() {}\n`);
    const client = await (await harness.launch(project.root)).connect();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    await client.callTool({ name: "outline", arguments: { path: "src" } }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.at(-1)).toEqual({ progress: 5, total: 5, message: "outlining 5/5" });
    const notified: unknown[] = [];
    client.fallbackNotificationHandler = async (n) => {
      notified.push(n);
    };
    await client.callTool({ name: "outline", arguments: { path: "src" } });
    expect(notified).toEqual([]);
  });

  it("logs to the client what it logs to stderr, at the level the client sets", async () => {
    const project = new Project();
    const roots: Root[] = [
      { uri: "file://build-server/src" },
      { uri: pathToFileURL(project.root).href },
    ];
    const client = await (await harness.launch(project.root)).connect(roots);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    const messages: { level: string; data: unknown }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      messages.push({ level: n.params.level, data: n.params.data });
    });
    await call(client, "list", {});
    expect(messages).toContainEqual({
      level: "warning",
      data: "ignoring the client's root file://build-server/src: it is not a local file:// URL",
    });
    expect(messages).toContainEqual({
      level: "info",
      data: `roots: ${realpathSync(project.root)}`,
    });

    messages.length = 0;
    await client.setLoggingLevel("error");
    await client.sendRootsListChanged();
    await call(client, "list", {});
    expect(messages).toEqual([]);
  });

  it("answers a guard refusal with an isError result that says what to do", async () => {
    const project = new Project();
    const client = await (await harness.launch(project.root)).connect();
    const result = await call(client, "write", { targets: [{ path: "../x", text: "hi\n" }] });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^guard: Path '\.\.\/x' resolves outside the project root /);
    expect(text(result)).toContain("Use a path inside it");
    expect(json(result)).toMatchObject({ error: { code: "guard", reason: "outside_root" } });
    expect(result.structuredContent).toBeUndefined();
  });

  it("answers bad arguments with an isError result showing a valid call", async () => {
    const project = new Project();
    const client = await (await harness.launch(project.root)).connect();
    const result = await call(client, "read", { targets: "a.txt" });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^invalid_input: Invalid arguments for read: targets: /);
    expect(text(result)).toContain('A valid call looks like: {"path":');
  });

  it("takes arguments sent as JSON text, and answers other non-objects with a sentence", async () => {
    const project = new Project();
    project.write("a.txt", "one\n");
    const client = await (await harness.launch(project.root)).connect();
    const raw = (args: unknown) =>
      client.request(
        {
          method: "tools/call",
          params: { name: "read", arguments: args as Record<string, unknown> },
        },
        CallToolResultSchema,
      );
    const encoded = await raw(JSON.stringify({ targets: [{ path: "a.txt" }] }));
    expect(encoded.isError).toBeFalsy();
    expect(text(encoded)).toMatch(/^¶a\.txt#[0-9A-F]{4}\n1\| one$/);
    for (const [args, kind] of [
      [null, "null"],
      [[1], "an array"],
      ["7", "a number"],
    ] as const) {
      const result = await raw(args);
      expect(result.isError).toBe(true);
      expect(text(result)).toBe(
        `invalid_input: The arguments for read must be a JSON object, not ${kind}. Send one JSON object, e.g. ${JSON.stringify(readTool.example)}`,
      );
    }
    const garbled = await raw("{targets: a.txt}");
    expect(text(garbled)).toMatch(/^invalid_input: The arguments for read are not valid JSON \(/);
  });

  it("answers an unknown tool with a protocol error naming the real tools", async () => {
    const project = new Project();
    const client = await (await harness.launch(project.root)).connect();
    const error = await call(client, "delete_everything", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toMatch(
      /^MCP error -32602: There is no tool named "delete_everything"/,
    );
    expect((error as McpError).message).toContain(fullTools.map((t) => t.name).join(", "));
  });

  it("stops a run's process group when the client cancels the call", async () => {
    const project = new Project();
    const client = await (await harness.launch(project.root)).connect();
    const controller = new AbortController();
    const pending = client
      .callTool(
        { name: "run", arguments: { command: "sleep 60 & echo $! > sleeper.pid; wait" } },
        undefined,
        { signal: controller.signal },
      )
      .catch((e: unknown) => e);
    const pidFile = join(project.root, "sleeper.pid");
    while (!existsSync(pidFile) || project.text("sleeper.pid") === "") await sleep(50);
    const pid = Number(project.text("sleeper.pid"));
    controller.abort("stop");
    expect(await pending).toBeInstanceOf(McpError);
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await sleep(50);
    expect(alive(pid)).toBe(false);
  });

  it("runs 20 read-then-edit chains on different files side by side", async () => {
    const project = new Project();
    for (let i = 0; i < 20; i++) project.write(`f${i}.txt`, numbered(5));
    const client = await (await harness.launch(project.root)).connect();
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const tag = await readTag(client, `f${i}.txt`);
        return call(client, "edit", {
          targets: [{ path: `f${i}.txt`, file_hash: tag, ops: `replace 3:\n+file ${i}` }],
        });
      }),
    );
    expect(results.filter((r) => r.isError).map(text)).toEqual([]);
    for (let i = 0; i < 20; i++) {
      expect(project.text(`f${i}.txt`)).toBe(`line 1\nline 2\nfile ${i}\nline 4\nline 5\n`);
    }
  });

  it("keeps every one of 10 concurrent edits of one file", async () => {
    const project = new Project();
    project.write("shared.txt", numbered(40));
    const client = await (await harness.launch(project.root)).connect();
    const tag = await readTag(client, "shared.txt");
    // All against the same read: each later edit merges onto the ones before it.
    const lines = Array.from({ length: 10 }, (_, i) => 1 + i * 4);
    const results = await Promise.all(
      lines.map((n) =>
        call(client, "edit", {
          targets: [{ path: "shared.txt", file_hash: tag, ops: `replace ${n}:\n+edited ${n}` }],
        }),
      ),
    );
    expect(results.filter((r) => r.isError).map(text)).toEqual([]);
    const after = project.text("shared.txt").split("\n");
    for (const n of lines) expect(after[n - 1]).toBe(`edited ${n}`);
    expect(after).toHaveLength(41);
  });

  it("gives each connection its own session: B cannot edit with A's read", async () => {
    const project = new Project();
    project.write("a.txt", "one\n");
    const server = await harness.launch(project.root);
    const [a, b] = [await server.connect(), await server.connect()];
    const tag = await readTag(a, "a.txt");
    const result = await call(b, "edit", {
      targets: [{ path: "a.txt", file_hash: tag, ops: "replace 1:\n+uno" }],
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^stale: This session never read a\.txt at tag /);
    expect(project.text("a.txt")).toBe("one\n");
  });

  it("offers the minimal tool set with --tools minimal", async () => {
    const project = new Project();
    const client = await (await harness.launch(project.root, ["--tools", "minimal"])).connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(minimalTools.map((t) => t.name));
  });

  it("offers the coding set with each tool's whole manual with --tools coding --descriptions full", async () => {
    const project = new Project();
    const args = ["--tools", "coding", "--descriptions", "full"];
    const client = await (await harness.launch(project.root, args)).connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(codingTools.map((t) => t.name));
    expect(tools.map((t) => t.description)).toEqual(codingTools.map((t) => t.manual));
  });

  it("uses the client's roots instead of --root, and follows changes", async () => {
    const [configured, first, second] = [new Project(), new Project(), new Project()];
    first.write("only-first.txt", "first\n");
    second.write("only-second.txt", "second\n");
    const roots: Root[] = [{ uri: pathToFileURL(first.root).href, name: "first" }];
    const client = await (await harness.launch(configured.root)).connect(roots);

    const read = await call(client, "read", { targets: [{ path: "only-first.txt" }] });
    expect(text(read)).toContain("1| first");

    // A file of the configured root is outside the client's roots now.
    const outside = join(realpathSync(configured.root), "x.txt");
    const refused = await call(client, "write", { targets: [{ path: outside, text: "x\n" }] });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain(
      `resolves outside the project root ${realpathSync(first.root)}`,
    );

    roots.splice(0, 1, { uri: pathToFileURL(second.root).href }, roots[0]!);
    await client.sendRootsListChanged();
    const moved = await call(client, "read", { targets: [{ path: "only-second.txt" }] });
    expect(text(moved)).toContain("1| second");
    // An absolute path picks the root that holds it.
    const absolute = join(realpathSync(first.root), "only-first.txt");
    expect(text(await call(client, "read", { targets: [{ path: absolute }] }))).toContain(
      "1| first",
    );
    const across = await call(client, "read", {
      targets: [{ path: "only-second.txt" }, { path: absolute }],
    });
    expect(across.isError).toBe(true);
    expect(text(across)).toContain("guard: This call names files in different roots");
  });

  it("keeps the client's roots inside --roots-within: file:/// is narrowed, others ignored", async () => {
    // Two projects side by side in one folder, so a root wider than --root stays in a temp folder.
    const parent = realpathSync(mkdtempSync(join(tmpdir(), "splice-roots-")));
    const [configured, elsewhere] = [{ root: join(parent, "a") }, { root: join(parent, "b") }];
    mkdirSync(configured.root);
    mkdirSync(elsewhere.root);
    writeFileSync(join(configured.root, "mine.txt"), "mine\n");
    writeFileSync(join(elsewhere.root, "theirs.txt"), "theirs\n");
    const theirs = join(elsewhere.root, "theirs.txt");
    // Without the switch a client root wider than --root opens every folder under it.
    const wide = pathToFileURL(parent).href;
    const open = await (await harness.launch(configured.root)).connect([{ uri: wide }]);
    expect(text(await call(open, "read", { targets: [{ path: theirs }] }))).toContain("1| theirs");

    const args = ["--roots-within", configured.root];
    const roots: Root[] = [{ uri: "file:///" }];
    const client = await (await harness.launch(configured.root, args)).connect(roots);
    // read reports a refused target inline, as one bracketed line.
    const refused = await call(client, "read", { targets: [{ path: theirs }] });
    expect(text(refused)).toContain(
      `guard: Path '${theirs}' resolves outside the project root ${realpathSync(configured.root)}`,
    );
    expect(text(await call(client, "read", { targets: [{ path: "mine.txt" }] }))).toContain(
      "1| mine",
    );

    roots.splice(0, 1, { uri: pathToFileURL(elsewhere.root).href });
    await client.sendRootsListChanged();
    const ignored = await call(client, "read", { targets: [{ path: "theirs.txt" }] });
    expect(text(ignored)).toMatch(/^\[theirs\.txt: not_found: /);
    expect(text(await call(client, "read", { targets: [{ path: "mine.txt" }] }))).toContain(
      "1| mine",
    );
  });

  it("skips a client root it cannot open and follows the others", async () => {
    const [configured, old, next] = [new Project(), new Project(), new Project()];
    const roots: Root[] = [{ uri: pathToFileURL(old.root).href }];
    const client = await (await harness.launch(configured.root)).connect(roots);
    expect((await call(client, "list", {})).isError).toBeFalsy();

    // A remote file URL beside the new project: the new project, not the old one.
    roots.splice(
      0,
      1,
      { uri: "file://build-server/src/app" },
      { uri: pathToFileURL(next.root).href },
    );
    await client.sendRootsListChanged();
    const write = await call(client, "write", { targets: [{ path: "notes.txt", text: "hi\n" }] });
    expect(write.isError).toBeFalsy();
    expect(next.text("notes.txt")).toBe("hi\n");
    expect(existsSync(join(old.root, "notes.txt"))).toBe(false);
  });
});
