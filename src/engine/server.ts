/**
 * The engine: one long-lived process per user and setup (place.ts) that
 * runs `splice` command lines for thin clients (client.ts), with every
 * root's state kept warm between them — language servers, the symbol
 * index, the root's watch, the decoded-file cache, history's index. Each
 * command runs with its client's streams, folder and environment (cli/io.ts),
 * side by side with the others; writes take the same per-file locks as any
 * process, so the engine is one more writer, never a different one.
 */
import { lstatSync, renameSync, unlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { Readable } from "node:stream";
import type { CliIo } from "../cli/io.js";
import { type EngineStatus, type Frame, onFrames, send } from "./wire.js";

export interface EngineOptions {
  socket: string;
  build: string;
  version: string;
  /** Exit after this long with no client and no command running. */
  idleMs: number;
  log(line: string): void;
  /** Runs one command line with these streams to its exit code. */
  run(argv: string[], io: CliIo): Promise<number>;
  /** The roots held warm now. */
  roots(): string[];
}

export class Engine {
  readonly #o: EngineOptions;
  readonly #server: Server;
  readonly #started = new Date();
  #clients = 0;
  #running = 0;
  #answered = 0;
  #idle: NodeJS.Timeout | undefined;
  #inode: number | undefined;
  #stopping = false;

  private constructor(options: EngineOptions) {
    this.#o = options;
    this.#server = createServer((socket) => this.#connected(socket));
  }

  /**
   * Listens on a name of its own, then renames it over the socket's name:
   * two engines started at once both listen, the last rename wins, and the
   * other, unreachable, exits when idle. A stale socket is replaced the same way.
   */
  static async start(options: EngineOptions): Promise<Engine> {
    const engine = new Engine(options);
    const own = `${options.socket}.${process.pid}`;
    await new Promise<void>((resolve, reject) => {
      engine.#server.once("error", reject);
      engine.#server.listen(own, () => resolve());
    });
    renameSync(own, options.socket);
    engine.#inode = lstatSync(options.socket).ino;
    engine.#schedule();
    options.log(`engine ${process.pid} listening on ${options.socket}`);
    return engine;
  }

  status(): EngineStatus {
    return {
      pid: process.pid,
      build: this.#o.build,
      version: this.#o.version,
      socket: this.#o.socket,
      startedAt: this.#started.toISOString(),
      commands: this.#running,
      answered: this.#answered,
      roots: this.#o.roots(),
      idleExitMs: this.#o.idleMs,
      rssBytes: process.memoryUsage().rss,
    };
  }

  /** Stops taking clients, lets running commands finish, and exits. */
  async stop(why: string): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    this.#o.log(`engine stopping: ${why}`);
    clearTimeout(this.#idle);
    if (this.#ours()) unlinkSync(this.#o.socket);
    this.#server.close();
    const deadline = Date.now() + 30_000;
    while (this.#running > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    process.exit(0);
  }

  /** Whether the socket's name still leads here (another engine may have taken it). */
  #ours(): boolean {
    try {
      return lstatSync(this.#o.socket).ino === this.#inode;
    } catch {
      return false;
    }
  }

  /** Exits after the idle time with nobody connected, or at once when the name is another's. */
  #schedule(): void {
    clearTimeout(this.#idle);
    if (this.#clients > 0 || this.#running > 0) return;
    const wait = this.#ours() ? this.#o.idleMs : 1_000;
    this.#idle = setTimeout(() => {
      if (this.#clients === 0 && this.#running === 0) void this.stop("idle");
    }, wait);
  }

  #connected(socket: Socket): void {
    this.#clients++;
    clearTimeout(this.#idle);
    let greeted = false;
    let command: Command | undefined;
    socket.on("error", () => {});
    socket.on("close", () => {
      this.#clients--;
      command?.hungUp();
      this.#schedule();
    });
    onFrames(socket, (frame) => {
      if (!greeted) {
        greeted = frame.t === "hello";
        if (!greeted) return void socket.destroy();
        return send(socket, { t: "hello", build: this.#o.build, pid: process.pid });
      }
      if (command) return command.hear(frame);
      if (frame.t === "status") return send(socket, { t: "status", engine: this.status() });
      if (frame.t === "stop") {
        send(socket, { t: "exit", code: 0 });
        socket.end();
        return void this.stop("asked to");
      }
      if (frame.t === "cli") command = this.#run(socket, frame);
    });
  }

  #run(socket: Socket, frame: Extract<Frame, { t: "cli" }>): Command {
    const command = new Command(socket, frame);
    this.#running++;
    this.#o
      .run(frame.argv, command.io)
      .catch((error: unknown) => {
        command.io.stderr.write(`splice: internal error in the engine: ${String(error)}\n`);
        return 70;
      })
      .then((code) => {
        this.#running--;
        this.#answered++;
        command.io.exit(code);
        this.#schedule();
      });
    return command;
  }
}

/** One command line running for one client: its streams, as the client's. */
class Command {
  readonly io: CliIo;
  readonly #interrupts: ((signal: "SIGINT" | "SIGTERM") => void)[] = [];
  #ended = false;

  constructor(
    readonly socket: Socket,
    frame: Extract<Frame, { t: "cli" }>,
  ) {
    let asked = false;
    const stdin = Object.assign(
      new Readable({
        read: () => {
          if (asked) return;
          asked = true;
          send(socket, { t: "need-stdin" });
        },
      }),
      { isTTY: frame.tty.stdin },
    );
    this.#stdin = stdin;
    const out = (t: "out" | "err", isTTY: boolean) => ({
      write: (d: string) => void (this.#ended || send(socket, { t, d })),
      isTTY,
      ...(frame.columns ? { columns: frame.columns } : {}),
    });
    this.io = {
      stdout: out("out", frame.tty.stdout),
      stderr: out("err", frame.tty.stderr),
      stdin,
      cwd: frame.cwd,
      env: frame.env,
      warm: true,
      onInterrupt: (listener) => void this.#interrupts.push(listener),
      exit: (code) => {
        if (this.#ended) return;
        this.#ended = true;
        send(socket, { t: "exit", code });
        socket.end();
      },
    };
  }

  readonly #stdin: Readable;

  hear(frame: Frame): void {
    if (frame.t === "stdin") this.#stdin.push(Buffer.from(frame.b64, "base64"));
    else if (frame.t === "stdin-end") this.#stdin.push(null);
    else if (frame.t === "signal") for (const listener of this.#interrupts) listener(frame.name);
  }

  /** The client went away mid-command: its processes are stopped as by Ctrl-C; a write finishes. */
  hungUp(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stdin.push(null);
    for (const listener of this.#interrupts) listener("SIGINT");
  }
}
