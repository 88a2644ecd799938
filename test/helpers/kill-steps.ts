/**
 * Kill a writer at every step: one real `splice` write runs in a child under
 * strace, which delivers SIGKILL on entry to its Nth system call of one kind,
 * for every call the write makes. The steps come from a trace of a clean run
 * (test/faults/fixtures/stepped-writer.ts marks where the write begins).
 *
 * strace counts invocations per system call and per thread: calls of the
 * main thread (node's synchronous file system calls) repeat in the same order
 * run after run, so each becomes one kill point; the thread pool's fsyncs are
 * killed at a thread's first and second fsync, whichever thread that is.
 * libuv's wake-up writes are the exception: they come when they come, so a
 * point's count leaves them out, and a kill that landed on another call than
 * the point's (`stepOf` differs) is run again.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const STEPPED_WRITER = join(import.meta.dirname, "../faults/fixtures/stepped-writer.ts");

/** The calls that change or read what a write leaves behind. */
const CALLS = [
  "openat",
  "write",
  "pwrite64",
  "fsync",
  "fdatasync",
  "rename",
  "renameat",
  "renameat2",
  "unlink",
  "unlinkat",
  "symlink",
  "symlinkat",
  "link",
  "mkdir",
  "mkdirat",
  "fchmod",
  "linkat",
  "utimensat",
  "readlink",
  "readlinkat",
];

export interface KillPoint {
  call: string;
  /** strace's `when`: the Nth invocation of `call` by one thread. */
  nth: number;
  /** The traced line, for a failure message. */
  line: string;
}

export function straceAvailable(): boolean {
  return spawnSync("strace", ["-V"], { stdio: "ignore" }).status === 0;
}

function writerArgs(root: string, path: string, text: string): string[] {
  return ["--import", "tsx", STEPPED_WRITER, root, path, text];
}

/** Text that appears on a stream, or its end. */
function seen(stream: NodeJS.ReadableStream, text: string, sink: { all: string }): Promise<void> {
  return new Promise((resolve) => {
    const look = (chunk: Buffer) => {
      sink.all += chunk.toString();
      if (sink.all.includes(text)) resolve();
    };
    stream.on("data", look);
    stream.on("end", () => resolve());
  });
}

/** A wake-up of libuv's event loop: an 8-byte write to its eventfd, at no fixed place. */
const isWakeUp = (call: string, rest: string) =>
  call === "write" && rest.includes('"\\1\\0\\0\\0\\0\\0\\0\\0", 8');

/**
 * A traced call with what varies from run to run left out: tids, fds, results,
 * the project's folder, ids and pids (in a temp file's name, a lock's target).
 */
