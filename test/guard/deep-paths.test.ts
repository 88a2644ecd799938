/**
 * Paths no file can have, or too deep to walk, are refused as invalid input
 * before any walk: in the library, on the command line, and by a server
 * that goes on answering. A write to 2,000 nested folders (4,005 characters,
 * within PATH_MAX) once held `splice serve` until every later call timed out.
 * The CLI and MCP cases need `npm run build` (the real bin/splice).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { Project, rejection } from "../helpers/project.js";

const BIN = fileURLToPath(new URL("../../bin/splice", import.meta.url));

const DEEP = `${"d/".repeat(2000)}x.txt`;
const LONG_NAME = `${"n".repeat(256)}.txt`;

/** A path of `bytes` bytes from the file system's root, under `root`, in names of 200 bytes. */
function pathOf(root: string, bytes: number): string {
  let at = `${root}/`;
  while (bytes - at.length > 250) at += `${"n".repeat(200)}/`;
  return at + "f".repeat(bytes - at.length);
}

describe("bounded paths in the library", () => {
  it("refuses 2,000 nested folders as too deep, at once and writing nothing", async () => {
    const p = new Project();
    const splice = p.splice();
    const started = performance.now();
    const error = await rejection(splice.write({ targets: [{ path: DEEP, text: "x\n" }] }));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error.code).toBe("invalid_input");
    expect(error.details).toMatchObject({ reason: "too_deep", limit: 128 });
    expect(error.message).toContain(
      "is too deep: it is 2,001 names below the root, and splice allows at most 128. Use a path with fewer folders.",
    );
    expect(execFileSync("ls", ["-A", p.root], { encoding: "utf8" })).not.toMatch(/^d$/m);
  });

  it("refuses a 256-byte name and a 4,097-byte path, naming NAME_MAX and PATH_MAX", async () => {
    const p = new Project();
    const splice = p.splice();
    const name = await rejection(splice.write({ targets: [{ path: LONG_NAME, text: "x\n" }] }));
    expect(name.code).toBe("invalid_input");
    expect(name.details).toMatchObject({ reason: "too_long", limit: 255 });
    expect(name.message).toContain(
      "is 260 bytes long, and a file or folder name may have at most 255 (NAME_MAX). Use a shorter name.",
    );
    const long = await rejection(
      splice.write({ targets: [{ path: pathOf(p.root, 4097), text: "x\n" }] }),
    );
    expect(long.code).toBe("invalid_input");
    expect(long.details).toMatchObject({ reason: "too_long", limit: 4095 });
    expect(long.message).toContain(
      "it is 4,097 bytes long from the file system's root, and a whole path may have at most 4,095 (PATH_MAX). Use a path with fewer or shorter folder names.",
    );
  });
});

describe("bounded paths on the command line", () => {
  const splice = (root: string, args: string[]) =>
    spawnSync(BIN, [...args, "--root", root], { cwd: root, encoding: "utf8" });

  it("refuses them with exit 1 and the limit, in the person's words and in JSON", () => {
    const p = new Project();
    const name = splice(p.root, ["write", LONG_NAME, "--text", "x"]);
    expect(name.status).toBe(1);
    expect(name.stderr).toMatch(
      /^error \[invalid_input\]: Path 'n+\.txt' is too long: it is 260 bytes long, and a file or folder name may have at most 255 \(NAME_MAX\)\. Use a shorter name\.$/m,
    );
    const long = splice(p.root, ["read", pathOf(p.root, 4097)]);
    expect(long.status).toBe(1);
    expect(`${long.stdout}${long.stderr}`).toContain(
      "a whole path may have at most 4,095 (PATH_MAX)",
    );
    const deep = splice(p.root, [
      "call",
      "write",
      JSON.stringify({ targets: [{ path: DEEP, text: "x\n" }] }),
    ]);
    expect(deep.status).toBe(1);
    expect(JSON.parse(deep.stdout).error).toMatchObject({
      code: "invalid_input",
      reason: "too_deep",
      limit: 128,
    });
  });
});

