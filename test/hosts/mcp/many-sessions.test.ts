/**
 * Many agents on one HTTP server share each root's state (toolkit/projects.ts)
 * and keep every promise: sixteen sessions writing at once — each its own
 * file, and all of them one shared file — lose no update, and history holds
 * each session's changes as its own.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { serveHttp } from "../../../src/hosts/mcp/http.js";
import { Project } from "../../helpers/project.js";

const SESSIONS = 16;
const ROUNDS = 5;

const text = (r: unknown) =>
  (r as CallToolResult).content.map((c) => ("text" in c ? c.text : "")).join("");

describe("sixteen sessions writing at once on one server", () => {
  it("loses no update, on their own files or on one they share", async () => {
    const p = new Project();
    const slots = Array.from({ length: SESSIONS }, (_, i) => `slot ${i}: 0`);
    p.write("shared.txt", `${slots.join("\n")}\n`);
    for (let i = 0; i < SESSIONS; i++) p.write(`own-${i}.txt`, "count 0\n");
    const server = await serveHttp({ root: p.root, port: 0, watch: true });
    const clients: Client[] = [];
    try {
      for (let i = 0; i < SESSIONS; i++) {
        const client = new Client({ name: `agent-${i}`, version: "1" });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        clients.push(client);
      }
      const edit = (path: string, from: string, to: string) => ({
        name: "edit",
        arguments: { targets: [{ path, edits: [{ old_text: from, new_text: to }] }] },
      });
      const failures: string[] = [];
      await Promise.all(
        clients.map(async (client, i) => {
          for (let n = 0; n < ROUNDS; n++) {
            for (const call of [
              edit(`own-${i}.txt`, `count ${n}`, `count ${n + 1}`),
              edit("shared.txt", `slot ${i}: ${n}\n`, `slot ${i}: ${n + 1}\n`),
            ]) {
              const r = await client.callTool(call);
              if (r.isError)
                failures.push(`agent-${i} ${call.arguments.targets[0]!.path}: ${text(r)}`);
            }
          }
        }),
      );
      expect(failures).toEqual([]);
      for (let i = 0; i < SESSIONS; i++) expect(p.text(`own-${i}.txt`)).toBe(`count ${ROUNDS}\n`);
      const want = Array.from({ length: SESSIONS }, (_, i) => `slot ${i}: ${ROUNDS}`);
      expect(p.text("shared.txt")).toBe(`${want.join("\n")}\n`);
      // Each session's changes are its own in history: agent 3 undoes exactly its last edit.
      const undo = await clients[3]!.callTool({ name: "undo", arguments: {} });
      expect(undo.isError, text(undo)).toBeFalsy();
      expect(p.text("shared.txt")).toContain(`slot 3: ${ROUNDS - 1}\n`);
      expect(p.text("shared.txt")).toContain(`slot 4: ${ROUNDS}\n`);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
    }
  }, 120_000);
});