export function stepOf(line: string): string {
  const m = /^(?:\d+ +)?(\w+)\([^"]*("(?:[^"\\]|\\.)*")?/.exec(line);
  if (!m) return line;
  const text = (m[2] ?? "").replace(/^"\/.*\//, '"');
  return `${m[1]}(${text.replace(/splice-[0-9a-z]+-/, "splice-#-").replace(/[0-9a-f]{6,}|\d+/g, "#")}`;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.on("exit", () => resolve());
  });

/**
 * Starts the writer, attaches strace (with `straceArgs`) to all its threads
 * once it is warm, then lets it write. Returns the writer's stderr.
 */
async function tracedWrite(
  root: string,
  path: string,
  text: string,
  straceArgs: string[],
): Promise<string> {
  const child = spawn(process.execPath, writerArgs(root, path, text), {
    stdio: ["pipe", "ignore", "pipe"],
  });
  const err = { all: "" };
  await seen(child.stderr!, "SPLICE-STEPS-READY", err);
  const strace = spawn("strace", ["-f", ...straceArgs, "-p", String(child.pid)], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  await seen(strace.stderr!, "attached", { all: "" });
  child.stdin!.end("go\n");
  await Promise.all([exited(child), exited(strace)]);
  await new Promise((r) => setImmediate(r));
  return err.all;
}

/** Every kill point of one write of `text` to `path` in `root` (the run writes it). */
export async function killPoints(root: string, path: string, text: string): Promise<KillPoint[]> {
  const out = join(mkdtempSync(join(tmpdir(), "splice-trace-")), "trace");
  const stderr = await tracedWrite(root, path, text, ["-o", out, "-e", `trace=${CALLS.join(",")}`]);
  if (!stderr.includes("SPLICE-STEPS-END")) throw new Error(`the traced write failed: ${stderr}`);
  const lines = readFileSync(out, "utf8").split("\n");
  const counts = new Map<string, number>();
  const points: KillPoint[] = [];
  let main: number | undefined;
  for (const line of lines) {
    const m = /^(\d+) +(\w+)\((.*)$/.exec(line);
    if (!m) continue; // "<... resumed>" halves and exit lines
    const [, tid, call, rest] = m as unknown as [string, string, string, string];
    if (isWakeUp(call, rest)) continue; // not counted: see the top of this file
    const key = `${tid} ${call}`;
    const nth = (counts.get(key) ?? 0) + 1;
    counts.set(key, nth);
    if (rest.includes("SPLICE-STEPS-BEGIN")) {
      main = Number(tid);
      continue;
    }
    if (rest.includes("SPLICE-STEPS-END")) break;
    if (main === undefined) continue; // calls before the write
    if (Number(tid) === main) points.push({ call, nth, line });
    else if (
      call === "fsync" &&
      nth <= 2 &&
      !points.some((p) => p.call === "fsync" && p.nth === nth)
    ) {
      points.push({ call, nth, line: `${line} (a pool thread's fsync #${nth})` });
    }
  }
  return points;
}

export interface Killed {
  /** The write had begun (its marker was printed) when it died. */
  began: boolean;
  /** It ran to its end: the kill point was never reached. */
  finished: boolean;
  /** The call it was killed on, as traced. */
  at?: string;
}

/** Runs the write with SIGKILL delivered on entry to `point`. */
export async function writeKilledAt(
  root: string,
  path: string,
  text: string,
  point: KillPoint,
): Promise<Killed> {
  const out = join(mkdtempSync(join(tmpdir(), "splice-kill-")), "trace");
  const stderr = await tracedWrite(root, path, text, [
    "-o",
    out,
    "-e",
    `trace=${point.call}`,
    "-e",
    `inject=${point.call}:signal=SIGKILL:when=${point.nth}`,
  ]);
  const at = injectedCall(readFileSync(out, "utf8"), point.call);
  rmSync(dirname(out), { recursive: true, force: true });
  return {
    began: stderr.includes("SPLICE-STEPS-BEGIN"),
    finished: stderr.includes("SPLICE-STEPS-END"),
    ...(at === undefined ? {} : { at }),
  };
}

/** The traced call strace never saw return: the one the signal was injected on. */
function injectedCall(trace: string, call: string): string | undefined {
  const begun = new Map<string, string>(); // tid -> its call, while unfinished
  for (const line of trace.split("\n")) {
    const m = /^(\d+) +(?:<\.\.\. (\w+) resumed>|(\w+)\()/.exec(line);
    if (!m || (m[2] ?? m[3]) !== call) continue;
    const [, tid, resumed] = m as unknown as [string, string, string | undefined];
    const whole = resumed ? begun.get(tid) : line;
    if (/ = \?$/.test(line)) return whole;
    if (line.endsWith("<unfinished ...>")) begun.set(tid, line);
  }
  return undefined;
}

export interface StepOutcome {
  point: KillPoint;
  killed: Killed;
  /** The file held neither the old nor the new text. */
  torn: boolean;
  /** Undo did not go back to the last change that really landed. */
  phantom: boolean;
  /** splice's temp files left beside the file after the next write there. */
  leftovers: string[];
  /** Locks left once the next write is done. */
  locks: string[];
  /** The next write failed (a lock it could not take, say). */
  blocked?: string;
}
