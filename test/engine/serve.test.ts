/**
 * `splice serve` over stdio is a client of the engine: two MCP clients and
 * the command line on one repository share one engine, and so one language
 * server for it, instead of one each.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, ENGINE_BUILT, ownEngine } from "../helpers/engine.js";
import { sleep } from "../helpers/processes.js";
import { Project } from "../helpers/project.js";

const { env, splice } = ownEngine();

async function connect(root: string): Promise<Client> {
  const client = new Client({ name: "test", version: "1" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "serve", "--root", root],
    env,
    stderr: "pipe",
  });
  await client.connect(transport);
  return client;
}

const text = (r: unknown) =>
  (r as CallToolResult).content.map((c) => ("text" in c ? c.text : "")).join("");

/** Every process below `pid`, by command line. */
function descendants(pid: number): string[] {
  const out = execFileSync("ps", ["-e", "-o", "pid=,ppid=,args="], { encoding: "utf8" });
  const rows = out
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/));
  const below = new Set([String(pid)]);
  const found: string[] = [];
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, pp, ...args] of rows) {
      if (below.has(pp!) && !below.has(p!)) {
        below.add(p!);
        found.push(args.join(" "));
        grew = true;
      }
    }
  }
  return found;
}

describe.skipIf(!ENGINE_BUILT)("splice serve through the engine", () => {
  afterAll(() => splice(["engine", "stop"]));

  it("shares one engine and one language server between two MCP clients and the CLI", async () => {
    const p = new Project();
    p.write("pyproject.toml", '[project]\nname = "demo"\n');
    p.write("a.py", "x = 1\n");
    p.write("b.py", "y = 2\n");
    const one = await connect(p.root);
    const two = await connect(p.root);
    try {
      const read = await one.callTool({ name: "read", arguments: { targets: [{ path: "a.py" }] } });
      expect(text(read)).toContain("1| x = 1");
      const edits = (file: string, from: string, to: string) => ({
        name: "edit",
        arguments: { targets: [{ path: file, edits: [{ old_text: from, new_text: to }] }] },
      });
      // A host waits for the server: each edit carries a verdict.
      const a = await one.callTool(edits("a.py", "x = 1", "x = missing_a"));
      const b = await two.callTool(edits("b.py", "y = 2", "y = missing_b"));
      expect(text(a)).toContain('"missing_a" is not defined');
      expect(text(b)).toContain('"missing_b" is not defined');
      const cli = splice([
        "edit",
        "a.py",
        "--old",
        "missing_a",
        "--new",
        "missing_c",
        "--root",
        p.root,
      ]);
      expect(cli.code).toBe(0);
      expect(cli.stderr).toContain('"missing_c" is not defined');
      expect(readFileSync(join(p.root, "a.py"), "utf8")).toBe("x = missing_c\n");
      const status = JSON.parse(splice(["engine", "status", "--json"]).stdout) as {
        pid: number;
        roots: string[];
      };
      expect(status.roots).toEqual([p.root]);
      const servers = descendants(status.pid).filter((c) => /pyright/.test(c) && !/^sh /.test(c));
      expect(servers, servers.join("\n")).toHaveLength(1);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
    // Both clients gone: the engine stays for the next one, and runs no command.
    await sleep(200);
    const after = JSON.parse(splice(["engine", "status", "--json"]).stdout) as { commands: number };
    expect(after.commands).toBe(0);
  }, 60_000);
});
