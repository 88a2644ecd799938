/**
 * The `splice` command's thin side: it hands the command line to the
 * engine (server.ts) and plays back what comes: stdout, stderr, the exit
 * code; it passes stdin when the command reads it, and Ctrl-C. It loads
 * nothing of splice itself, so a command costs little more than starting
 * node. No engine yet: it starts one, detached, for the next commands too.
 * No engine at all (not startable, not private, gone mid-way): the caller
 * runs the command in this process, as before there was an engine.
 */
import { spawn } from "node:child_process";
import { openSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { buildId, engineEnv, engineKey, logPath, privateFolder, socketPath } from "./place.js";
import { type EngineStatus, type Frame, onFrames, send } from "./wire.js";

/** How long a command waits for an engine it started (its first start loads everything once). */
const START_WAIT_MS = 5_000;
/** The exit code of a command the engine dropped mid-way (EXIT.internal). */
const LOST = 70;

export interface Reach {
  /** Start an engine when none answers. */
  start: boolean;
  /** The engine process's entry (cli/engine-process.js beside the caller). */
  entry: string;
  env: NodeJS.ProcessEnv;
}

/** An open connection to this setup's engine, or why there is none. */
export async function reachEngine(
  reach: Reach,
): Promise<{ socket: Socket; pid: number } | { why: string }> {
  let path: string;
  let folder: string;
  const build = buildId();
  const key = engineKey(reach.env, build);
  try {
    folder = privateFolder(reach.env);
    path = socketPath(folder, key);
  } catch (error) {
    return { why: `no private folder for its socket: ${(error as Error).message}` };
  }
  const first = await hello(path, build);
  if (!("why" in first) || !reach.start) return first;
  startEngine(reach, folder, key, path, build);
  const until = Date.now() + START_WAIT_MS;
  for (;;) {
    await new Promise((r) => setTimeout(r, 25));
    const next = await hello(path, build);
    if (!("why" in next) || Date.now() > until) return next;
  }
}

function startEngine(reach: Reach, folder: string, key: string, path: string, build: string) {
  const log = openSync(logPath(folder, key), "a", 0o600);
  // With this process's node flags (--preserve-symlinks, a heap size): modules resolve as here.
  const args = [...process.execArgv, reach.entry, "--socket", path, "--build", build];
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ["ignore", log, log],
    env: engineEnv(reach.env),
    cwd: folder,
  });
  child.unref();
}

/** Connects and greets; an engine of another build is no engine for this command. */
function hello(
  path: string,
  build: string,
): Promise<{ socket: Socket; pid: number } | { why: string }> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const fail = (why: string) => {
      socket.destroy();
      resolve({ why });
    };
    socket.once("error", (error: NodeJS.ErrnoException) => fail(`none answers (${error.code})`));
    socket.once("connect", () => send(socket, { t: "hello", build }));
    let greeted = false;
    onFrames(socket, (frame) => {
      if (greeted) return;
      greeted = true;
      socket.removeAllListeners("error");
      if (frame.t !== "hello" || frame.build !== build) return fail("it is of another build");
      socket.pause();
      resolve({ socket, pid: frame.pid ?? 0 });
    });
  });
}

/** Runs the command line in the engine; its exit code, as the engine said. */
export function runInEngine(socket: Socket, argv: string[]): Promise<number> {
  return new Promise((resolve) => {
    let code: number | undefined;
    let presses = 0;
    process.on("SIGINT", () => {
      // The engine decides what Ctrl-C does; a third press leaves it to finish alone.
      if (++presses > 2) process.exit(130);
      send(socket, { t: "signal", name: "SIGINT" });
    });
    // SIGTERM asks the command to stop, as it would ask a process of its own (serve ends cleanly).
    process.on("SIGTERM", () => send(socket, { t: "signal", name: "SIGTERM" }));
    socket.removeAllListeners("data");
    const out = spacedWriter();
    onFrames(socket, (frame) => {
      if (frame.t === "out") out(frame.d);
      else if (frame.t === "err") process.stderr.write(frame.d);
      else if (frame.t === "need-stdin") passStdin(socket);
      else if (frame.t === "exit") code = frame.code;
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      if (code === undefined) {
        process.stderr.write(
          "splice: the engine stopped while it ran this command; what it wrote is whole or not written. See what it did with: splice undo --list\n",
        );
      }
      // A stdin nobody closed (a server's client still holding it) must not keep this process up.
      process.stdin.destroy();
      void out("").then(() => resolve(code ?? LOST));
    });
    const { stdin, stdout, stderr } = process;
    send(socket, {
      t: "cli",
      argv,
      cwd: process.cwd(),
      env: process.env,
      tty: {
        stdin: stdin.isTTY === true,
        stdout: stdout.isTTY === true,
        stderr: stderr.isTTY === true,
      },
      ...(stdout.columns ? { columns: stdout.columns } : {}),
    });
    socket.resume();
  });
}

/**
 * Writes stdout pieces in order, as far apart as the engine wrote them: two
 * that one socket read brought together would reach a reader as one chunk,
 * and an MCP client drops a progress notification read in the same chunk as
 * its call's result (hosts/mcp/progress.ts spaces them for that).
 */
function spacedWriter(): (text: string) => Promise<void> {
  let queue = Promise.resolve();
  let last = 0;
  return (text) => {
    queue = queue.then(async () => {
      const wait = last + SPACING_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (text !== "") process.stdout.write(text);
      last = Date.now();
    });
    return queue;
  };
}

/** How far apart two stdout pieces are written at least. */
const SPACING_MS = 2;

function passStdin(socket: Socket): void {
  process.stdin.on("data", (chunk: Buffer) =>
    send(socket, { t: "stdin", b64: chunk.toString("base64") }),
  );
  process.stdin.on("end", () => send(socket, { t: "stdin-end" }));
  process.stdin.on("error", () => send(socket, { t: "stdin-end" }));
}

/** Asks the engine something and returns its one answer (status, stop). */
export function ask(socket: Socket, frame: Frame): Promise<Frame | undefined> {
  return new Promise((resolve) => {
    socket.removeAllListeners("data");
    onFrames(socket, (answer) => {
      resolve(answer);
      socket.end();
    });
    socket.on("close", () => resolve(undefined));
    send(socket, frame);
    socket.resume();
  });
}

export type { EngineStatus };

/** Stops this setup's engine, if one runs; whether one did. */
export async function stopEngine(env: NodeJS.ProcessEnv): Promise<boolean> {
  const reached = await reachEngine({ start: false, entry: "", env });
  if ("why" in reached) return false;
  await ask(reached.socket, { t: "stop" });
  return true;
}
