/**
 * Message size limits: a message over the limit is answered with a JSON-RPC
 * error naming it, and the server keeps serving; a message under it (a file
 * larger than the SDK's 10 MiB stdio buffer) is read. Real pipes, the built
 * CLI as a child process, the official SDK client over stdio and HTTP.
 */
import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { serveHttp } from "../../../src/hosts/mcp/http.js";
import { OMITTED_META_KEY, RESULT_META_KEY } from "../../../src/hosts/mcp/result.js";
import { idAtEdges, LineTransport } from "../../../src/hosts/mcp/stdio.js";
import { initializeRequest } from "../../helpers/mcp.js";
import { sleep } from "../../helpers/processes.js";
import { Project } from "../../helpers/project.js";

const BIN = fileURLToPath(new URL("../../../bin/splice", import.meta.url));
const MIB = 1024 * 1024;

const INITIALIZE = initializeRequest();

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: "limits-test", version: "1.0.0" });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

/** A LineTransport over real pipes, collecting what it reads and answers. */
function lines(limit: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new LineTransport(limit, stdin, stdout);
  const read: JSONRPCMessage[] = [];
  const errors: string[] = [];
  transport.onmessage = (m) => read.push(m);
  transport.onerror = (e) => errors.push(e.message);
  let out = "";
  stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  const answers = () =>
    out
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return { stdin, transport, read, errors, answers };
}

const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });

describe("LineTransport", () => {
  it("answers a line over the limit with its id and reads the next one", async () => {
    const t = lines(1000);
    await t.transport.start();
    const big = JSON.stringify({
      jsonrpc: "2.0",
      method: "tools/call",
      params: { name: "write", arguments: { text: "x".repeat(5000) } },
      id: 41,
    });
    // In pieces, the way a pipe delivers it.
    for (let i = 0; i < big.length; i += 700) t.stdin.write(big.slice(i, i + 700));
    t.stdin.write(`\n${ping(42)}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.answers()).toEqual([
      {
        jsonrpc: "2.0",
        id: 41,
        error: {
          code: -32600,
          message: expect.stringMatching(
            /^Invalid Request: the message is over 1000 bytes, the most splice reads in one message\. Send less in one call/,
          ),
        },
      },
    ]);
    expect(t.read).toEqual([{ jsonrpc: "2.0", id: 42, method: "ping" }]);
    expect(t.errors).toEqual(["skipped a message over 1000 bytes"]);
  });

  it("reads a line exactly at the limit, split across chunks", async () => {
    const message = ping(1);
    // The "\r" of a CRLF line counts.
    const t = lines(message.length + 1);
    await t.transport.start();
    t.stdin.write(message.slice(0, 10));
    t.stdin.write(`${message.slice(10)}\r\n\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.read).toEqual([JSON.parse(message)]);
    expect(t.answers()).toEqual([]);
  });

  it("finds the id at either edge, only at the top level", () => {
    expect(idAtEdges('{"jsonrpc":"2.0","id":"a\\"b","method":', "")).toBe('a"b');
    expect(idAtEdges('{"id": 7, "method":', "")).toBe(7);
    expect(idAtEdges('{"method":"x","params":{', 'xx"}},"id":-3}')).toBe(-3);
    expect(idAtEdges('{"method":"x","params":{"id":1', '"id":9}}')).toBeUndefined();
  });
});

describe("oversized messages", () => {
  it("stdio: writes a 12 MiB file (over the SDK's 10 MiB buffer) and keeps serving", async () => {
    const project = new Project();
    // Raw lines, not the SDK client: its read buffer copies itself per chunk, slow for the 24 MiB answer.
    const child = spawn(process.execPath, [BIN, "serve", "--root", project.root], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    cleanups.push(async () => {
      child.kill();
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    const text = `${"a".repeat(10_239)}\n`.repeat((12 * MIB) / 10_240);
    const messages = [
      INITIALIZE,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "write", arguments: { targets: [{ path: "big.txt", text }] } },
      },
      { jsonrpc: "2.0", id: 3, method: "ping" },
    ];
    child.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(""));
    // Whole lines only: the last may still be arriving.
    const answers = () =>
      out
        .split("\n")
        .slice(0, -1)
        .map((l) => JSON.parse(l));
    while (answers().filter((a) => a.id === 2 || a.id === 3).length < 2) {
      if (child.exitCode !== null) throw new Error(`the server exited: ${out.slice(0, 500)}`);
      await sleep(50);
    }
    const write = answers().find((a) => a.id === 2);
    expect(write.result.isError).toBeUndefined();
    expect(write.result.content[0].text).toMatch(/^¶big\.txt#[0-9A-F]{4}\n/);
    expect(project.bytes("big.txt").length).toBe(text.length);
    expect(answers().find((a) => a.id === 3)).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
  });

  it("http: answers a body over the limit with 413 naming it, and the session goes on", async () => {
    const project = new Project();
    // 1 MiB files: calls may carry 2 MiB.
    const server = await serveHttp({ root: project.root, port: 0, maxFileBytes: MIB });
    cleanups.push(() => server.close());
    const client = await connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const over = client
      .callTool({
        name: "write",
        arguments: { targets: [{ path: "a.txt", text: "x".repeat(3 * MIB) }] },
      })
      .catch((e: unknown) => e);
    expect(String(await over)).toContain(`Request body must not exceed ${2 * MIB} bytes`);
    const under = (await client.callTool({
      name: "write",
      arguments: { targets: [{ path: "a.txt", text: "x".repeat(MIB - 10) }] },
    })) as CallToolResult;
    expect(under.isError).toBeFalsy();
  });

  it("leaves a large result's JSON copy out, so the answer stays readable for clients", async () => {
    const project = new Project();
    const server = await serveHttp({ root: project.root, port: 0 });
    cleanups.push(() => server.close());
    const client = await connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const text = `${"b".repeat(1023)}\n`.repeat(3 * 1024);
    const write = (await client.callTool({
      name: "write",
      arguments: { targets: [{ path: "big.txt", text }] },
    })) as CallToolResult;
    expect(write.isError).toBeFalsy();
    expect((write.content[0] as { text: string }).text).toMatch(
      /^¶big\.txt#[0-9A-F]{4}\n@@ -0,0 \+1,3072 @@/,
    );
    expect(write._meta?.[RESULT_META_KEY]).toBeUndefined();
    expect(write._meta?.[OMITTED_META_KEY]).toMatch(/^the JSON result \(3\.\d MiB\) is left out/);
    const small = (await client.callTool({
      name: "write",
      arguments: { targets: [{ path: "small.txt", text: "s\n" }] },
    })) as CallToolResult;
    expect(small._meta?.[RESULT_META_KEY]).toMatchObject({ results: [{ path: "small.txt" }] });
  });
});
