/**
 * Nothing done between calls stops the server (issue #37): `splice serve`
 * over stdio with the official SDK client, while another process removes
 * `.splice` again and again or puts a file where it was. Every call is
 * answered (a result, or an error with a code other than `internal`), the
 * server is alive at the end and the next write recreates the folder. Needs
 * `npm run build` (the real bin/splice). Before the fix the server died
 * after about a hundred writes on an ENOENT from a blob write the root
 * watch started, with no call to carry it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { RESULT_META_KEY } from "../../src/hosts/mcp/result.js";
import { ServerRegistry } from "../../src/lsp/registry.js";
import type { WriteResult } from "../../src/tools/write/index.js";
import { alive, sleep } from "../helpers/processes.js";
import { Project } from "../helpers/project.js";
import { loop, stop } from "../helpers/shell-loop.js";

const BIN = fileURLToPath(new URL("../../bin/splice", import.meta.url));
const SILENT = join(import.meta.dirname, "../lsp/fixtures/silent-server.mjs");

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `splice serve` on a fresh folder holding a.txt, with its client and its stderr so far. */
async function serve() {
  const root = mkdtempSync(join(tmpdir(), "splice-bg-"));
  writeFileSync(join(root, "a.txt"), "a\n");
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const transport = new StdioClientTransport({
    command: BIN,
    args: ["serve", "--root", root],
    stderr: "pipe",
  });
  const log = { text: "" };
  transport.stderr?.on("data", (chunk: Buffer) => {
    log.text += chunk.toString();
  });
  const client = new Client({ name: "background-failures", version: "1" });
  await client.connect(transport);
  cleanups.push(() => client.close().catch(() => {}));
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args }, undefined, {
      timeout: 10_000,
    })) as CallToolResult;
  return { root, client, call, log, pid: transport.pid! };
}

const text = (r: CallToolResult) =>
  r.content.map((c) => (c.type === "text" ? c.text : "")).join("");

/** The error code of a failed call (undefined for a result). */
const codeOf = (r: CallToolResult) =>
  r.isError
    ? ((r._meta?.[RESULT_META_KEY] as { error?: { code?: string } } | undefined)?.error?.code ??
      "no code")
    : undefined;

