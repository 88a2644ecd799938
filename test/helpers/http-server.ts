/**
 * A real `splice serve --http` in a process of its own (so a test can kill
 * it), and MCP SDK clients connected to it, each hearing the server's log.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { BIN } from "./engine.js";

const TOKEN = "many-sessions-test-token";

export interface ServerProcess {
  url: URL;
  child: ChildProcess;
  /** SIGKILL, wherever the server is. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the server on `root` (no engine: the process is the server); resolves once it listens. */
export async function startServer(root: string): Promise<ServerProcess> {
  const args = [BIN, "serve", "--root", root, "--http", "0", "--token", TOKEN, "--no-engine"];
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, SPLICE_ENGINE: "0" },
  });
  let said = "";
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      said = (said + chunk).slice(-4096);
      const found = /serving over HTTP at (\S+)/.exec(said);
      if (found) resolve(new URL(found[1]!));
    });
    child.once("exit", (code) => reject(new Error(`splice serve exited (${code}): ${said}`)));
  });
  const ended = once(child, "exit");
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await ended;
  };
  return { url, child, kill: () => end("SIGKILL"), stop: () => end("SIGTERM") };
}

export interface Session {
  client: Client;
  /** Every log message the server sent this session. */
  heard: string[];
}

export async function connect(url: URL, name: string): Promise<Session> {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  });
  const client = new Client({ name, version: "1.0.0" });
  const heard: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    heard.push(String(n.params.data));
  });
  await client.connect(transport);
  return { client, heard };
}

/** The text a model would read. */
export const textOf = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => ("text" in c ? c.text : "")).join("\n");

/**
 * One tools/call: its text, whether it succeeded, and whether no answer came
 * at all (`threw`). A call whose server was killed waits for the SDK's
 * reconnection until `signal` aborts it.
 */
export async function callTool(
  session: Session,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ ok: boolean; text: string; threw: boolean }> {
  try {
    const r = await session.client.callTool({ name, arguments: args }, undefined, { signal });
    return { ok: !r.isError, text: textOf(r), threw: false };
  } catch (error) {
    return { ok: false, text: String(error), threw: true };
  }
}
