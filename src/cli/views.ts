/**
 * Human views of the reading tools' results, as the tools people know print
 * them: search like ripgrep (`path:line:text`, context as `path-line-text`),
 * list as a tree with sizes in one right-aligned column, run as the output
 * with its exit status after it.
 */
import { formatBytes } from "../util/format.js";
import { EXIT, signalStatus } from "./exit-codes.js";
import { flagVoice, type Say } from "./flag-voice.js";
import { formatWarnings, type Paint } from "./format.js";

/** One line of search output; `sep` is ":" for a hit and "-" for context, as ripgrep writes. */
function searchLine(line: string, paths: ReadonlySet<string>, paint: Paint): string | undefined {
  for (const sep of [":", "-"]) {
    const m = new RegExp(`^(.*?)${sep}(\\d+)${sep} ?(.*)$`, "s").exec(line);
    if (!m || !paths.has(m[1]!)) continue;
    const [, path, n, text] = m;
    const body = sep === ":" ? text : paint("dim", text!);
    return `${paint("magenta", path!)}${sep}${paint("green", n!)}${sep}${body}`;
  }
  // "--" between context groups, as ripgrep prints it; a notice in brackets is not a hit.
  return line === "--" ? paint("dim", line) : undefined;
}

/** A view's two streams: the result for stdout, what is said about it for stderr. */
export interface Streams {
  human: string;
  notices: string[];
}

/** The hits on stdout, as ripgrep prints them; no match prints nothing, and its advice goes to stderr. */
export function searchView(
  r: {
    content: string;
    matches: number;
    files: number;
    truncated: boolean;
    hits: readonly { path: string }[];
  },
  paint: Paint,
  say: Say = flagVoice(),
  errPaint: Paint = paint,
): Streams {
  const paths = new Set(r.hits.map((h) => h.path));
  const human: string[] = [];
  const notices: string[] = [];
  // ripgrep's path:line: form needs no blank line between files.
  for (const line of r.content.split("\n")) {
    if (line === "") continue;
    const hit = r.matches === 0 ? undefined : searchLine(line, paths, paint);
    if (hit !== undefined) human.push(hit);
    else notices.push(errPaint("dim", say(line)));
  }
  return { human: human.join("\n"), notices };
}

interface Entry {
  path: string;
  kind: string;
  size?: number;
}

/** The tree of a list: names indented by depth, folders with a slash, sizes lined up on the right. */
export function listView(
  r: { path: string; entries: readonly Entry[]; truncated: boolean; warnings: readonly string[] },
  paint: Paint,
): string {
  const base = r.path === "." || r.path === "" ? "" : `${r.path.replace(/\/$/, "")}/`;
  const rows = r.entries.map((e) => {
    const rel = e.path.startsWith(base) ? e.path.slice(base.length) : e.path;
    const parts = rel.split("/");
    const name = `${"  ".repeat(parts.length - 1)}${parts.at(-1)}${e.kind === "directory" ? "/" : ""}`;
    return { name, kind: e.kind, size: e.size === undefined ? "" : formatBytes(e.size, "column") };
  });
  const width = Math.max(0, ...rows.map((row) => row.name.length));
  const sizeWidth = Math.max(0, ...rows.map((row) => row.size.length));
  const lines = rows.map((row) => {
    const name = row.kind === "directory" ? paint("blue", row.name) : row.name;
    if (sizeWidth === 0) return name;
    const pad = " ".repeat(width - row.name.length + 2);
    return `${name}${pad}${paint("dim", row.size.padStart(sizeWidth))}`.trimEnd();
  });
  if (r.truncated) lines.push(paint("yellow", "[more entries: narrow the path or raise --limit]"));
  lines.push(...formatWarnings(r.warnings, paint));
  return lines.join("\n") || paint("dim", "(empty)");
}

/** The run tool's notices after the output (it appends them; a command's own output never starts so). */
const RUN_NOTICE =
  /^\[(timed out after |background processes |a process outside |no output\]|no checkpoint: |the command's changes |the command changed |[\d,]+ of them cannot be restored)/;

/** How the person reads how it ended: one line, one time, and the status splice exits with. */
function endLine(
  r: { exit_code: number | null; signal: string | null; timed_out: boolean; duration_ms: number },
  status: number,
  limit: string | undefined,
): string {
  const took = `${(r.duration_ms / 1000).toFixed(1)} s`;
  if (r.timed_out) {
    return `[timed out after ${limit ?? took}; the command and every process it started were stopped (exit ${status}); pass a larger --timeout S to wait longer]`;
  }
  if (r.signal) return `[killed by ${r.signal} after ${took} (exit ${status})]`;
  return `[exit ${r.exit_code} after ${took}]`;
}

/**
 * A finished command: its output alone on stdout, and on stderr the line it
 * ran, splice's notices and how it ended, with the status splice exits with
 * (its own; 124 on a timeout, 128+N on signal N, as timeout(1) and shells say).
 */
export function runView(
  r: {
    command: string;
    output: string;
    exit_code: number | null;
    signal: string | null;
    timed_out: boolean;
    duration_ms: number;
  },
  paint: Paint,
  errPaint: Paint,
  say: Say,
): Streams & { status: number } {
  const status = r.timed_out
    ? EXIT.timeout
    : r.signal
      ? signalStatus(r.signal)
      : (r.exit_code ?? EXIT.refused);
  const lines = r.output.split("\n");
  const notices: string[] = [];
  while (lines.length > 0 && RUN_NOTICE.test(lines.at(-1)!)) notices.unshift(lines.pop()!);
  let limit: string | undefined;
  const shown = notices.flatMap((n) => {
    if (n === "[no output]") return [];
    const timedOut = /^\[timed out after ([^;]+);/.exec(n);
    if (timedOut) {
      limit = timedOut[1];
      return [];
    }
    return [errPaint("yellow", say(n))];
  });
  const ok = status === 0;
  const human = lines.map((line) => (/^\[.*\]$/.test(line) ? paint("yellow", line) : line));
  return {
    human: human.join("\n").replace(/\n$/, ""),
    notices: [
      errPaint("dim", `$ ${r.command.split("\n")[0]}`),
      ...shown,
      errPaint(ok ? "dim" : "red", endLine(r, status, limit)),
    ],
    status,
  };
}
