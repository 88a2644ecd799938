/**
 * The serve token stays secret: a whole `splice serve --http` session with
 * everything that goes wrong — no token, a wrong one, bad JSON, a failing
 * call, a command that prints its environment, a connection dropped during a
 * call — leaves the token in no line of stderr, the engine's log, the
 * project's run logs or history. Through the built command and its engine
 * (run `npm run build` first), with a private runtime folder.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { engineEnv, engineKey } from "../../../src/engine/place.js";
import { BIN, ENGINE_BUILT, ownEngine } from "../../helpers/engine.js";
import { initializeRequest } from "../../helpers/mcp.js";
import { sleep } from "../../helpers/processes.js";
import { Project } from "../../helpers/project.js";

const TOKEN = "Secr3t-Qm3v1Kp9xYc2TzR8aLw0nA";

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): [string, string][] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => [path, readFileSync(path, "latin1")]);
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe.skipIf(!ENGINE_BUILT)("the serve token", () => {
  // In the engine a command's environment is its client's; without it, the server's own.
  it.each(["engine", "no-engine"])(
    "appears in no log after a session with every kind of error (%s)",
    async (mode) => {
      const project = new Project();
      project.write("a.txt", "one\n");
      const { env } = ownEngine();
      const runtime = env.XDG_RUNTIME_DIR!;
      const child = spawn(BIN, ["serve", "--http", "0", "--root", project.root], {
        env: {
          ...env,
          SPLICE_TOKEN: TOKEN,
          ...(mode === "no-engine" ? { SPLICE_ENGINE: "0" } : {}),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      running.push(child);
      let stderr = "";
      child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      while (!/review page at/.test(stderr)) await once(child.stderr!, "data");
      const url = /(http:\/\/\S+\/mcp)/.exec(stderr)![1]!;
      const origin = new URL(url).origin;
      const post = (headers: Record<string, string>, body: string) =>
        fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...headers,
          },
          body,
        });
      const initialize = JSON.stringify(initializeRequest());

      // No token, a wrong one, the discovery a client without one starts, the page with a wrong one.
      expect((await post({}, initialize)).status).toBe(401);
      expect((await post({ authorization: "Bearer guess" }, initialize)).status).toBe(401);
      expect((await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).status).toBe(200);
      expect((await fetch(`${origin}/register`, { method: "POST", body: "{}" })).status).toBe(400);
      expect((await fetch(`${origin}/review?token=guess`)).status).toBe(401);
      // Bad JSON, before a session and within one.
      const bearer = { authorization: `Bearer ${TOKEN}` };
      expect((await post(bearer, "{not json")).status).toBe(400);

      const client = new Client({ name: "secrecy", version: "1" });
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: bearer },
      });
      await client.connect(transport);
      const session = { ...bearer, "mcp-session-id": transport.sessionId! };
      expect((await post(session, "{not json")).status).toBe(400);
      // A failing call, and a failing command that prints what it was given.
      const missing = await client.callTool({
        name: "edit",
        arguments: { path: "gone.txt", old_text: "x", new_text: "y" },
      });
      expect(missing.isError).toBe(true);
      const printed = await client.callTool({
        name: "run",
        // Long enough that its whole output is kept in a run log as well.
        arguments: { command: 'echo "token=[$SPLICE_TOKEN]"; env; seq 1 200000; exit 3' },
      });
      expect(text(printed)).toContain("token=[]");
      expect(text(printed)).not.toContain(TOKEN);
      // A connection dropped during a call.
      client
        .callTool({ name: "run", arguments: { command: "touch started; sleep 30" } })
        .catch(() => {});
      while (!existsSync(join(project.root, "started"))) await sleep(50);
      await client.close();

      // The dropped stream stays resumable, so the call runs on until the server stops.
      child.kill("SIGTERM");
      const [code] = await once(child, "exit");
      expect(code).toBe(0);
      expect(stderr).toContain("run stopped: cancelled or the connection closed");

      // What was looked at holds what the session said: the token is what is missing.
      expect(stderr).toContain("protocol error");
      const logs = [...filesUnder(runtime), ...filesUnder(join(project.root, ".splice"))];
      const engineLog = logs.some(([path]) => /engine-\w+\.log$/.test(path));
      expect(engineLog).toBe(mode === "engine");
      expect(logs.some(([, body]) => body.includes("token=[]"))).toBe(true);
      expect(stderr).not.toContain(TOKEN);
      for (const [path, body] of logs) expect(body.includes(TOKEN), path).toBe(false);
      spawnSync(BIN, ["engine", "stop"], { env });
    },
    90_000,
  );

  it("is not repeated in a usage error, even when it looks like a flag", () => {
    const { env } = ownEngine();
    const secret = `-${TOKEN}`;
    const r = spawnSync(BIN, ["serve", "--http", "0", "--token", secret], {
      env,
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--token needs a value, and it looks like a flag; write --token=T");
    expect(r.stderr).not.toContain(TOKEN);
  });
});

describe("the engine", () => {
  it("neither keeps the serve token nor starts one engine per token", () => {
    const env = { HOME: "/home/a", SPLICE_TOKEN: TOKEN, SPLICE_DURABLE: "full" };
    expect(engineEnv(env)).toEqual({ HOME: "/home/a", SPLICE_DURABLE: "full" });
    expect(engineKey(env, "b")).toBe(engineKey({ ...env, SPLICE_TOKEN: "other" }, "b"));
    expect(engineKey(env, "b")).not.toBe(engineKey({ ...env, SPLICE_DURABLE: "0" }, "b"));
  });
});
