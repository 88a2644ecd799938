import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { History } from "../../src/history/history.js";
import { sha256 as sha256Hex } from "../../src/util/hash.js";
import { journalLines, tempDir } from "./helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");

/** Run a fixture in a real node process (TypeScript through the tsx loader). */
function runFixture(name: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", join(here, "fixtures", name), ...args], {
    cwd: repo,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function collectOutput(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8").on("data", (d: string) => {
    out += d;
  });
  child.stderr?.setEncoding("utf8").on("data", (d: string) => {
    err += d;
  });
  return { stdout: () => out, stderr: () => err };
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the child process");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("several processes", () => {
  it("concurrent appends from two processes interleave whole lines", async () => {
    const dir = join(tempDir(), ".splice");
    History.open({ dir, session: "parent" });
    const count = 200;
    const children = ["p", "q"].map((name) => {
      const child = runFixture("appender.ts", [dir, name, String(count)]);
      return { name, child, output: collectOutput(child) };
    });
    await until(() => children.every((c) => c.output.stdout().includes("ready")), 20_000);
    writeFileSync(join(dir, "go"), "");
    const results = await Promise.all(children.map((c) => exited(c.child)));
    for (const [i, result] of results.entries()) {
      expect(result, children[i]!.output.stderr()).toEqual({ code: 0, signal: null });
    }

    const lines = journalLines(dir);
    expect(lines).toHaveLength(2 * count);
    const seen = new Map<string, number[]>([
      ["p", []],
      ["q", []],
    ]);
    for (const line of lines) {
      const event = JSON.parse(line) as { session: string; path: string };
      seen.get(event.session)!.push(Number(event.path.split("/")[1]));
    }
    const all = Array.from({ length: count }, (_, i) => i);
    expect(seen.get("p")).toEqual(all);
    expect(seen.get("q")).toEqual(all);
    // The two runs really overlapped: the sessions' lines are interleaved.
    const sessions = lines.map((l) => (JSON.parse(l) as { session: string }).session);
    expect(sessions.slice(0, count).filter((s) => s === "q").length).toBeGreaterThan(0);

    const history = History.open({ dir, session: "p" });
    expect(history.stats().events).toBe(2 * count);
    expect(history.hasSeen("p/1", sha256Hex(new TextEncoder().encode("p 1 after")))).toBe(true);
  });

  it("a compaction running beside an appending process loses none of its events", async () => {
    const dir = join(tempDir(), ".splice");
    const compactor = History.open({ dir, session: "gc", maxEntries: 1 });
    writeFileSync(join(dir, "go"), "");
    const count = 150;
    const child = runFixture("appender.ts", [dir, "p", String(count), "shared"]);
    const output = collectOutput(child);
    let compactions = 0;
    while (child.exitCode === null && child.signalCode === null) {
      compactor.collect();
      compactions++;
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(await exited(child), output.stderr()).toEqual({ code: 0, signal: null });
    expect(compactions).toBeGreaterThan(5);

    const history = History.open({ dir, session: "p" });
    for (let i = 0; i < count; i++) {
      const path = i % 2 === 0 ? `p/${i}/${"p".repeat(200 + ((i * 37) % 1500))}` : `p/${i}`;
      expect(history.versions(path).length, `event ${i}`).toBeGreaterThan(0);
    }
    const last = sha256Hex(new TextEncoder().encode(`p ${count - 1}`));
    expect(history.latestKnown("shared.txt")).toBe(last);
    for (const line of journalLines(dir)) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("every blob a returned recordWrite named survives a SIGKILL", async () => {
    const dir = join(tempDir(), ".splice");
    const child = runFixture("writer.ts", [dir]);
    const output = collectOutput(child);
    const reported = () =>
      output
        .stdout()
        .split("\n")
        .filter((l) => l.endsWith("}"));
    await until(() => reported().length >= 40 || child.exitCode !== null, 20_000);
    child.kill("SIGKILL");
    expect(await exited(child), output.stderr()).toEqual({ code: null, signal: "SIGKILL" });

    const writes = reported().map(
      (l) => JSON.parse(l) as { i: number; path: string; before: string; after: string },
    );
    expect(writes.length).toBeGreaterThanOrEqual(40);
    const history = History.open({ dir, session: "writer" });
    for (const w of writes) {
      for (const sha of [w.before, w.after]) {
        const blob = history.getBlob(sha);
        expect(blob, `blob ${sha} of write ${w.i}`).toBeDefined();
        expect(sha256Hex(blob!)).toBe(sha);
      }
      const versions = history.versions(w.path).map((v) => v.sha);
      expect(versions).toContain(w.after);
      expect(versions).toContain(w.before);
      expect(history.hasSeen(w.path, w.after)).toBe(true);
    }
    // The journal may end in a torn line; the store keeps working past it.
    const next = history.recordRead("after-crash.txt", new TextEncoder().encode("ok"), "0000");
    expect(History.open({ dir, session: "writer" }).lastRead("after-crash.txt")?.sha).toBe(
      next.sha,
    );
  });
});
