/**
 * Backup sessions for people: one line per session (`undo --list`), files
 * with their added and removed lines (`--stat`, like git's), and one
 * session's diffs (`--diff ID`). Columns line up; on a terminal each line is
 * cut to its width, piped it is whole.
 */
import type { SessionSummary } from "../index.js";
import { diffCounts } from "../text/diff-counts.js";
import { formatDiff, type Paint } from "./format.js";
import type { Out } from "./io.js";

type File = SessionSummary["files"][number];

function totals(files: readonly File[]) {
  return files.reduce(
    (sum, f) => {
      const c = diffCounts(f.diff);
      return { added: sum.added + c.added, removed: sum.removed + c.removed };
    },
    { added: 0, removed: 0 },
  );
}

/** `2026-11-30T09:16:50.269Z` as `2026-11-30 09:16:50`: UTC, to the second. */
export function when(at: string): string {
  return at.replace("T", " ").replace(/\.\d+Z$|Z$/, "");
}

function state(s: SessionSummary): string {
  if (s.undone) return "undone";
  // Undoing it now would be refused: a later change overlaps its lines.
  const conflicts = s.reverts === "conflict" ? "conflicts" : "";
  const own = s.is_undo ? "undo" : s.files.some((f) => f.undone) ? "partly undone" : "";
  return [own, conflicts].filter(Boolean).join(", ");
}

/** Columns padded to their widest cell; the last one takes what is left. */
export function table(rows: readonly string[][], width: number): string[][] {
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: columns - 1 }, (_, i) =>
    Math.max(0, ...rows.map((r) => (r[i] ?? "").length)),
  );
  return rows.map((row) => {
    const cells = row.map((cell, i) => (i < widths.length ? cell.padEnd(widths[i]!) : cell));
    let used = 0;
    return cells.map((cell, i) => {
      const room = width - used - (i > 0 ? 2 : 0);
      used += cell.length + (i > 0 ? 2 : 0);
      if (cell.length <= room) return cell;
      return room > 1 ? `${cell.slice(0, room - 1)}…` : "";
    });
  });
}

/** The width to fit: the terminal's, or none when piped. */
export function outputWidth(stream: Out): number {
  return stream.isTTY && stream.columns ? stream.columns : Number.POSITIVE_INFINITY;
}

/** Who made a session: its session name, the client behind it when it said, and the tool. */
function who(s: SessionSummary): string {
  const client = s.client && s.client !== s.session ? ` (${s.client})` : "";
  return `${s.session}${client}${s.tool ? ` ${s.tool}` : ""}`;
}

/** `undo --list`: id, time, who (session, client, tool), files, +/-, paths (and whether undone), one line each. */
export function sessionLines(
  sessions: readonly SessionSummary[],
  paint: Paint,
  width: number,
): string {
  if (sessions.length === 0) return "No backup sessions yet.";
  const rows = sessions.map((s) => {
    const t = totals(s.files);
    const files = `${s.files.length} file${s.files.length === 1 ? "" : "s"}`;
    const mark = state(s);
    const paths = s.files.map((f) => f.path).join(", ");
    return [
      s.backup_session,
      when(s.at),
      who(s),
      files,
      `+${t.added} -${t.removed}`,
      mark ? `(${mark}) ${paths}` : paths,
    ];
  });
  return table(rows, width)
    .map(([id, at, who, files, counts, paths]) =>
      [
        paint("bold", id!),
        at,
        paint("dim", who!),
        files,
        colorCounts(counts!, paint),
        paths!.startsWith("(") ? paint("dim", paths!) : paths,
      ]
        .filter((c) => c !== "")
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function colorCounts(cell: string, paint: Paint): string {
  return cell.replace(/\+\d+/, (a) => paint("green", a)).replace(/-\d+/, (d) => paint("red", d));
}

/** `undo --stat`: each session's line, then its files as `action path | +a -d`. */
export function statView(sessions: readonly SessionSummary[], paint: Paint, width: number): string {
  if (sessions.length === 0) return "No backup sessions yet.";
  // One table for every session's line, so their columns line up as --list's do.
  const heads = sessionLines(sessions, paint, width).split("\n");
  return sessions
    .map((s, i) => {
      const head = heads[i]!;
      const rows = s.files.map((f) => {
        const c = diffCounts(f.diff);
        return [
          ` ${f.action}`,
          f.path,
          `| +${c.added} -${c.removed}${f.undone && !s.undone ? " (undone)" : ""}`,
        ];
      });
      const files = table(rows, width).map(([action, path, counts]) =>
        `${action}  ${path}  ${colorCounts(counts!, paint)}`.trimEnd(),
      );
      return [head, ...files].join("\n");
    })
    .join("\n\n");
}

/** `undo --diff ID`: the session's line, then each file's diff. */
export function sessionDiff(s: SessionSummary, paint: Paint, width: number): string {
  const files = s.files.map((f) => {
    const undone = f.undone && !s.undone ? paint("dim", " (undone)") : "";
    return `${paint("bold", `${f.action} ${f.path}`)}${undone}\n${formatDiff(f.diff, paint)}`;
  });
  return [sessionLines([s], paint, width), ...files].join("\n");
}
