/**
 * What only the HTTP transport and the `splice serve` command do: DNS
 * rebinding checks, the bearer token, session ids, and the process lifecycle
 * (the built CLI, stopped by a signal or by closing stdin).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpServer, serveHttp } from "../../../src/hosts/mcp/http.js";
import { initializeRequest } from "../../helpers/mcp.js";
import { alive, sleep } from "../../helpers/processes.js";
import { Project } from "../../helpers/project.js";

const BIN = fileURLToPath(new URL("../../../bin/splice", import.meta.url));

const INITIALIZE = JSON.stringify(initializeRequest());

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request, so Host and Origin can be anything (fetch would not allow that). */
function send(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    whole?: boolean;
  } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...options.headers,
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
          // An SSE answer stays open; the first event is all a test needs.
          if (!options.whole && body.includes("\n\n")) res.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        res.on("end", done);
        res.on("close", done);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function start(options: { token?: string } = {}): Promise<HttpServer> {
  const server = await serveHttp({ root: new Project().root, port: 0, ...options });
  cleanups.push(() => server.close());
  return server;
}

describe("MCP over HTTP: who may connect", () => {
  it("binds to 127.0.0.1 and serves /mcp", async () => {
    const server = await start();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
    const ok = await send(server.url, { body: INITIALIZE });
    expect(ok.status).toBe(200);
    expect(ok.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect((await send(`http://127.0.0.1:${server.port}/other`, { body: INITIALIZE })).status).toBe(
      404,
    );
  });

  it("accepts localhost spellings of the Host and refuses any other with 403", async () => {
    const server = await start();
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`]) {
      expect((await send(server.url, { headers: { host }, body: INITIALIZE })).status).toBe(200);
    }
    for (const host of [`evil.example:${server.port}`, "127.0.0.1:1", "localhost"]) {
      const reply = await send(server.url, { headers: { host }, body: INITIALIZE });
      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.body)).toEqual({
        jsonrpc: "2.0",
        error: { code: -32000, message: `Forbidden: Host "${host}" is not this server.` },
        id: null,
      });
    }
  });

  it("refuses an Origin that is not localhost with 403, and allows localhost ones", async () => {
    const server = await start();
    for (const origin of ["http://localhost:5173", "https://127.0.0.1"]) {
      expect((await send(server.url, { headers: { origin }, body: INITIALIZE })).status).toBe(200);
    }
    for (const origin of ["https://evil.example", "http://localhost.evil.example", "null"]) {
      const reply = await send(server.url, { headers: { origin }, body: INITIALIZE });
      expect(reply.status).toBe(403);
      expect(reply.body).toContain(`Forbidden: Origin \\"${origin}\\" may not use this server.`);
    }
  });

  it("requires the bearer token when one is set: 401 without, 200 with", async () => {
    const server = await start({ token: "s3cret" });
    for (const authorization of [undefined, "Bearer wrong", "s3cret"]) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      const reply = await send(server.url, { headers, body: INITIALIZE });
      expect(reply.status).toBe(401);
      expect(reply.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect(JSON.parse(reply.body).error.message).toMatch(
        /^Unauthorized: .*send the header Authorization: Bearer <token>/,
      );
    }
    const ok = await send(server.url, {
      headers: { authorization: "Bearer s3cret" },
      body: INITIALIZE,
    });
    expect(ok.status).toBe(200);

    // The SDK client with the header works end to end.
    const client = new Client({ name: "t", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: "Bearer s3cret" } },
      }),
    );
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("answers an unknown session with 404 and a missing one with 400", async () => {
    const server = await start();
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const unknown = await send(server.url, { headers: { "mcp-session-id": "nope" }, body: list });
    expect(unknown.status).toBe(404);
    expect((await send(server.url, { body: list })).status).toBe(400);
    expect((await send(server.url, { method: "GET" })).status).toBe(400);
  });

  it("closes a session no request used for sessionIdleMs, never one that is busy", async () => {
    const server = await serveHttp({ root: new Project().root, port: 0, sessionIdleMs: 300 });
    cleanups.push(() => server.close());
    const init = await send(server.url, { body: INITIALIZE, whole: true });
    const headers = { "mcp-session-id": init.headers["mcp-session-id"] as string };
    const rpc = (id: number, method: string, params?: unknown) =>
      send(server.url, {
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
        whole: true,
      });
    // A call longer than the idle time keeps its session.
    const run = await rpc(2, "tools/call", {
      name: "run",
      arguments: { command: "sleep 0.8; echo done" },
    });
    expect(run.body).toContain("done");
    expect((await rpc(3, "tools/list")).status).toBe(200);
    await sleep(700);
    const gone = await rpc(4, "tools/list");
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.body).error.message).toBe(
      "Session not found: initialize a new session.",
    );
  });

  it("keeps the session of a connected client, and expires it once the client left", async () => {
    const server = await serveHttp({ root: new Project().root, port: 0, sessionIdleMs: 300 });
    cleanups.push(() => server.close());
    const client = new Client({ name: "t", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    const id = transport.sessionId!;
    // Its GET stream stays open: connected, so not idle.
    await sleep(700);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close(); // no DELETE, as most clients leave
    await sleep(700);
    const list = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" });
    expect((await send(server.url, { headers: { "mcp-session-id": id }, body: list })).status).toBe(
      404,
    );
  });

  it("primes each SSE stream with an event id and a retry interval (2025-11-25)", async () => {
    const server = await start();
    const init = await send(server.url, { body: INITIALIZE });
    const session = init.headers["mcp-session-id"] as string;
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    await send(server.url, {
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    const call = await send(server.url, {
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "list", arguments: {} },
      }),
    });
    expect(call.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(call.body).toMatch(/^id: \S+\nretry: 1000\ndata: \n\n/);
  });

  it("ends a session on DELETE", async () => {
    const server = await start();
    const client = new Client({ name: "t", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    const id = transport.sessionId!;
    await transport.terminateSession();
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect((await send(server.url, { headers: { "mcp-session-id": id }, body: list })).status).toBe(
      404,
    );
    await client.close();
  });
});

function serve(args: string[]): ChildProcess & { stderrText: () => string } {
  const child = spawn(process.execPath, [BIN, "serve", ...args], { stdio: "pipe" });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  return Object.assign(child, { stderrText: () => stderr });
}

async function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = await once(child, "exit");
  return code as number | null;
}

describe("splice serve", () => {
  it("serves HTTP on the port it prints, and exits 0 on SIGTERM", async () => {
    const child = serve(["--http", "0", "--root", new Project().root]);
    while (!/http:\/\/\S+\/mcp/.test(child.stderrText())) await once(child.stderr!, "data");
    const url = /(http:\/\/\S+\/mcp)/.exec(child.stderrText())![1]!;
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("read");
    await client.close();
    child.kill("SIGTERM");
    expect(await exitCode(child)).toBe(0);
    expect(child.stderrText()).toContain("SIGTERM: shutting down");
  });

  it.each(["stdio", "http"])(
    "stops a run in flight on SIGTERM over %s, and exits 0",
    async (over) => {
      const project = new Project();
      const args = { command: "sleep 60 & echo $! > sleeper.pid; wait" };
      const child = serve([...(over === "http" ? ["--http", "0"] : []), "--root", project.root]);
      if (over === "http") {
        while (!/http:\/\/\S+\/mcp/.test(child.stderrText())) await once(child.stderr!, "data");
        const url = /(http:\/\/\S+\/mcp)/.exec(child.stderrText())![1]!;
        const client = new Client({ name: "t", version: "1" });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        client.callTool({ name: "run", arguments: args }).catch(() => {});
      } else {
        const call = {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "run", arguments: args },
        };
        const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
        child.stdin!.write(
          `${INITIALIZE}\n${JSON.stringify(initialized)}\n${JSON.stringify(call)}\n`,
        );
      }
      const pidFile = join(project.root, "sleeper.pid");
      while (!existsSync(pidFile) || readFileSync(pidFile, "utf8") === "") await sleep(50);
      const pid = Number(readFileSync(pidFile, "utf8"));

      const started = Date.now();
      child.kill("SIGTERM");
      expect(await exitCode(child)).toBe(0);
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(alive(pid)).toBe(false);
      expect(child.stderrText()).toContain("run stopped: cancelled or the connection closed");
    },
  );

  it("answers and logs a stdin line that is not JSON-RPC, and keeps serving", async () => {
    const child = serve(["--root", new Project().root]);
    let stdout = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" });
    child.stdin!.end(
      `${INITIALIZE}\n{"jsonrpc":"2.0","id":5,"method":"tools/list",}\n{"hello":1}\n${ping}\n`,
    );
    expect(await exitCode(child)).toBe(0);
    const replies = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    // Answers to requests come a few turns later than those to unreadable lines.
    const [parse, invalid] = replies.filter((r) => "error" in r && !("id" in r));
    expect(parse).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: expect.stringMatching(/^Parse error: .*JSON/) },
    });
    expect(invalid).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message:
          "Invalid Request: the message is JSON but not a JSON-RPC 2.0 request, notification or response.",
      },
    });
    expect(replies.find((r) => r.id === 7)).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    expect(child.stderrText()).toMatch(/protocol error: .*JSON/);
  });

  it("exits 0 when the client closes stdin, writing nothing but protocol to stdout", async () => {
    const child = serve(["--root", new Project().root]);
    let stdout = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stdin!.end(`${INITIALIZE}\n`);
    expect(await exitCode(child)).toBe(0);
    expect(JSON.parse(stdout.trim())).toMatchObject({
      id: 1,
      result: { serverInfo: { name: "splice" } },
    });
  });

  it("says in one line that --host does not resolve, and exits 1", async () => {
    const root = new Project().root;
    const child = serve(["--http", "0", "--host", "no-such-host.invalid", "--root", root]);
    expect(await exitCode(child)).toBe(1);
    expect(child.stderrText()).toMatch(
      /^splice serve: --host no-such-host\.invalid does not resolve \((ENOTFOUND|EAI_AGAIN)\); pass a name or address of this machine, e\.g\. 127\.0\.0\.1\.\n$/,
    );
  });

  it.each([
    ["stdio", []],
    ["http", ["--http", "0"]],
  ])(
    "refuses a --roots-within that does not hold the root, in one line, exit 1 (%s)",
    async (_, transport) => {
      const [inner, outer] = [new Project().root, new Project().root];
      const child = serve([...transport, "--root", outer, "--roots-within", inner]);
      expect(await exitCode(child)).toBe(1);
      expect(child.stderrText()).toBe(
        `splice serve: The root ${outer} is outside --roots-within ${inner}. Pass a root inside it, or a --roots-within folder that holds the root.\n`,
      );
    },
  );

  it.each([
    [["--tools", "huge"], '--tools must be one of "full", "coding", "minimal", not "huge".'],
    [["--descriptions", "long"], '--descriptions must be "short" or "full", not "long".'],
    [
      ["--output-budget", "1000"],
      '--output-budget must be a whole number of bytes, at least 4000, not "1000".',
    ],
    [["--output-budget", "lots"], "--output-budget must be a whole number of bytes"],
    [["--http", "port"], "--http needs a port number"],
    [["--token", "t"], "--host, --token and --session-idle apply to --http only."],
    [["--session-idle", "60"], "--host, --token and --session-idle apply to --http only."],
    [["--http", "0", "--session-idle", "soon"], "--session-idle needs a number of seconds"],
  ])("refuses %j with exit 2", async (args, message) => {
    const child = serve(args);
    expect(await exitCode(child)).toBe(2);
    expect(child.stderrText()).toContain(message);
  });
});
