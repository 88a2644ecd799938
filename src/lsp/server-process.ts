/**
 * A language server's process: its own process group (so stopping it also
 * stops what it started, like tsserver), pipes that never keep Node alive,
 * the tail of what it said on stderr, and one ref'd timer while anyone waits
 * on it — so an idle server never holds a finished program, and a pending
 * answer always does.
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { Launch } from "./servers.js";

const STDERR_TAIL = 4096;

function unref(stream: unknown) {
  (stream as { unref?: () => void } | null)?.unref?.();
}

export class ServerProcess {
  readonly pid: number | undefined;
  exited = false;
  /** The last bytes the server wrote to stderr, for error messages. */
  stderr = "";
  private readonly child: ChildProcess;
  private killed = false;
  private holds = 0;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(launch: Launch, cwd: string, onExit: () => void) {
    const exit = () => {
      if (this.exited) return;
      this.exited = true;
      onExit();
    };
    this.child = spawn(launch.command, launch.args, {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
      detached: process.platform !== "win32",
      env: process.env,
    });
    this.pid = this.child.pid;
    this.child.unref();
    for (const s of [this.child.stdin, this.child.stdout, this.child.stderr]) unref(s);
    this.child.stdin?.on("error", () => {}); // EPIPE once it died; the exit reports it
    this.child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    // "close" comes once the pipes are drained (the stderr tail is complete); a child that
    // left its pipes to a grandchild gets a moment, then counts as gone anyway.
    this.child.on("close", exit);
    this.child.on("exit", () => setTimeout(exit, 200).unref());
    this.child.on("error", (error) => {
      this.stderr += `\n${error.message}`;
      exit();
    });
  }

  get stdout(): Readable {
    return this.child.stdout!;
  }

  get stdin(): Writable {
    return this.child.stdin!;
  }

  /** How it ended and the first thing it said on stderr, for messages. */
  exitDetail(): string {
    const code = this.child.exitCode;
    const signal = this.child.signalCode;
    const how = signal ? `signal ${signal}` : code !== null ? `code ${code}` : "";
    const said = this.stderr.trim().split("\n").find(Boolean)?.slice(0, 200);
    return [how, said].filter(Boolean).join(": ");
  }

  /** Keeps Node alive until the returned release is called. */
  hold(): () => void {
    if (this.holds++ === 0) this.keepAlive = setInterval(() => {}, 60_000);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) clearInterval(this.keepAlive);
    };
  }

  /** SIGKILL to the whole group at once; safe to call twice and from an exit handler. */
  kill(): void {
    const pid = this.child.pid;
    if (pid === undefined || this.killed) return;
    this.killed = true;
    // The group even when the leader is gone: what it started may live on.
    try {
      if (process.platform === "win32") this.child.kill("SIGKILL");
      else process.kill(-pid, "SIGKILL");
    } catch {}
  }
}
