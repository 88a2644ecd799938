/**
 * Human views of the reading tools' results, as the tools people know print
 * them: search like ripgrep (`path:line:text`, context as `path-line-text`),
 * list as a tree with sizes in one right-aligned column, run as the output
 * with its exit status after it.
 */
import { formatBytes } from "../util/format.js";
import { flagVoice, type Say } from "./flag-voice.js";
import { formatWarnings, type Paint } from "./format.js";

/** One line of search output; `sep` is ":" for a hit and "-" for context, as ripgrep writes. */
function searchLine(line: string, paths: ReadonlySet<string>, paint: Paint): string {
  for (const sep of [":", "-"]) {
    const m = new RegExp(`^(.*?)${sep}(\\d+)${sep} ?(.*)$`, "s").exec(line);
    if (!m || !paths.has(m[1]!)) continue;
    const [, path, n, text] = m;
    const body = sep === ":" ? text : paint("dim", text!);
    return `${paint("magenta", path!)}${sep}${paint("green", n!)}${sep}${body}`;
  }
  // "--" between context groups, or a notice line in brackets.
  return paint("dim", line);
}

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
): string {
  if (r.matches === 0) return paint("dim", r.content ? say(r.content) : "No matches.");
  const paths = new Set(r.hits.map((h) => h.path));
  // ripgrep's path:line: form needs no blank line between files.
  const lines = r.content.split("\n").filter((line) => line !== "");
  const body = lines.map((line) => searchLine(line, paths, paint));
  return body.join("\n");
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

/** A finished command as the tool tells it: `$ command`, the output, then how it ended. */
export function runView(
  r: { content: string; exit_code: number | null; timed_out: boolean },
  paint: Paint,
): string {
  const ok = r.exit_code === 0 && !r.timed_out;
  const lines = r.content.split("\n");
  const last = lines.length - 1;
  return lines
    .map((line, i) => {
      if (i === 0 && line.startsWith("$ ")) return paint("dim", line);
      if (i === last) return paint(ok ? "dim" : "red", line);
      return /^\[.*\]$/.test(line) ? paint("yellow", line) : line;
    })
    .join("\n");
}