describe.skipIf(process.env.SPLICE_TEST_REMOTE)("bounded paths over MCP", () => {
  const clients: Client[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => {});
  });

  async function serve(root: string): Promise<Client> {
    const client = new Client({ name: "splice-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "serve", "--root", root],
        stderr: "pipe",
      }),
    );
    clients.push(client);
    return client;
  }

  const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
    (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");

  /** Reads a.txt, failing when the answer takes longer than `ms`. */
  async function readWithin(client: Client, ms: number): Promise<string> {
    const started = performance.now();
    const read = await client.callTool(
      { name: "read", arguments: { targets: [{ path: "a.txt" }] } },
      undefined,
      { timeout: 20_000 },
    );
    expect(performance.now() - started).toBeLessThan(ms);
    return text(read);
  }

  it("answers a write to 2,000 nested folders with a coded error, then reads at once", async () => {
    const p = new Project();
    p.write("a.txt", "alpha\n");
    const client = await serve(p.root);
    const write = await client.callTool(
      { name: "write", arguments: { targets: [{ path: DEEP, text: "x\n" }] } },
      undefined,
      { timeout: 20_000 },
    );
    expect(write.isError).toBe(true);
    expect(text(write)).toMatch(/^invalid_input: Path 'd\/d\/.* is too deep: it is 2,001 names/);
    expect(await readWithin(client, 1_000)).toContain("1| alpha");
  });

  it("writes at the deepest path allowed, and reads at once after", async () => {
    const p = new Project();
    p.write("a.txt", "alpha\n");
    const client = await serve(p.root);
    const deepest = `${"d/".repeat(127)}x.txt`; // 128 names below the root
    const started = performance.now();
    const write = await client.callTool(
      { name: "write", arguments: { targets: [{ path: deepest, text: "x\n" }] } },
      undefined,
      { timeout: 20_000 },
    );
    expect(write.isError, text(write)).toBeFalsy();
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(await readWithin(client, 1_000)).toContain("1| alpha");
    const again = await client.callTool(
      { name: "read", arguments: { targets: [{ path: deepest }] } },
      undefined,
      { timeout: 20_000 },
    );
    expect(text(again)).toContain("1| x");
  });

  it("refuses a path whose link leads 1,500 folders deep at once, then reads at once", async () => {
    const p = new Project();
    p.write("a.txt", "alpha\n");
    execFileSync("mkdir", ["-p", "e/".repeat(1500)], { cwd: p.root });
    symlinkSync("e/".repeat(1500).slice(0, -1), join(p.root, "link"));
    const client = await serve(p.root);
    const started = performance.now();
    const write = await client.callTool(
      { name: "write", arguments: { targets: [{ path: "link/x.txt", text: "x\n" }] } },
      undefined,
      { timeout: 20_000 },
    );
    // Before the bound the write went through, walking 1,500 folders on each of its calls: 24 s.
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(write.isError).toBe(true);
    expect(text(write)).toBe(
      "invalid_input: Path 'link/x.txt' is too deep: a link on its way leads more than 128 names below the root, and splice allows at most 128. Use a path with fewer folders.",
    );
    expect(await readWithin(client, 1_000)).toContain("1| alpha");
  });

  it("goes on answering in a project that already holds 2,000 nested folders", async () => {
    const p = new Project();
    p.write("a.txt", "alpha\n");
    execFileSync("mkdir", ["-p", "d/".repeat(2000)], { cwd: p.root });
    writeFileSync(join(p.root, ...Array(2000).fill("d"), "deep.ts"), "export const deep = 1;\n");
    const client = await serve(p.root);
    // The server starts filling its symbol index in the background, which walks the tree.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await readWithin(client, 3_000)).toContain("1| alpha");
    expect(await readWithin(client, 1_000)).toContain("1| alpha");
  });
});
