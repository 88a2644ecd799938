/**
 * The ripgrep process: spawn the binary the `@vscode/ripgrep` package ships,
 * parse its `--json` lines as they stream in, and stop it the moment the
 * caller has seen enough (or the context is aborted).
 */
import { type ChildProcessByStdio, execFile, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { rgPath } from "@vscode/ripgrep";
import { ToolError } from "../errors.js";
import { exhaustedError } from "./exhausted.js";

/** rg's JSON strings: `text` when valid UTF-8, otherwise base64 `bytes`. */
export interface RgData {
  text?: string;
  bytes?: string;
}

export interface RgLine {
  path: RgData;
  lines: RgData;
  line_number: number | null;
  submatches: { start: number; end: number }[];
}

export type RgMessage =
  | { type: "begin"; data: { path: RgData } }
  | { type: "match"; data: RgLine }
  | { type: "context"; data: RgLine }
  | { type: "end"; data: { path: RgData; binary_offset: number | null } }
  | { type: "summary"; data: unknown };

export function rgText(data: RgData): string {
  if (data.text !== undefined) return data.text;
  return Buffer.from(data.bytes ?? "", "base64").toString("utf8");
}

export interface RgOutcome {
  /** rg's exit code; null when it was stopped. */
  code: number | null;
  /** True when the caller asked to stop early. */
  stopped: boolean;
  stderr: string;
}

/** stderr beyond this is dropped: rg's messages are short, a flood adds nothing. */
const MAX_STDERR = 64 * 1024;

/**
 * Runs rg and hands each JSON message to `onMessage`; returning false stops
 * rg. Rejects with the signal's reason when aborted.
 */
/**
 * Turns a search's stdout, line by line, into rg's messages: for a search
 * that is not rg's `--json` (grep on a machine without rg).
 */
export interface LineDecoder {
  line(text: string): RgMessage[];
  /** The messages still owed once the output has ended (the last file's `end`). */
  end(): RgMessage[];
}

export interface RgStarted {
  child: ChildProcessByStdio<Writable | null, Readable, Readable>;
  /** Default: each line is one of rg's JSON messages. */
  decoder?: LineDecoder;
}

/** Starts rg (or a search that speaks for it) somewhere else, a remote root's machine. */
export type RgStarter = (args: string[]) => Promise<RgStarted>;

/** Hands each whole line of `text` to `take` until it returns false; what follows the last newline, or undefined once stopped. */
function eachLine(text: string, take: (line: string) => boolean): string | undefined {
  let from = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", from)) {
    const line = text.slice(from, nl);
    from = nl + 1;
    if (!take(line)) return undefined;
  }
  return text.slice(from);
}

function rgUnavailable(error: Error): ToolError {
  // Out of descriptors or processes is the machine's state, not a broken install.
  const exhausted = exhaustedError(error);
  if (exhausted) return exhausted;
  return new ToolError(
    "io",
    `Could not start ripgrep (${(error as NodeJS.ErrnoException).code ?? error.message}); search is unavailable.`,
    {},
    {
      tool: "run",
      say: (v) =>
        `Reinstall splice's dependencies (@vscode/ripgrep), or use ${v.tool("run")} with grep meanwhile.`,
    },
  );
}

export async function runRipgrep(
  args: string[],
  cwd: string,
  onMessage: (message: RgMessage) => boolean,
  signal?: AbortSignal,
  start?: RgStarter,
): Promise<RgOutcome> {
  if (signal?.aborted) throw signal.reason;
  const { child, decoder } = start
    ? await start(args)
    : {
        child: spawn(rgPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] }),
        decoder: undefined,
      };
  if (!child.stdout || !child.stderr) {
    // The spawn failed before its pipes existed (EMFILE): its error event, next tick, says why.
    throw rgUnavailable(await new Promise<Error>((resolve) => child.once("error", resolve)));
  }
  const { stdout, stderr: errors } = child;
  const decode = (line: string): RgMessage[] =>
    decoder ? decoder.line(line) : line.length > 0 ? [JSON.parse(line) as RgMessage] : [];
  /** Hands messages on; false once the caller has seen enough. */
  const deliver = (messages: RgMessage[]) => messages.every((m) => onMessage(m));
  return new Promise((resolve, reject) => {
    let stopped = false;
    let stderr = "";
    let partial = "";
    let failure: unknown;

    const stop = () => {
      if (stopped) return;
      stopped = true;
      stdout.removeAllListeners("data");
      child.stdin?.end(); // a remote rg is stopped there when its stdin ends
      child.kill("SIGKILL");
    };
    const onAbort = () => stop();
    signal?.addEventListener("abort", onAbort, { once: true });

    stdout.setEncoding("utf8");
    stdout.on("data", (chunk: string) => {
      try {
        const rest = eachLine(partial + chunk, (line) => deliver(decode(line)));
        if (rest === undefined) stop();
        else partial = rest;
      } catch (error) {
        failure = error;
        stop();
      }
    });
    errors.setEncoding("utf8");
    errors.on("data", (chunk: string) => {
      if (stderr.length < MAX_STDERR) stderr += chunk;
    });
    child.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(rgUnavailable(error));
    });
    child.on("close", (code) => {
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      if (decoder && !stopped && failure === undefined) {
        try {
          if (!deliver([...(partial ? decoder.line(partial) : []), ...decoder.end()]))
            stopped = true;
        } catch (error) {
          failure = error;
        }
      }
      if (failure !== undefined) {
        reject(failure);
        return;
      }
      resolve({ code: stopped ? null : code, stopped, stderr });
    });
  });
}

/**
 * Which of `paths` contain at least one of `words` (fixed strings), or
 * undefined when ripgrep could not say (the caller then reads the files).
 */
export function filesWithAny(paths: string[], words: string[]): Promise<string[] | undefined> {
  const args = ["--files-with-matches", "--fixed-strings", "--no-config", "--no-ignore"];
  args.push("--hidden", "--text", "--no-messages", ...words.flatMap((w) => ["-e", w]), "--");
  return new Promise((resolve) => {
    execFile(rgPath, [...args, ...paths], { maxBuffer: 1 << 28 }, (error, stdout) => {
      const code = (error as { code?: unknown } | null)?.code;
      // 0: matches; 1: none; anything else: let the caller read the files itself.
      if (error && code !== 1) resolve(undefined);
      else resolve(stdout.split("\n").filter(Boolean));
    });
  });
}

/**
 * The files rg lists (`--files` with these arguments, run in `cwd`), as it
 * prints them: what it printed even when it failed part way (a folder it may
 * not read), so a caller that widens a search by them finds less, never errs.
 */
export function rgFiles(args: string[], cwd: string, signal?: AbortSignal): Promise<string[]> {
  return new Promise((resolve) => {
    const options = { cwd, maxBuffer: 1 << 26, ...(signal && { signal }) };
    execFile(rgPath, ["--files", ...args], options, (_error, stdout) => {
      resolve(
        String(stdout ?? "")
          .split("\n")
          .filter(Boolean),
      );
    });
  });
}
