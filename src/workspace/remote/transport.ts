/**
 * A transport: a command that runs its last argument, one shell line, on
 * another machine (`ssh -o BatchMode=yes dev@box`, `docker exec -i ctr sh -c`,
 * `kubectl exec -i pod -- sh -c`, or plain `sh -c` for this one). It forwards
 * stdin, keeps stdout and stderr apart, and ends with the remote exit status,
 * or 255 when the transport itself failed.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { ToolError } from "../../errors.js";

export interface RunResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export interface RunOptions {
  /** Bytes sent to the script's stdin (none: stdin is closed at once). */
  stdin?: Uint8Array;
  signal?: AbortSignal;
}

/** How many scripts one host runs at once by default: sshd's MaxSessions is 10. */
export const DEFAULT_IN_FLIGHT = 8;

/** Waits its turn: at most `limit` holders at once. */
class Semaphore {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.#free = limit;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

/** Splits a command line as a POSIX shell would (quotes and backslashes; no expansions). */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw new Error(`unclosed ' in ${line}`);
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word ??= "";
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === "\\" && /["\\$`]/.test(line[i + 1] ?? "")) i++;
        word += line[i];
      }
      if (i >= line.length) throw new Error(`unclosed " in ${line}`);
    } else if (c === "\\") {
      word = (word ?? "") + (line[++i] ?? "");
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? "") + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** One word quoted for sh: safe for any bytes but NUL. */
export function shQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

let controlDir: string | undefined;

/**
 * OpenSSH gets one shared connection per host (ControlMaster), in a private
 * folder of this process: a call then costs one round trip, not a handshake.
 */
function withConnectionReuse(argv: string[]): string[] {
  if (basename(argv[0]!) !== "ssh" || argv.some((a) => /ControlPath|ControlMaster/i.test(a))) {
    return argv;
  }
  controlDir ??= mkdtempSync(join(tmpdir(), "splice-ssh-"));
  return [
    argv[0]!,
    "-o",
    "ControlMaster=auto",
    "-o",
    `ControlPath=${join(controlDir, "%C")}`,
    "-o",
    "ControlPersist=60",
    ...argv.slice(1),
  ];
}

export class Transport {
  readonly argv: readonly string[];
  readonly #ssh: boolean;
  readonly #slots: Semaphore;
  /** How many scripts this transport has run (started): the round trips, for tests and the bench. */
  trips = 0;

  /**
   * `name` is the host's name in paths (`box:` in `box:/srv/app`); `command`
   * the transport, as a command line or its words.
   */
  constructor(
    readonly name: string,
    command: string | readonly string[],
    inFlight = DEFAULT_IN_FLIGHT,
  ) {
    const words = typeof command === "string" ? splitCommand(command) : [...command];
    if (words.length === 0) throw new Error(`The transport of ${name} is empty.`);
    this.#ssh = basename(words[0]!) === "ssh";
    this.argv = withConnectionReuse(words);
    this.#slots = new Semaphore(inFlight);
  }

  /** The command as a person would type it (for messages). */
  get display(): string {
    return this.argv
      .filter((_, i, all) => !/^Control/.test(all[i] ?? "") && !/^Control/.test(all[i + 1] ?? ""))
      .join(" ");
  }

  /**
   * Runs `script` there. Exit 255 is the transport's own failure and becomes
   * a ToolError("io", reason remote_unreachable); any other status is the
   * script's, for the caller to read.
   */
  run(script: string, options: RunOptions = {}): Promise<RunResult> {
    return this.#slots.run(() => this.#spawn(script, options));
  }

  /**
   * The shell line as the far side gets it: ssh joins its words after the
   * host and hands them to the login shell, so sh is named (and a command
   * given after the host, such as `env PATH=...`, runs it).
   */
  line(script: string): string {
    return this.#ssh ? `sh -c ${shQuote(script)}` : script;
  }

  /** Ends the shared ssh connection, if one was made (other transports hold none). */
  close(): Promise<void> {
    if (!this.#ssh || !this.argv.some((a) => a.startsWith("ControlPath=")))
      return Promise.resolve();
    return new Promise((resolve) => {
      const child = spawn(this.argv[0]!, ["-O", "exit", ...this.argv.slice(1)], {
        stdio: "ignore",
      });
      child.on("error", () => resolve());
      child.on("close", () => resolve());
    });
  }

  /** Starts `script` there with its stdio as pipes, for a command that streams (spawn). */
  start(script: string) {
    this.trips++;
    return spawn(this.argv[0]!, [...this.argv.slice(1), this.line(script)], {
      stdio: ["pipe", "pipe", "pipe"],
    });
  }

  /** run(), waiting: for the one trip a toolkit makes while it is built (its root's real path). */
  runSync(script: string): RunResult {
    this.trips++;
    const r = spawnSync(this.argv[0]!, [...this.argv.slice(1), this.line(script)], {
      input: "",
      maxBuffer: 1 << 20,
    });
    const stderr = r.stderr?.toString("utf8").trim() ?? "";
    if (r.error) throw this.unreachable((r.error as NodeJS.ErrnoException).code ?? r.error.message);
    if (r.status === 255 || r.status === null) throw this.unreachable(stderr || "exit 255");
    return { code: r.status, stdout: r.stdout, stderr };
  }

  #spawn(script: string, options: RunOptions): Promise<RunResult> {
    this.trips++;
    return new Promise((resolve, reject) => {
      const child = spawn(this.argv[0]!, [...this.argv.slice(1), this.line(script)], {
        stdio: ["pipe", "pipe", "pipe"],
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (c: Buffer) => out.push(c));
      child.stderr.on("data", (c: Buffer) => err.push(c));
      child.stdin.on("error", () => {}); // the far side may exit before reading it all
      child.on("error", (error: NodeJS.ErrnoException) => {
        if (error.name === "AbortError") reject(error);
        else reject(this.unreachable(`${error.code ?? error.message}`));
      });
      child.on("close", (code, signal) => {
        const stderr = Buffer.concat(err).toString("utf8").trim();
        if (code === 255 || code === null) {
          reject(this.unreachable(stderr || `ended by ${signal ?? "exit 255"}`));
          return;
        }
        resolve({ code, stdout: Buffer.concat(out), stderr });
      });
      child.stdin.end(options.stdin ?? undefined);
    });
  }

  unreachable(stderr: string): ToolError {
    return new ToolError(
      "io",
      `Could not reach ${this.name}: the transport \`${this.display}\` failed (${stderr}). Check that the host is up and that the command works in a shell (try \`${this.display} true\`), then try again.`,
      { reason: "remote_unreachable", host: this.name, command: this.display, stderr },
    );
  }
}
