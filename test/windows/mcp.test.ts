/**
 * `splice serve` of the Windows build under Wine, over stdio, driven by the
 * real MCP SDK client on Linux: the tool contract as the model sees it, on a
 * real folder of the Wine drive C:. Failures of real Windows bugs are
 * `it.fails` with their reason, as in cli.test.ts.
 *
 * Under Wine 8 node.exe cannot write to a Unix pipe (its stdout stream fails
 * with EBADF; files work), so stdio MCP cannot start here: the first test
 * marks that, and the contract below runs only with SPLICE_WINE_MCP=1, for a
 * Wine (or a harness) where it can.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knownBug, pipedSplice, type WinProject, wine, winProject } from "./wine.js";

const GREET = 'function greet(name) {\n  return "hi " + name;\n}\n';

let p: WinProject;
let client: Client;

/** A client connected to a new `splice serve` under Wine, answering `initialize` within `timeout` ms. */
async function connect(root: string, timeout: number): Promise<Client> {
  const w = wine();
  const connected = new Client({ name: "splice-windows-test", version: "1.0.0" });
  await connected.connect(
    new StdioClientTransport({
      ...pipedSplice(["serve", "--root", root]),
      env: w.env as Record<string, string>,
      stderr: "ignore",
    }),
    { timeout },
  );
  return connected;
}

knownBug(
  "serve answers initialize over stdio (Wine: node.exe's stdout on a Unix pipe is EBADF)",
  async () => {
    const q = winProject();
    const probe = await connect(q.win, 20_000);
    await probe.close();
  },
);

const CONTRACT = process.env.SPLICE_WINE_MCP === "1";

beforeAll(async () => {
  if (!CONTRACT) return;
  p = winProject();
  client = await connect(p.win, 60_000);
});

afterAll(async () => {
  await client?.close();
});

async function call(name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
  return { isError: result.isError === true, text };
}

/** A call that must succeed: its text, or the error it said. */
async function ok(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(name, args);
  expect(result.isError, result.text).toBe(false);
  return result.text;
}

function text(rel: string): string {
  return readFileSync(join(p.linux, rel), "utf8");
}

async function tagOf(rel: string): Promise<string> {
  const shown = await ok("read", { path: rel });
  const tag = /#([0-9A-F]{4})/.exec(shown)?.[1];
  if (!tag) throw new Error(`no tag in: ${shown}`);
  return tag;
}

