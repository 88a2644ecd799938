/**
 * The engine through the real `splice` command (bin/splice, as built): it
 * starts on first use, answers the next commands warm, runs each with its
 * client's folder, environment and stdin, and is never a reason a command
 * fails — not private, killed, stale or stopped, the command still runs.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { alive, sleep } from "../helpers/processes.js";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");
const built = existsSync(join(import.meta.dirname, "../../dist/cli-bundle/engine-process.js"));

/** Each test's engines live in their own runtime folder, so they are its own. */
let runtime = "";
const started: number[] = [];

function envOf(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime };
  delete env.SPLICE_ENGINE;
  return { ...env, ...extra };
}

function splice(args: string[], o: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}) {
  const r = spawnSync(BIN, args, {
    cwd: o.cwd,
    env: o.env ?? envOf(),
    input: o.input,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function status(env = envOf()): { pid: number; roots: string[]; answered: number } | undefined {
  const r = splice(["engine", "status", "--json"], { env });
  if (r.code !== 0) return undefined;
  const s = JSON.parse(r.stdout) as { pid: number; roots: string[]; answered: number };
  started.push(s.pid);
  return s;
}

async function until(check: () => boolean, ms = 10_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await sleep(50);
  }
  return true;
}

describe.skipIf(!built)("the engine", () => {
  afterEach(() => {
    splice(["engine", "stop"]);
    for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
  });

  function fresh(): Project {
    runtime = mkdtempSync(join(tmpdir(), "splice-runtime-"));
    chmodSync(runtime, 0o700);
    const p = new Project();
    p.write("a.txt", "one\ntwo\n");
    return p;
  }

  it("starts on the first command, answers the next ones, and says so with --verbose", () => {
    const p = fresh();
    expect(status()).toBeUndefined();
    const first = splice(["read", "a.txt", "--root", p.root, "--verbose"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("1| one");
    const s = status()!;
    expect(s.roots).toEqual([p.root]);
    const second = splice([
      "edit",
      "a.txt",
      "--old",
      "two",
      "--new",
      "three",
      "--root",
      p.root,
      "--verbose",
    ]);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`running in the engine (pid ${s.pid})`);
    expect(p.text("a.txt")).toBe("one\nthree\n");
    expect(status()!.pid).toBe(s.pid);
    // Its socket is in a folder only this user reaches.
    const folder = join(runtime, "splice");
    expect(readdirSync(folder).some((n) => n.endsWith(".sock"))).toBe(true);
  });

  it("runs a command in its client's folder, environment and stdin", () => {
    const p = fresh();
    mkdirSync(join(p.root, "sub"));
    writeFileSync(
      join(p.root, "sub", "fix.diff"),
      "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n",
    );
    expect(splice(["read", "a.txt", "--root", p.root]).code).toBe(0);
    // A relative name is where the person stands, not where the engine started.
    const patched = splice(["patch", "fix.diff", "--apply"], { cwd: join(p.root, "sub") });
    expect(patched.stderr).toBe("");
    expect(p.text("a.txt")).toBe("one\n2\n");
    const run = splice(["run", "echo $GREETING", "--root", p.root], {
      env: envOf({ GREETING: "hello from the client" }),
    });
    expect(run.stdout).toContain("hello from the client");
    const piped = splice(["write", "b.txt", "--root", p.root], { input: "from stdin\n" });
    expect(piped.code, piped.stderr).toBe(0);
    expect(p.text("b.txt")).toBe("from stdin\n");
    const called = splice(["call", "read", "-", "--root", p.root], {
      input: JSON.stringify({ targets: [{ path: "b.txt" }] }),
    });
    expect(JSON.parse(called.stdout).results[0].content).toContain("from stdin");
    expect(status()!.answered).toBeGreaterThanOrEqual(5);
  });

  it("runs the command here when the socket's folder is not private", () => {
    const p = fresh();
    const folder = join(runtime, "splice");
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    const r = splice(["read", "a.txt", "--root", p.root, "--verbose"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("1| one");
    expect(r.stderr).toContain("can be reached by other users (mode 755); running in this process");
    if (process.getuid?.() === 0) {
      chmodSync(folder, 0o700);
      chownSync(folder, 65534, 65534);
      const other = splice(["read", "a.txt", "--root", p.root, "--verbose"]);
      expect(other.stderr).toContain("belongs to another user; running in this process");
    }
    expect(readdirSync(folder)).toEqual([]);
  });

  it("keeps a command in this process with --no-engine or SPLICE_ENGINE=0", () => {
    const p = fresh();
    const flag = splice(["read", "a.txt", "--root", p.root, "--no-engine", "--verbose"]);
    expect(flag.stdout).toContain("1| one");
    expect(flag.stderr).toContain("running in this process: --no-engine was given");
    const env = splice(["read", "a.txt", "--root", p.root, "--verbose"], {
      env: envOf({ SPLICE_ENGINE: "0" }),
    });
    expect(env.stderr).toContain("running in this process: SPLICE_ENGINE=0 is set");
    expect(status()).toBeUndefined();
  });

  it("replaces an engine that was killed, even mid-command, and loses nothing", async () => {
    const p = fresh();
    expect(splice(["read", "a.txt", "--root", p.root]).code).toBe(0);
    const { pid } = status()!;
    const child = spawn(BIN, ["run", "sleep 30", "--root", p.root], { env: envOf() });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(await until(() => status()?.answered !== undefined && stderr === "" && alive(pid))).toBe(
      true,
    );
    await sleep(500);
    process.kill(pid, "SIGKILL");
    expect(await closed).toBe(70);
    expect(stderr).toContain("the engine stopped while it ran this command");
    // The socket it left is stale: the next command starts another engine.
    const again = splice(["edit", "a.txt", "--old", "one", "--new", "1", "--root", p.root]);
    expect(again.code, again.stderr).toBe(0);
    expect(p.text("a.txt")).toBe("1\ntwo\n");
    expect(status()!.pid).not.toBe(pid);
  });

  it("stops when asked, and after its idle time", async () => {
    const p = fresh();
    expect(splice(["read", "a.txt", "--root", p.root]).code).toBe(0);
    const { pid } = status()!;
    expect(splice(["engine", "stop"]).stdout).toContain(`Stopped engine ${pid}`);
    expect(await until(() => !alive(pid))).toBe(true);
    expect(splice(["engine", "status"]).code).toBe(1);
    // Long enough for status to see it on a loaded machine, short enough to wait for.
    const env = envOf({ SPLICE_ENGINE_IDLE: "3" });
    expect(splice(["read", "a.txt", "--root", p.root], { env }).code).toBe(0);
    const idle = status(env)!;
    expect(await until(() => !alive(idle.pid), 15_000)).toBe(true);
  });

  it("answers commands side by side", async () => {
    const p = fresh();
    for (let i = 0; i < 6; i++) p.write(`f${i}.txt`, `value ${i}\n`);
    expect(splice(["read", "a.txt", "--root", p.root]).code).toBe(0);
    const runs = Array.from(
      { length: 6 },
      (_, i) =>
        new Promise<number | null>((resolve) => {
          const child = spawn(
            BIN,
            ["edit", `f${i}.txt`, "--old", `value ${i}`, "--new", `edited ${i}`, "--root", p.root],
            { env: envOf() },
          );
          child.on("close", resolve);
        }),
    );
    expect(await Promise.all(runs)).toEqual([0, 0, 0, 0, 0, 0]);
    for (let i = 0; i < 6; i++) expect(p.text(`f${i}.txt`)).toBe(`edited ${i}\n`);
  });
});