describe("splice serve while its state folder goes away", { timeout: 20_000 }, () => {
  it("answers 300 writes while another process removes .splice over and over, and keeps serving", async () => {
    const { root, call, log, pid } = await serve();
    const deleter = loop(`rm -rf '${join(root, ".splice")}' 2>/dev/null`, cleanups);
    const codes = new Map<string, number>();
    let written = 0;
    for (let i = 0; i < 300; i++) {
      const r = await call("write", { targets: [{ path: "a.txt", text: `v${i}\n` }] });
      const code = codeOf(r);
      if (code === undefined) written++;
      else codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    await stop(deleter);
    // Each call answered: written, or refused with a code that says what broke (never "internal").
    expect(written + [...codes.values()].reduce((a, b) => a + b, 0)).toBe(300);
    expect([...codes.keys()].filter((c) => c !== "io" && c !== "history_unavailable")).toEqual([]);
    console.log(
      `300 writes while .splice was removed: ${written} written, refused ${JSON.stringify(Object.fromEntries(codes))}`,
    );

    // Alive, and the next calls work: the folder is made again, .gitignore and all.
    expect(alive(pid)).toBe(true);
    const write = await call("write", { targets: [{ path: "a.txt", text: "final\n" }] });
    expect(codeOf(write), text(write)).toBeUndefined();
    const read = await call("read", { targets: [{ path: "a.txt" }] });
    expect(text(read)).toContain("1| final");
    const hash = /¶a\.txt#([0-9A-Z]+)/.exec(text(read))?.[1];
    expect(hash).toBeDefined();
    const edit = await call("edit", {
      targets: [{ path: "a.txt", file_hash: hash, ops: "replace 1:\n+edited" }],
    });
    expect(codeOf(edit), text(edit)).toBeUndefined();
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("edited\n");
    expect(readFileSync(join(root, ".splice", ".gitignore"), "utf8")).toBe("*\n");
    const undo = await call("undo", {});
    expect(codeOf(undo), text(undo)).toBeUndefined();
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("final\n");
    expect(log.text).not.toContain("internal error");
  });

  it("answers while .splice is a file, and recovers once it is a folder again", async () => {
    const { root, call, log, pid } = await serve();
    await call("write", { targets: [{ path: "a.txt", text: "one\n" }] });
    const state = join(root, ".splice");
    // Root ignores permission bits, so a mode-000 folder would change nothing: a file stands in.
    const asRoot = process.getuid?.() === 0;
    rmSync(state, { recursive: true, force: true });
    if (asRoot) writeFileSync(state, "not a folder\n");
    else spawnSync("sh", ["-c", `mkdir '${state}' && chmod 000 '${state}'`]);
    cleanups.push(() => spawnSync("chmod", ["-R", "u+rwx", state]));
    for (let i = 0; i < 10; i++) {
      const r = await call("write", { targets: [{ path: "a.txt", text: `v${i}\n` }] });
      expect(["io", "history_unavailable"]).toContain(codeOf(r));
      expect(text(r)).toContain(state);
    }
    // A read still shows the file, and says its version could not be kept.
    const read = await call("read", { targets: [{ path: "a.txt" }] });
    expect(text(read)).toContain("1| one");
    expect(text(read)).toContain("splice could not keep this read in its history");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("one\n");

    spawnSync("chmod", ["-R", "u+rwx", state]);
    rmSync(state, { recursive: true, force: true });
    const write = await call("write", { targets: [{ path: "a.txt", text: "two\n" }] });
    expect(codeOf(write), text(write)).toBeUndefined();
    expect(existsSync(join(state, ".gitignore"))).toBe(true);
    expect(alive(pid)).toBe(true);
    expect(log.text).not.toContain("internal error");
  });
});

describe("the server's last resort", () => {
  it("logs an error nothing caught and keeps serving; a one-shot process would have died", () => {
    const script = [
      'import { keepServing } from "./src/cli/last-resort.ts";',
      "keepServing((line) => process.stderr.write(`splice serve: ${line}\\n`));",
      'Promise.reject(new Error("a background task failed"));',
      'setTimeout(() => { throw new Error("a timer threw"); }, 10);',
      'setTimeout(() => process.stdout.write("still here"), 50);',
    ].join("\n");
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      {
        cwd: fileURLToPath(new URL("../..", import.meta.url)),
        encoding: "utf8",
      },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("still here");
    expect(run.stderr).toContain(
      "splice serve: internal error outside any call (a promise rejected and nothing handled it): Error: a background task failed",
    );
    expect(run.stderr).toContain(
      "splice serve: internal error outside any call (an exception nothing caught): Error: a timer threw",
    );
    expect(run.stderr).toContain("splice serve: the server keeps serving");
  });
});

describe("a language server killed mid-validation", { timeout: 20_000 }, () => {
  const registry = new ServerRegistry({ startTimeoutMs: 5000 });
  cleanups.push(() => registry.shutdown());

  it("answers the write with the validation it could not finish, and the next write starts a new server", async () => {
    const p = new Project();
    p.write("pyproject.toml", "[project]\nname = 'x'\n");
    const splice = p.splice({
      lsp: {
        registry,
        timeoutMs: 4_000,
        servers: { python: { command: process.execPath, args: [SILENT] } },
      },
    });
    const started = Date.now();
    const pending = splice.write({ targets: [{ path: "app.py", text: "x = 1\n" }] });
    // The silent server answers initialize and nothing after: the write waits on it, until killed.
    let pid: number | undefined;
    while (pid === undefined && Date.now() - started < 5000) {
      const status = (await splice.call("lsp_health", { language: "python" })) as {
        servers: { pid?: number; status: string }[];
      };
      const server = status.servers[0];
      if (server?.status === "ready" && server.pid) pid = server.pid;
      else await sleep(20);
    }
    expect(pid).toBeDefined();
    await sleep(100); // the validation is under way
    process.kill(pid!, "SIGKILL");
    const result = (await pending).results[0] as WriteResult;
    // Answered when the server died, not when the validation's 4 s ran out.
    expect(Date.now() - started).toBeLessThan(3_500);
    expect(result.applied).toBe(true);
    expect(p.text("app.py")).toBe("x = 1\n");
    expect(result.validation).toMatchObject({
      status: "uncertain",
      validation_confidence: "low",
      reason: "pyright exited during validation (the language server exited (signal SIGKILL)).",
    });
    const next = (await splice.write({ targets: [{ path: "app.py", text: "x = 2\n" }] }))
      .results[0] as WriteResult;
    expect(next.applied).toBe(true);
  });
});
