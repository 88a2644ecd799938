import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SpliceEvent } from "../../src/events.js";
import type { RunResult, Toolkit } from "../../src/index.js";
import { OutputLimiter } from "../../src/proc/output-limit.js";
import { runTool } from "../../src/tools/run/index.js";
import { alive } from "../helpers/processes.js";
import { Project, rejection } from "../helpers/project.js";

const run = (p: Project, args: unknown) => callAs<RunResult>(p.splice(), "run", args);

const callAs = <T>(toolkit: Toolkit, name: string, args: unknown) =>
  toolkit.call(name, args) as Promise<T>;

describe("run", () => {
  it("keeps hidden_env variables from the command, and passes the rest", async () => {
    const p = new Project();
    process.env.SPLICE_TEST_SECRET = "s3cret-value";
    process.env.SPLICE_TEST_PLAIN = "plain-value";
    try {
      const toolkit = p.splice({ hiddenEnv: ["SPLICE_TEST_SECRET"] });
      const result = await callAs<RunResult>(toolkit, "run", {
        command: 'echo "${SPLICE_TEST_SECRET:-unset} ${SPLICE_TEST_PLAIN:-unset}"',
      });
      expect(result.output).toBe("unset plain-value\n");
      const open = await run(p, { command: 'echo "${SPLICE_TEST_SECRET:-unset}"' });
      expect(open.output).toBe("s3cret-value\n"); // without the option, the environment is whole
    } finally {
      delete process.env.SPLICE_TEST_SECRET;
      delete process.env.SPLICE_TEST_PLAIN;
    }
  });

  it("returns exit codes as results, with stdout and stderr interleaved", async () => {
    const p = new Project();
    const ok = await run(p, { command: "echo out; sleep 0.1; echo err >&2; sleep 0.1; echo out2" });
    expect(ok).toMatchObject({
      command: "echo out; sleep 0.1; echo err >&2; sleep 0.1; echo out2",
      cwd: ".",
      exit_code: 0,
      signal: null,
      timed_out: false,
      output: "out\nerr\nout2\n",
      truncated: false,
    });
    expect(ok.output_file).toBeUndefined();
    const failed = await run(p, { command: "echo broken >&2; exit 3" });
    expect(failed.exit_code).toBe(3);
    expect(failed.output).toBe("broken\n");
    expect((await run(p, { command: "true" })).output).toBe("[no output]");
  });

  it("runs in a folder inside the root and refuses others", async () => {
    const p = new Project();
    p.write("sub/dir/file.txt", "x");
    const splice = p.splice();
    const result = await callAs<RunResult>(splice, "run", { command: "pwd", cwd: "sub/dir" });
    expect(result.output).toBe(`${realpathSync(join(splice.root, "sub/dir"))}\n`);
    expect(result.cwd).toBe("sub/dir");
    expect((await rejection(run(p, { command: "pwd", cwd: "../" }))).code).toBe("guard");
    const file = await rejection(run(p, { command: "pwd", cwd: "sub/dir/file.txt" }));
    expect(file.code).toBe("invalid_input");
    expect(file.message).toContain(
      'is a file, not a folder. Pass the folder that holds it, such as "sub/dir"',
    );
    const missing = await rejection(run(p, { command: "pwd", cwd: "nope" }));
    expect(missing.code).toBe("not_found");
    expect((await rejection(run(p, { command: "  " }))).code).toBe("invalid_input");
  });

  it("closes stdin, so a command that reads it ends at once", async () => {
    const p = new Project();
    const result = await run(p, { command: "cat; echo after-cat", timeout_ms: 20_000 });
    expect(result.timed_out).toBe(false);
    expect(result.exit_code).toBe(0);
    expect(result.output).toBe("after-cat\n");
  });

  it("kills the whole process group on timeout, a child that ignores SIGTERM included", async () => {
    const p = new Project();
    const started = Date.now();
    const result = await run(p, {
      command: `sh -c 'trap "" TERM; echo "grandchild $$"; exec sleep 60' & wait`,
      timeout_ms: 300,
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.timed_out).toBe(true);
    expect(result.exit_code).toBeNull();
    expect(result.signal).toBe("SIGTERM");
    const pid = Number(/grandchild (\d+)/.exec(result.output)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
    expect(result.output).toContain(
      "[timed out after 0.3 s; the command and every process it started were stopped. Pass a larger timeout_ms",
    );
    // Said once: the notice is the last line, not followed by a status line that says it again.
    expect(result.content.match(/timed out/g)).toHaveLength(1);
    expect(result.content.endsWith("or run something shorter]")).toBe(true);
  });

  it("does not wait for background processes that keep the output open", async () => {
    const p = new Project();
    const started = Date.now();
    const result = await run(p, { command: "sleep 60 & echo $!; echo done" });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.exit_code).toBe(0);
    expect(result.output).toContain("done\n[background processes still held the output");
    expect(alive(Number(result.output.split("\n")[0]))).toBe(false);
  });

  it("says a process that left the group may still run, instead of claiming it was stopped", async () => {
    const p = new Project();
    const result = await run(p, { command: "setsid sleep 60 & echo $!; echo done" });
    const pid = Number(result.output.split("\n")[0]);
    try {
      expect(alive(pid)).toBe(true);
      expect(result.output).not.toContain("were stopped");
      expect(result.output).toContain(
        "[a process outside the command's process group (started with setsid or as a daemon) still held the output after the command ended; it was not stopped and may still be running.",
      );
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  it("keeps head and tail, quotes the first and last error lines, and spills the full output", async () => {
    const p = new Project();
    const command =
      "seq 1 3000; echo 'error: first problem'; seq 1 3000; echo 'Traceback: last problem'; seq 1 300";
    const result = await run(p, { command, max_output_bytes: 1000 });
    expect(result.truncated).toBe(true);
    expect(result.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(result.output.endsWith("299\n300\n")).toBe(true);
    expect(result.output).toContain("3001| error: first problem\n6002| Traceback: last problem\n");
    expect(result.output).toMatch(
      /\[… [\d.]+ KiB \([\d,]+ lines\) elided from the middle; error-looking lines from that part:\]/,
    );
    expect(result.output_file).toMatch(/^\.splice\/runs\/[\w-]+\.log$/);
    expect(result.output).toContain(
      `[full output in ${result.output_file}; view parts of it with run, e.g. "sed -n '2991,3031p' ${result.output_file}"`,
    );
    const full = execFileSync("sh", ["-c", command]);
    expect(readFileSync(join(p.root, result.output_file!)).equals(full)).toBe(true);
    // The kept part stays within the budget plus the notices.
    expect(result.output.length).toBeLessThan(1000 + 600);
  });

  it("handles a command that prints 100 MB with bounded memory", async () => {
    const p = new Project();
    let peak = 0;
    const base = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss - base);
    }, 10);
    const result = await run(p, { command: "head -c 100000000 /dev/zero | tr '\\0' 'a'" });
    clearInterval(sampler);
    expect(result.exit_code).toBe(0);
    expect(result.truncated).toBe(true);
    expect(result.output.length).toBeLessThan(31_000);
    // (a boolean, so a failure does not print 30 KB of "a")
    expect(result.output.includes("\n[… 95.3 MiB elided from the middle]\n[full output in")).toBe(
      true,
    );
    expect(statSync(join(p.root, result.output_file!)).size).toBe(100_000_000);
    expect(peak).toBeLessThan(80 * 1024 * 1024);
  });

  it("spills the full output into the history folder the options name", async () => {
    const p = new Project();
    const elsewhere = mkdtempSync(join(tmpdir(), "splice-history-"));
    const toolkit = p.splice({ history: { dir: elsewhere } });
    const result = await callAs<RunResult>(toolkit, "run", {
      command: "seq 1 3000",
      max_output_bytes: 1000,
    });
    const runs = join(realpathSync(elsewhere), "runs");
    expect(result.output_file).toMatch(new RegExp(`^${runs}/[\\w-]+\\.log$`));
    expect(readFileSync(result.output_file!, "utf8")).toBe(
      execFileSync("seq", ["1", "3000"], { encoding: "utf8" }),
    );
    expect(existsSync(join(p.root, ".splice/runs"))).toBe(false);
  });

  it("removes colour codes", async () => {
    const p = new Project();
    const result = await run(p, { command: "printf '\\033[31mred\\033[0m plain\\n'" });
    expect(result.output).toBe("red plain\n");
  });

  it("keeps only the newest spilled logs", async () => {
    const p = new Project();
    for (let i = 0; i < 22; i++) await run(p, { command: "seq 1 1000", max_output_bytes: 1000 });
    const logs = readdirSync(join(p.root, ".splice/runs")).filter((n) => n.endsWith(".log"));
    expect(logs).toHaveLength(20);
  });

  it("stops the process group when the call is aborted", async () => {
    const p = new Project();
    const splice = p.splice();
    const controller = new AbortController();
    const started = Date.now();
    const call = splice.call(
      "run",
      { command: "sleep 60 & echo $! > sleeper.pid; wait" },
      { signal: controller.signal },
    ) as Promise<RunResult>;
    setTimeout(() => controller.abort(), 300);
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(alive(Number(p.text("sleeper.pid")))).toBe(false);
  });

  it("publishes an exit_status event and describes itself for approval", async () => {
    const p = new Project();
    const splice = p.splice();
    const events: SpliceEvent[] = [];
    splice.events.on((e) => events.push(e));
    await callAs<RunResult>(splice, "run", { command: "exit 2" });
    expect(events).toEqual([
      {
        type: "exit_status",
        command: "exit 2",
        cwd: ".",
        exitCode: 2,
        signal: null,
        timedOut: false,
        durationMs: expect.any(Number),
      },
    ]);
    expect(runTool.needsApproval).toBe(true);
    expect(runTool.summarize({ command: "npm test" })).toEqual({
      subject: "npm test",
      summary: "run npm test",
    });
  });

  it("has a manual with an example for every optional field", () => {
    for (const field of ["cwd", "timeout_ms", "max_output_bytes"]) {
      expect(runTool.manual).toContain(`"${field}"`);
    }
    expect(runTool.manual).toContain(
      "elided from the middle; error-looking lines from that part:]",
    );
  });
});

describe("OutputLimiter", () => {
  const lines = Array.from({ length: 5000 }, (_, i) =>
    i === 1999 ? "npm error: first" : i === 3999 ? "test FAILED last" : `line ${i + 1}`,
  );
  const stream = Buffer.from(`${lines.join("\n")}\n`);

  it("finds error lines split across chunks and numbers them in the full output", () => {
    for (const size of [1, 7, 4096, stream.length]) {
      const written: Buffer[] = [];
      const limiter = new OutputLimiter(2000, () => ({
        write: (b) => written.push(Buffer.from(b)),
      }));
      for (let i = 0; i < stream.length; i += size) limiter.push(stream.subarray(i, i + size));
      const out = limiter.finish();
      expect(out.errorLines).toEqual([
        { line: 2000, text: "npm error: first" },
        { line: 4000, text: "test FAILED last" },
      ]);
      expect(out.head.startsWith("line 1\nline 2\n")).toBe(true);
      expect(out.head.endsWith("\n")).toBe(true);
      expect(out.tail.endsWith("line 5000\n")).toBe(true);
      expect(out.head.length + out.tail.length + out.elidedBytes).toBe(stream.length);
      expect(Buffer.concat(written).equals(stream)).toBe(true);
      const shownLines = `${out.head}${out.tail}`.split("\n").length - 1;
      expect(shownLines + out.elidedLines).toBe(5000);
    }
  });

  it("keeps everything and opens no sink while within the budget", () => {
    let opened = false;
    const limiter = new OutputLimiter(1000, () => {
      opened = true;
      return undefined;
    });
    limiter.push(Buffer.from("a\n".repeat(500)));
    const out = limiter.finish();
    expect(out).toMatchObject({ truncated: false, elidedBytes: 0, tail: "" });
    expect(out.head).toBe("a\n".repeat(500));
    expect(opened).toBe(false);
  });
});
