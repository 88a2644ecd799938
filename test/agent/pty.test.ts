/**
 * At a real terminal (a pseudo-terminal made by util-linux `script`): a
 * command's output is a window of its last lines redrawn in place, then a
 * summary of the whole; the turn ends with its tokens.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, KEY } from "./agent-process.js";
import { FakeAnthropic } from "./fake-anthropic.js";

const hasScript = spawnSync("script", ["--version"]).status === 0;
const servers: FakeAnthropic[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

describe.skipIf(!hasScript)("splice agent at a terminal", { timeout: 60_000 }, () => {
  it("shows a running command in a tail window, then its summary and the turn's tokens", async () => {
    const root = mkdtempSync(join(tmpdir(), "splice-pty-"));
    const server = await FakeAnthropic.start([
      {
        kind: "reply",
        blocks: [{ tool: "run", input: { command: "seq 1 15; sleep 0.5; echo end" } }],
      },
      { kind: "reply", blocks: [{ text: "Done." }] },
    ]);
    servers.push(server);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (v !== undefined && !/^(ANTHROPIC_|SPLICE_)/.test(k)) env[k] = v;
    }
    const command = [BIN, "agent", "--yes", "--root", root, "go"].map(quote).join(" ");
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      env: {
        ...env,
        HOME: root,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: KEY,
        NO_COLOR: "1",
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      // Ctrl-D at the prompt once the turn is over.
      if (/\[tokens: [^\]]*\]/.test(out) && !child.stdin.writableEnded) child.stdin.end("\x04");
    });
    const timer = setTimeout(() => child.kill(), 30_000);
    await new Promise((resolve) => child.on("exit", resolve));
    clearTimeout(timer);
    const screen = out.replace(/\r\n/g, "\n");
    // While it ran: at most six lines, erased before each redraw.
    expect(screen).toContain("  │ 10\n  │ 11\n  │ 12\n  │ 13\n  │ 14\n  │ 15\n\x1b[6A\x1b[0J");
    expect(screen).not.toContain("  │ 9\n  │ 10\n  │ 11\n  │ 12\n  │ 13\n  │ 14\n  │ 15\n\x1b[");
    // After: how much there was and the last ten lines, then the call's line.
    expect(screen).toContain(
      "\x1b[6A\x1b[0J  │ [16 lines; the last 10:]\n  │ 7\n  │ 8\n  │ 9\n  │ 10\n  │ 11\n  │ 12\n  │ 13\n  │ 14\n  │ 15\n  │ end\n[ok] run seq 1 15; sleep 0.5; echo end\nDone.\n[tokens: 20 in · 40 out]\n",
    );
  });
});
