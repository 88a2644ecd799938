/**
 * Where a command's words go and its input comes from. In a `splice`
 * process that is the process's own streams; in the engine, which runs many
 * people's commands side by side, it is the client that asked: its streams,
 * its folder, its environment. Each command runs inside one (`withIo`), so
 * what it prints reaches the terminal that typed it.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** A stream a command writes to, and what it knows of the terminal behind it. */
export interface Out {
  write(text: string): void;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliIo {
  readonly stdout: Out;
  readonly stderr: Out;
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  /** Where the person stands: relative names resolve here. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /**
   * The command runs in the engine (engine/server.ts): its roots stay open
   * and watched after it, for the next command.
   */
  readonly warm?: boolean;
  /** Called at each Ctrl-C (and, in the engine, at a SIGTERM its client was sent). */
  onInterrupt(listener: (signal: "SIGINT" | "SIGTERM") => void): void;
  /** Ends the command now with this exit code (a second Ctrl-C). */
  exit(code: number): void;
}

/** This process's own streams, taken when asked for: touching stdin opens it. */
export const processIo: CliIo = {
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  get stdin() {
    return process.stdin;
  },
  get cwd() {
    return process.cwd();
  },
  env: process.env,
  onInterrupt: (listener) => void process.on("SIGINT", () => listener("SIGINT")),
  exit: (code) => process.exit(code),
};

const current = new AsyncLocalStorage<CliIo>();

/** The streams of the command running now. */
export function io(): CliIo {
  return current.getStore() ?? processIo;
}

/** Runs a command with its client's streams. */
export function withIo<T>(streams: CliIo, fn: () => Promise<T>): Promise<T> {
  return current.run(streams, fn);
}
