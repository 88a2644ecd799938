/**
 * Progress on stderr for anything that can take more than a second: a bar
 * when the call says how much there is (files scanned, written, restored),
 * else after a second the phase and the time so far (a language server
 * starting). Only on a terminal: piped stderr stays empty, so scripts and
 * tests see nothing.
 */
import type { Splice } from "../splice.js";
import type { CallProgress, ProgressListener } from "../toolkit/index.js";
import { io } from "./io.js";

/** Below this many files a run is quick enough to need no bar. */
const PROGRESS_MIN_FILES = 50;
/** Work quicker than this needs no word at all. */
const QUIET_MS = 1000;
const BAR_WIDTH = 30;
/** Redrawing more often than this only costs time; the last step always draws. */
const REDRAW_MS = 80;

export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

export interface ProgressOptions {
  stream?: ProgressStream;
  /** What the wait is called before the call names a phase ("writing"). */
  label?: string;
  quietMs?: number;
}

/**
 * `phase [#####.....] 120/4000 files`, with what it waits on now after it
 * (`· validating src/a.py 3s`); `phase… 3s` when nothing is counted.
 */
export function progressLine(
  counted: CallProgress | undefined,
  waiting: string | undefined,
  ms: number,
): string {
  const secs = `${Math.floor(ms / 1000)}s`;
  if (counted?.total !== undefined && counted.total > 0) {
    const filled = Math.round((Math.min(counted.done, counted.total) / counted.total) * BAR_WIDTH);
    const bar = `${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}`;
    const line = `${counted.phase} [${bar}] ${counted.done}/${counted.total} files`;
    return waiting ? `${line} · ${waiting} ${secs}` : line;
  }
  return `${waiting ?? counted?.phase ?? "working"}… ${secs}`;
}

/**
 * Runs `fn` with a listener to pass as toolkit.call's `onProgress`, drawing
 * what it hears on stderr if that is a terminal. Syntax commands that use
 * the typed methods are heard too (their scans report to the toolkit).
 */
export async function withProgress<T>(
  splice: Splice,
  fn: (onProgress: ProgressListener | undefined) => Promise<T>,
  options: ProgressOptions = {},
): Promise<T> {
  const stream = options.stream ?? io().stderr;
  if (!stream.isTTY) return fn(undefined);
  const { onCodeProgress } = await import("../codebase/files.js");
  const started = Date.now();
  const quietMs = options.quietMs ?? QUIET_MS;
  let counted: CallProgress | undefined;
  let waiting = options.label;
  let last = 0;
  let drawn = false;
  const draw = () => {
    last = Date.now();
    stream.write(`\r${progressLine(counted, waiting, last - started)}\u001b[K`);
    drawn = true;
  };
  const hear = (p: CallProgress) => {
    // Counted work draws a bar; a step with no count (validating a file) is what it waits on.
    if (p.total === undefined) waiting = p.phase;
    else {
      counted = p;
      waiting = undefined;
    }
    // A bar for much counted work shows at once; anything else waits out the quiet second.
    const many = counted !== undefined && (counted.total ?? 0) >= PROGRESS_MIN_FILES;
    if (!many && Date.now() - started < quietMs) return;
    if (Date.now() - last < REDRAW_MS && p.done !== p.total) return;
    draw();
  };
  // A call that reports nothing (a server starting) still shows its time after the quiet second.
  const ticker = setInterval(() => {
    if (Date.now() - started >= quietMs && Date.now() - last >= 250) draw();
  }, 250);
  ticker.unref();
  onCodeProgress(splice.context, hear);
  try {
    return await fn(hear);
  } finally {
    clearInterval(ticker);
    onCodeProgress(splice.context, undefined);
    if (drawn) stream.write("\r\u001b[K");
  }
}

/** `splice.call` with progress on the terminal, typed as the caller says (the tool's method). */
export function callWithProgress<T>(
  splice: Splice,
  tool: string,
  args: unknown,
  label: string,
): Promise<T> {
  return withProgress(
    splice,
    (onProgress) => splice.call(tool, args, onProgress ? { onProgress } : {}) as Promise<T>,
    { label },
  );
}
