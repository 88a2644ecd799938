/**
 * What the model reads of a run: the command, its output without colours,
 * how it ended, and, when the output was cut in the middle, where the whole
 * of it is.
 */
import { reportCallProgress } from "../../change/progress.js";
import type { LimitedOutput } from "../../proc/output-limit.js";
import { count, formatBytes } from "../../util/format.js";
import type { ToolContext } from "../define.js";
import { MAX_LOG_BYTES, type RunLog } from "./log.js";

/**
 * How a run ended, as the last line a model reads. A timeout has none: its
 * notice already says so, with what to do, and is said once.
 */
export function statusLine(
  o: { exitCode: number | null; signal: string | null; timedOut: boolean },
  ms: number,
): string {
  const took = `${(ms / 1000).toFixed(1)} s`;
  if (o.timedOut) return "";
  if (o.signal) return `[killed by ${o.signal} after ${took}]`;
  return `[exit ${o.exitCode} after ${took}]`;
}

/** Colours and cursor moves cost tokens and mean nothing to a model. */
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;
export const plain = (s: string) => s.replace(ANSI, "");

/** The output as it comes, for a host that shows progress; the result still holds the whole of it. */
export function liveOutput(context: ToolContext): (chunk: Buffer) => void {
  // Streaming: a character split between two chunks is decoded once both arrived.
  const decoder = new TextDecoder();
  let bytes = 0;
  return (chunk) => {
    bytes += chunk.length;
    const output = plain(decoder.decode(chunk, { stream: true }));
    reportCallProgress(context, { phase: "running", done: bytes, output });
  };
}

export function elisionNotice(
  out: LimitedOutput,
  log: RunLog | undefined,
  logError: string | undefined,
) {
  const size = `${formatBytes(out.elidedBytes)}${out.elidedLines > 0 ? ` (${count(out.elidedLines)} lines)` : ""}`;
  const errors = out.errorLines.length > 0 ? "; error-looking lines from that part:" : "";
  const lines = [`[… ${size} elided from the middle${errors}]`];
  for (const e of out.errorLines) lines.push(`${e.line}| ${plain(e.text)}`);
  if (log) {
    const capped = log.failed
      ? ` (incomplete: writing it failed with ${log.failed})`
      : log.capped
        ? ` (it stops at ${formatBytes(MAX_LOG_BYTES)})`
        : "";
    const from = Math.max(1, (out.errorLines[0]?.line ?? out.elidedFrom) - 10);
    const view = out.elidedLines > 0 ? `"sed -n '${from},${from + 40}p' ${log.rel}" or ` : "";
    lines.push(
      `[full output in ${log.rel}${capped}; view parts of it with run, e.g. ${view}"grep -n -i error ${log.rel}"]`,
    );
  } else if (logError) {
    lines.push(`[the full output could not be saved: ${logError}]`);
  }
  return lines.join("\n");
}

/**
 * What the model reads: the command, its output, how it ended. Output cut in
 * the middle is said first as well, and where the whole of it is comes last,
 * for a client that keeps only the two ends of a long result.
 */
export function runContent(
  command: string,
  output: string,
  status: string,
  out: LimitedOutput,
  spill: Spill,
): string {
  const lines = [`$ ${oneLine(command)}`];
  const ended = status ? [status] : [];
  if (!out.truncated) return [...lines, output, ...ended].join("\n");
  const total = formatBytes(out.totalBytes);
  lines.push(
    `[output cut to its start and end, of ${total}; the last line says where the rest is]`,
  );
  lines.push(output, ...ended);
  if (spill.log) {
    lines.push(
      `[the whole output (${total}) is in ${spill.log.rel}; view parts of it with run, e.g. "grep -n -i error ${spill.log.rel}"]`,
    );
  } else {
    lines.push(`[the ${formatBytes(out.elidedBytes)} cut from the middle could not be saved]`);
  }
  return lines.join("\n");
}

/** The run log an output too long to show went to, or why it could not be opened. */
export interface Spill {
  log?: RunLog;
  error?: string;
}

/** A summary is one line: a multi-line script shows its first line. */
export function oneLine(command: string): string {
  const lines = command.trim().split("\n");
  const first = lines[0]!.length > 120 ? `${lines[0]!.slice(0, 120)}…` : lines[0]!;
  return lines.length > 1 ? `${first} (+${lines.length - 1} lines)` : first;
}
