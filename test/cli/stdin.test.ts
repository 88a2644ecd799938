/**
 * Stdin as real pipes deliver it: several megabytes in pieces with pauses
 * between them, and a pipe another process made non-blocking (where a
 * synchronous read of fd 0 fails with EAGAIN). Every command that reads
 * stdin gets all of it. Needs `npm run build` (the real bin/splice).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

/**
 * Runs `command` with fd 0 made non-blocking, as a node parent leaves a pipe
 * it has opened as a stream: the same open file description, so the child's
 * reads of fd 0 see O_NONBLOCK too. The parent never reads it (spawnSync blocks).
 */
const NON_BLOCKING = `
process.stdin;
const r = require("node:child_process").spawnSync(process.argv[1], process.argv.slice(2), { stdio: "inherit" });
process.exit(r.status ?? 1);
`;

const PIECE = 64 * 1024;

/** `bytes` written into the child's stdin a piece at a time, `pauseMs` apart; its exit and output. */
function slowPipe(
  argv: string[],
  cwd: string,
  bytes: Buffer,
  options: { pauseMs: number; nonBlocking: boolean },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [file, args] = options.nonBlocking
    ? [process.execPath, ["-e", NON_BLOCKING, BIN, ...argv]]
    : [BIN, argv];
  const child = spawn(file, args, { cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  child.stdin.on("error", () => {}); // A child that died early is reported by its exit.
  let at = 0;
  const next = () => {
    if (at >= bytes.length) {
      child.stdin.end();
      return;
    }
    child.stdin.write(bytes.subarray(at, at + PIECE));
    at += PIECE;
    setTimeout(next, options.pauseMs);
  };
  // The first piece comes late: the child is already reading an empty pipe.
  setTimeout(next, 600);
  return new Promise((resolve) => {
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** About `mb` megabytes of lines, multi-byte characters split across pieces included. */
function bigText(mb: number): string {
  const line = `${"é".repeat(40)} ${"x".repeat(60)} ✓\n`;
  return line.repeat(Math.ceil((mb * 1024 * 1024) / Buffer.byteLength(line)));
}

describe("stdin read whole, however it arrives", () => {
  for (const nonBlocking of [false, true]) {
    const how = nonBlocking ? "a non-blocking pipe" : "a slow pipe";

    it(`splice call write - takes 4 MB of JSON through ${how}`, async () => {
      const p = new Project();
      const text = bigText(4);
      const json = Buffer.from(JSON.stringify({ targets: [{ path: "big.txt", text }] }));
      const r = await slowPipe(["call", "write", "-", "--root", p.root], p.root, json, {
        pauseMs: 5,
        nonBlocking,
      });
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(p.text("big.txt")).toBe(text);
    });

    it(`splice write, patch and plan read stdin through ${how}`, async () => {
      const p = new Project();
      const text = bigText(2);
      const w = await slowPipe(["write", "w.txt", "--root", p.root], p.root, Buffer.from(text), {
        pauseMs: 5,
        nonBlocking,
      });
      expect(w.stderr).toBe("");
      expect(w.code).toBe(0);
      expect(p.text("w.txt")).toBe(text);

      p.write("a.txt", "one\ntwo\n");
      const patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n";
      const pr = await slowPipe(
        ["patch", "-", "--apply", "--root", p.root],
        p.root,
        Buffer.from(patch),
        { pauseMs: 50, nonBlocking },
      );
      expect(pr.stderr).toBe("");
      expect(pr.code).toBe(0);
      expect(p.text("a.txt")).toBe("one\n2\n");

      const plan = JSON.stringify({
        steps: [{ tool: "write", args: { targets: [{ path: "p.txt", text: "planned\n" }] } }],
      });
      const pl = await slowPipe(
        ["plan", "-", "--apply", "--root", p.root],
        p.root,
        Buffer.from(plan),
        {
          pauseMs: 50,
          nonBlocking,
        },
      );
      expect(pl.stderr).toBe("");
      expect(pl.code).toBe(0);
      expect(p.text("p.txt")).toBe("planned\n");
    });
  }

  it("reads stdin that is a file, not a pipe", async () => {
    const p = new Project();
    const text = bigText(1);
    const input = join(p.root, "..", `${p.root.split("/").pop()}-input.txt`);
    writeFileSync(input, text);
    const r = await new Promise<number | null>((resolve) => {
      const sh = spawn("sh", ["-c", `"${BIN}" write f.txt --root "${p.root}" < "${input}"`], {
        cwd: p.root,
        stdio: "ignore",
      });
      sh.on("close", resolve);
    });
    expect(r).toBe(0);
    expect(p.text("f.txt")).toBe(text);
  });
});
