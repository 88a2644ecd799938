import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { Project, rejection } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

/** Runs the built CLI as the unprivileged user nobody (root ignores permission bits). */
function asNobody(root: string, args: string[], input?: string) {
  const r = spawnSync(
    "setpriv",
    ["--reuid=65534", "--regid=65534", "--clear-groups", BIN, ...args, "--root", root],
    { input, encoding: "utf8" },
  );
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const canDropPrivileges = process.getuid?.() === 0 && existsSync("/usr/bin/setpriv");

/** A project folder only root may write: nobody can read its files but not make `.splice`. */
function readOnlyProject(): string {
  const root = mkdtempSync(join(tmpdir(), "splice-ro-"));
  chmodSync(root, 0o755);
  writeFileSync(join(root, "a.txt"), "hi\n");
  chmodSync(join(root, "a.txt"), 0o644);
  return root;
}

const NO_HISTORY = /splice keeps no history now \(.*\.splice cannot be written\)/;

describe("history that cannot be kept", () => {
  it.runIf(canDropPrivileges)(
    "a project folder splice cannot write: read works and says so, write is refused with a code",
    () => {
      const root = readOnlyProject();
      const read = asNobody(root, ["read", "a.txt"]);
      expect(read.code).toBe(0);
      expect(read.stdout).toContain("1| hi");
      expect(read.stderr).toMatch(NO_HISTORY);
      const write = asNobody(root, ["write", "a.txt"], "x\n");
      expect(write.code).toBe(1);
      expect(write.stderr).toContain("error [history_unavailable]: splice cannot keep its history");
      expect(write.stderr).not.toMatch(/\n\s+at /); // no stack trace
    },
  );

  it.runIf(canDropPrivileges)(
    "serve on a project folder splice cannot write: reads answer, writes are refused, the connection stays",
    async () => {
      const root = readOnlyProject();
      const client = new Client({ name: "faults", version: "1" });
      await client.connect(
        new StdioClientTransport({
          command: "setpriv",
          args: ["--reuid=65534", "--regid=65534", "--clear-groups", BIN, "serve", "--root", root],
          stderr: "pipe",
        }),
      );
      try {
        const text = (r: unknown) =>
          (r as CallToolResult).content.map((c) => (c.type === "text" ? c.text : "")).join("");
        const read = await client.callTool({
          name: "read",
          arguments: { targets: [{ path: "a.txt" }] },
        });
        expect(read.isError).toBeFalsy();
        expect(text(read)).toContain("1| hi");
        expect(text(read)).toMatch(NO_HISTORY);
        const write = await client.callTool({
          name: "write",
          arguments: { targets: [{ path: "a.txt", text: "x\n" }] },
        });
        expect(write.isError).toBe(true);
        expect(text(write)).toContain("history_unavailable");
        // The server is still there: another call on the same connection answers.
        const again = await client.callTool({
          name: "read",
          arguments: { targets: [{ path: "a.txt" }] },
        });
        expect(text(again)).toContain("1| hi");
        expect(existsSync(join(root, ".splice"))).toBe(false);
      } finally {
        await client.close();
        rmSync(root, { recursive: true, force: true });
      }
    },
  );

  it.runIf(canDropPrivileges)("a .splice folder of mode 000: read still works", () => {
    const root = readOnlyProject();
    mkdirSync(join(root, ".splice"), { mode: 0o000 });
    chmodSync(join(root, ".splice"), 0o000);
    const read = asNobody(root, ["read", "a.txt"]);
    expect(read.code).toBe(0);
    expect(read.stderr).toMatch(NO_HISTORY);
  });

  it(".splice a plain file: reads work with a warning; edits and writes refuse, naming it", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    p.write(".splice", "not a folder");
    const s = p.splice();
    const read = await s.read({ targets: [{ path: "a.txt" }] });
    expect(read.results[0]!.content).toContain("1| a");
    expect((read as { warnings?: string[] }).warnings?.join()).toMatch(NO_HISTORY);
    const tag = read.results[0]!.file_hash!;
    const edit = await rejection(
      s.edit({ targets: [{ path: "a.txt", file_hash: tag, ops: "replace 1:\n+b" }] }),
    );
    expect(edit.code).toBe("history_unavailable");
    expect(edit.message).toContain("Reads still work, without history.");
    const write = await rejection(s.write({ targets: [{ path: "b.txt", text: "b\n" }] }));
    expect(write.code).toBe("history_unavailable");
    expect(p.text("a.txt")).toBe("a\n");
    expect(existsSync(join(p.root, "b.txt"))).toBe(false);

    // Fixed while the same toolkit runs (a server): within a second it keeps history again.
    rmSync(join(p.root, ".splice"));
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    await s.write({ targets: [{ path: "b.txt", text: "b\n" }] });
    expect(p.text("b.txt")).toBe("b\n");
    expect(existsSync(join(p.root, ".splice", ".gitignore"))).toBe(true);
  });

  it("a blob replaced by a folder: a write names it and changes nothing, undo calls it missing", async () => {
    const p = new Project();
    p.write("a.txt", "v1\n");
    const s = p.splice();
    await s.read({ targets: [{ path: "a.txt" }] });
    const blob = (text: string) =>
      join(p.root, ".splice", "blobs", sha(text).slice(0, 2), sha(text).slice(2));
    rmSync(blob("v1\n"));
    mkdirSync(blob("v1\n"));
    const write = await rejection(s.write({ targets: [{ path: "a.txt", text: "v2\n" }] }));
    expect(write.code).toBe("io");
    expect(write.message).toContain(`${blob("v1\n")} is a folder where splice keeps a file`);
    expect(write.message).toContain("Move ");
    expect(p.text("a.txt")).toBe("v1\n");

    rmSync(blob("v1\n"), { recursive: true });
    await s.write({ targets: [{ path: "a.txt", text: "v2\n" }] });
    rmSync(blob("v1\n"));
    mkdirSync(blob("v1\n"));
    const undo = await rejection(s.undo({}));
    expect(undo.code).not.toBe("internal");
    expect(p.text("a.txt")).toBe("v2\n");
  });
});

describe("search faults", () => {
  it("a NUL in a glob is invalid input", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    for (const glob of ["a\u0000b", "!a\u0000b"]) {
      const error = await rejection(p.splice().search({ pattern: "a", glob }));
      expect(error.code).toBe("invalid_input");
      expect(error.message).toContain("NUL character");
    }
  });

  it("a FIFO named as the search path is refused, not waited on", { timeout: 5_000 }, async () => {
    const p = new Project();
    spawnSync("mkfifo", [join(p.root, "pipe")]);
    const error = await rejection(p.splice().search({ pattern: "a", path: "pipe" }));
    expect(error.code).toBe("not_a_file");
  });
});
