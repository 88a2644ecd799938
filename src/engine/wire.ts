/**
 * What crosses the engine's socket: one JSON object per line, each with a
 * type `t`. A client says hello (its build), then asks for one thing: a
 * command line to run (`cli`), the engine's status, or that it stop. While
 * a command runs, its output comes back as `out`/`err` pieces, it may ask
 * for stdin (`need-stdin`, answered by `stdin` pieces and `stdin-end`), the
 * client passes Ctrl-C and SIGTERM on (`signal`), and `exit` ends it with a code.
 */
import type { Socket } from "node:net";

export type Frame =
  | { t: "hello"; build: string; pid?: number }
  | {
      t: "cli";
      argv: string[];
      cwd: string;
      env: Record<string, string | undefined>;
      tty: { stdin: boolean; stdout: boolean; stderr: boolean };
      columns?: number;
    }
  | { t: "status" }
  | { t: "stop" }
  | { t: "out"; d: string }
  | { t: "err"; d: string }
  | { t: "need-stdin" }
  | { t: "stdin"; b64: string }
  | { t: "stdin-end" }
  | { t: "signal"; name: "SIGINT" | "SIGTERM" }
  | { t: "exit"; code: number }
  | { t: "status"; engine: EngineStatus };

/** What `splice engine status` shows. */
export interface EngineStatus {
  pid: number;
  build: string;
  version: string;
  socket: string;
  startedAt: string;
  /** Commands running now. */
  commands: number;
  /** Commands answered since it started. */
  answered: number;
  /** Roots it holds open (warm), by path. */
  roots: string[];
  idleExitMs: number;
  rssBytes: number;
}

export function send(socket: Socket, frame: Frame): void {
  if (!socket.destroyed && socket.writable) socket.write(`${JSON.stringify(frame)}\n`);
}

/** Calls `on` with each whole frame the socket brings; a line that is no frame ends the connection. */
export function onFrames(socket: Socket, on: (frame: Frame) => void): void {
  let pending = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf("\n");
    while (newline !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
      let frame: Frame;
      try {
        frame = JSON.parse(line) as Frame;
      } catch {
        socket.destroy();
        return;
      }
      if (typeof frame === "object" && frame !== null && typeof frame.t === "string") on(frame);
    }
  });
}
