/**
 * `splice review` and `splice serve --http`'s /review, through the built
 * command (run `npm run build` first): the printed address, --open handing
 * it to $BROWSER (a real script that records what it was given), --port,
 * and the serve token guarding the page.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");
const running: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  out: () => string;
  err: () => string;
}

function start(args: string[], env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: "pipe",
    env: { ...process.env, ...env },
  });
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
  });
  running.push(child);
  return { child, out: () => out, err: () => err };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = await once(child, "exit");
  return code as number | null;
}

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

describe("splice review", () => {
  it("prints the page's address, opens it with $BROWSER on --open, and stops on SIGTERM", async () => {
    const project = new Project();
    const record = join(project.root, "opened.txt");
    const browser = project.write("fake-browser.sh", `#!/bin/sh\nprintf '%s' "$1" > '${record}'\n`);
    chmodSync(browser, 0o755);
    const r = start(["review", "--open", "--root", project.root], { BROWSER: browser });
    await until(() => r.out().includes("\n"), "the address");
    const url = r.out().trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/review\?token=[\w-]{22}$/);
    await until(() => existsSync(record) && readFileSync(record, "utf8") !== "", "the browser");
    expect(readFileSync(record, "utf8")).toBe(url);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>splice review</title>");
    r.child.kill("SIGTERM");
    expect(await exited(r.child)).toBe(0);
    expect(r.err()).toContain("splice review: SIGTERM: stopping");
  }, 60_000);

  it("listens on --port, and says so when the port is taken", async () => {
    const project = new Project();
    const first = start(["review", "--port", "0", "--root", project.root]);
    await until(() => first.out().includes("\n"), "the address");
    const port = /:(\d+)\//.exec(first.out())![1]!;
    const second = start(["review", "--port", port, "--root", project.root]);
    expect(await exited(second.child)).toBe(1);
    expect(second.err()).toBe(
      `splice review: cannot listen on 127.0.0.1:${port} (EADDRINUSE); pick another --port or --host.\n`,
    );
    const bad = start(["review", "--port", "http", "--root", project.root]);
    expect(await exited(bad.child)).toBe(2);
    expect(bad.err()).toContain("--port needs a port number");
  }, 60_000);
});

describe("splice serve --http", () => {
  it("serves the review page at /review behind the serve token", async () => {
    const project = new Project();
    writeFileSync(join(project.root, "a.txt"), "one\n");
    const r = start(["serve", "--http", "0", "--token", "s3cret", "--root", project.root]);
    await until(() => /review page at \S+/.test(r.err()), "the page's address");
    // The person's token is never printed; they put it in the address themselves.
    const shown = /review page at (\S+)/.exec(r.err())![1]!;
    expect(shown).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/review\?token=<token>$/);
    expect(r.err()).not.toContain("s3cret");
    const url = shown.replace("<token>", "s3cret");
    expect((await fetch(url)).status).toBe(200);
    const api = url.replace(/\?.*$/, "/api/sessions");
    expect((await fetch(api)).status).toBe(401);
    expect((await fetch(api, { headers: { authorization: "Bearer s3cret" } })).status).toBe(200);
    expect((await fetch(url.replace("s3cret", "guess"))).status).toBe(401);
    // /mcp keeps its own checks.
    const mcp = url.replace(/\/review.*$/, "/mcp");
    expect((await fetch(mcp, { method: "POST", body: "{}" })).status).toBe(401);
    r.child.kill("SIGTERM");
    expect(await exited(r.child)).toBe(0);
  }, 60_000);

  it("tells the page of an MCP connection's change through its toolkit's events", async () => {
    const project = new Project();
    const r = start(["serve", "--http", "0", "--token", "s3cret", "--root", project.root]);
    await until(() => /review page at \S+/.test(r.err()), "the page's address");
    const url = /review page at (\S+)/.exec(r.err())![1]!.replace("<token>", "s3cret");
    const stream = await fetch(url.replace("/review?", "/review/events?"));
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let heard = "";
    const hear = async (event: string) => {
      while (!heard.includes(`event: ${event}\n`)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${event}`);
        heard += value;
      }
    };
    await hear("hello");
    const client = new Client({ name: "demo-editor", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url.replace(/\/review.*$/, "/mcp")), {
        requestInit: { headers: { authorization: "Bearer s3cret" } },
      }),
    );
    try {
      await client.callTool({
        name: "write",
        arguments: { targets: [{ path: "a.txt", text: "hello\n" }] },
      });
      await hear("sessions");
      const data = /event: sessions\ndata: (.*)\n/.exec(heard)![1]!;
      expect(JSON.parse(data)).toEqual({ stamp: expect.stringMatching(/^1 \d{8}-/), by: "events" });
    } finally {
      await reader.cancel();
      await client.close();
    }
    r.child.kill("SIGTERM");
    expect(await exited(r.child)).toBe(0);
  }, 60_000);
});