describe.runIf(CONTRACT)("splice serve under Wine, over stdio", () => {
  it("lists the tools", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ["read", "search", "edit", "patch", "run", "undo", "checkpoint"]) {
      expect(names).toContain(name);
    }
  });

  it("read", async () => {
    p.put("read/greet.js", GREET);
    expect(await ok("read", { path: "read/greet.js" })).toContain('2|   return "hi " + name;');
  });

  it("read takes a backslash path", async () => {
    p.put("slash/deep/a.txt", "alpha\n");
    expect(await ok("read", { path: "slash\\deep\\a.txt" })).toContain("1| alpha");
    expect(await ok("read", { path: `${p.win}\\slash\\deep\\a.txt` })).toContain("1| alpha");
  });

  it("search", async () => {
    p.put("search/needle.txt", "hay\nneedle here\n");
    expect(await ok("search", { pattern: "needle here", path: "search" })).toMatch(
      /needle\.txt:2:needle here/,
    );
  });

  it("list", async () => {
    p.put("list/one.txt", "1\n");
    expect(await ok("list", { path: "list" })).toContain("one.txt");
  });

  it("outline", async () => {
    p.put("outline/greet.js", GREET);
    expect(await ok("outline", { path: "outline/greet.js" })).toContain("function greet(name)");
  });

  it("write a new file", async () => {
    await ok("write", { path: "write/new.txt", text: "fresh\n" });
    expect(text("write/new.txt")).toBe("fresh\n");
  });

  knownBug("write over a file (rename over a target held open: EPERM)", async () => {
    p.put("write/old.txt", "old\n");
    await ok("write", { path: "write/old.txt", text: "new\n" });
    expect(text("write/old.txt")).toBe("new\n");
  });

  knownBug("edit by quote (rename over a target held open: EPERM)", async () => {
    p.put("edit/greet.js", GREET);
    await ok("edit", { path: "edit/greet.js", old_text: '"hi "', new_text: '"hello "' });
    expect(text("edit/greet.js")).toContain('"hello "');
  });

  knownBug("edit by line ops against a tag (rename over a target held open: EPERM)", async () => {
    p.put("ops/list.txt", "a\nb\nc\n");
    const tag = await tagOf("ops/list.txt");
    await ok("edit", { path: "ops/list.txt", file_hash: tag, ops: "replace 2..2:\n+B" });
    expect(text("ops/list.txt")).toBe("a\nB\nc\n");
  });

  knownBug("patch, unified diff (rename over a target held open: EPERM)", async () => {
    p.put("patch/u.txt", "one\ntwo\nthree\n");
    const diff =
      "--- a/patch/u.txt\n+++ b/patch/u.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n";
    await ok("patch", { patch: diff });
    expect(text("patch/u.txt")).toBe("one\nTWO\nthree\n");
  });

  knownBug("patch, Codex format (rename over a target held open: EPERM)", async () => {
    p.put("patch/c.txt", "one\ntwo\nthree\n");
    const codex =
      "*** Begin Patch\n*** Update File: patch/c.txt\n@@\n one\n-two\n+TWO\n three\n*** End Patch\n";
    await ok("patch", { patch: codex });
    expect(text("patch/c.txt")).toBe("one\nTWO\nthree\n");
  });

  knownBug("ast_edit (rename over a target held open: EPERM)", async () => {
    p.put("ast/log.js", "console.log(1);\n");
    await ok("ast_edit", {
      ops: [{ pat: "console.log($A)", out: "logger.info($A)" }],
      paths: ["ast/log.js"],
    });
    expect(text("ast/log.js")).toBe("logger.info(1);\n");
  });

  knownBug("ast_rename (rename over a target held open: EPERM)", async () => {
    p.put("rename/r.js", "const total = 1;\nconsole.log(total);\n");
    await ok("ast_rename", { name: "total", new_name: "sum", paths: ["rename/r.js"] });
    expect(text("rename/r.js")).toBe("const sum = 1;\nconsole.log(sum);\n");
  });

  knownBug("doc set (rename over a target held open: EPERM)", async () => {
    p.put("doc/package.json", '{\n  "version": "1.0.0"\n}\n');
    await ok("doc", {
      action: "set",
      path: "doc/package.json",
      selector: "version",
      value: "1.1.0",
    });
    expect(text("doc/package.json")).toContain('"version": "1.1.0"');
  });

  knownBug("md replace (rename over a target held open: EPERM)", async () => {
    p.put("md/README.md", "# T\n\n## Install\n\nold\n");
    await ok("md", {
      action: "replace_section",
      path: "md/README.md",
      heading: "Install",
      text: "new",
    });
    expect(text("md/README.md")).toContain("## Install\n\nnew\n");
  });

  it("file move and delete, then undo", async () => {
    p.put("file/a.txt", "moving\n");
    await ok("file", { action: "move", path: "file/a.txt", to: "file/b.txt" });
    expect(existsSync(join(p.linux, "file/a.txt"))).toBe(false);
    expect(text("file/b.txt")).toBe("moving\n");
    await ok("file", { action: "delete", path: "file/b.txt" });
    expect(existsSync(join(p.linux, "file/b.txt"))).toBe(false);
    await ok("undo", {});
    expect(text("file/b.txt")).toBe("moving\n");
  });

  it("run: cmd.exe, its status passed through", async () => {
    expect(await ok("run", { command: "echo hi" })).toContain("hi");
    const failed = await call("run", { command: "exit 3" });
    expect(failed.text).toMatch(/\b3\b/);
  });

  knownBug("rollback (rename over a target held open: EPERM)", async () => {
    p.put("rollback/r.txt", "v1\n");
    const first = await tagOf("rollback/r.txt");
    p.put("rollback/r.txt", "v2\n");
    await tagOf("rollback/r.txt");
    await ok("rollback", { path: "rollback/r.txt", hash: first });
    expect(text("rollback/r.txt")).toBe("v1\n");
  });

  knownBug("checkpoint create and restore (rename over a target held open: EPERM)", async () => {
    p.put("cp/c.txt", "before\n");
    await ok("checkpoint", { action: "create", name: "cp" });
    p.put("cp/c.txt", "after\n");
    expect(await ok("checkpoint", { action: "diff", name: "cp" })).toContain("c.txt");
    await ok("checkpoint", { action: "restore", name: "cp", apply: true });
    expect(text("cp/c.txt")).toBe("before\n");
  });
});
