/**
 * A progress bar on stderr for syntax commands that walk many files. Only on
 * a terminal: piped stderr stays empty, so scripts and tests see no bar.
 */
import type { Progress } from "../codebase/files.js";
import type { Splice } from "../splice.js";

/** Below this many files a run is quick enough to need no bar. */
const PROGRESS_MIN_FILES = 50;
const BAR_WIDTH = 30;
/** Redrawing more often than this only costs time; the last step always draws. */
const REDRAW_MS = 80;

/** Draws `phase [#####.....] 120/4000 files` on stderr while `fn` runs, if stderr is a terminal. */
export async function withProgress<T>(splice: Splice, fn: () => Promise<T>): Promise<T> {
  const stream = process.stderr;
  if (!stream.isTTY) return fn();
  const { onCodeProgress } = await import("../codebase/files.js");
  let last = 0;
  let drawn = false;
  const draw = (p: Progress) => {
    if (p.total < PROGRESS_MIN_FILES) return;
    const now = Date.now();
    if (now - last < REDRAW_MS && p.done < p.total) return;
    last = now;
    const filled = Math.round((p.done / p.total) * BAR_WIDTH);
    const bar = `${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}`;
    stream.write(`\r${p.phase} [${bar}] ${p.done}/${p.total} files\u001b[K`);
    drawn = true;
  };
  onCodeProgress(splice.context, draw);
  try {
    return await fn();
  } finally {
    onCodeProgress(splice.context, undefined);
    if (drawn) stream.write("\r\u001b[K");
  }
}
