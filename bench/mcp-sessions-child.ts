/**
 * One run of the mcp-sessions benchmark (bench/mcp-sessions.ts), in its own
 * process so the memory figures are its own: serves HTTP, opens SESSIONS
 * sessions that initialize and then go silent (no DELETE, as clients leave),
 * and reports memory before, after, and once idle sessions had time to expire.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { serveHttp } from "../src/hosts/mcp/http.js";
import { initializeRequest } from "../test/helpers/mcp.js";
import { sendToParent } from "./lib.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const SESSIONS = Number(process.env.SESSIONS ?? 1000);
const IDLE_MS = Number(process.env.IDLE_MS ?? 0);

const INITIALIZE = JSON.stringify(initializeRequest("b"));

function post(url: string, body: string, session?: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.headers["mcp-session-id"] as string | undefined));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
};

const root = mkdtempSync(join(tmpdir(), "splice-bench-sessions-"));
const server = await serveHttp({ root, port: 0, sessionIdleMs: IDLE_MS, lsp: false });
// One session first, so the figures start with the server's own code loaded.
await post(server.url, INITIALIZE);
const before = await settle();
const started = performance.now();
for (let i = 0; i < SESSIONS; i++) {
  const session = await post(server.url, INITIALIZE);
  await post(
    server.url,
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    session,
  );
}
const openMs = performance.now() - started;
const after = await settle();
// Long enough for every idle session to expire (the sweep runs every idle/4).
await new Promise((resolve) => setTimeout(resolve, IDLE_MS > 0 ? IDLE_MS * 2 + 100 : 500));
const later = await settle();
await server.close();
rmSync(root, { recursive: true, force: true });
await sendToParent({ before, after, later, openMs });
