/** Human views of tool results: color only on a terminal, never in pipes. */
import { styleText } from "node:util";
import type { ToolError } from "../errors.js";
import { cliMessage } from "./advice.js";

type Style = Parameters<typeof styleText>[0];

export function makePaint(stream: NodeJS.WriteStream) {
  const enabled = stream.isTTY === true && !process.env.NO_COLOR;
  return (style: Style, text: string) => (enabled ? styleText(style, text) : text);
}

export type Paint = ReturnType<typeof makePaint>;

export function formatHashline(content: string, paint: Paint): string {
  return content
    .split("\n")
    .map((line, i) => {
      if (i === 0 && line.startsWith("¶")) return paint("bold", line);
      if (/^\[.*\]$/.test(line)) return paint("yellow", line);
      const m = /^(\d+\| )(.*)$/s.exec(line);
      return m ? paint("dim", m[1]!) + m[2] : line;
    })
    .join("\n");
}

export function formatDiff(diff: string, paint: Paint): string {
  return diff
    .replace(/\n$/, "")
    .split("\n")
    .map((line) => {
      if (line.startsWith("+++") || line.startsWith("---")) return paint("bold", line);
      if (line.startsWith("@@")) return paint("cyan", line);
      if (line.startsWith("+")) return paint("green", line);
      if (line.startsWith("-")) return paint("red", line);
      return line;
    })
    .join("\n");
}

export function formatWarnings(warnings: readonly string[], paint: Paint): string[] {
  return warnings.map((w) => paint("yellow", `warning: ${w}`));
}

/** A written file: its header, its diff and what to watch out for. */
export function changeView(
  r: { header: string; diff: string; warnings: string[] },
  paint: Paint,
): string {
  const lines = [paint("bold", r.header)];
  if (r.diff) lines.push(formatDiff(r.diff, paint));
  lines.push(...formatWarnings(r.warnings, paint));
  return lines.join("\n");
}

/** Files as read: hashline content, or the refusal in red when there is none, then warnings. */
export function readView(
  results: readonly {
    path: string;
    content?: string;
    warnings: string[];
    error?: { code: string; message: string };
  }[],
  paint: Paint,
): string {
  return results
    .map((r) => {
      const thrown = (r.error as { thrown?: ToolError } | undefined)?.thrown;
      const said = thrown ? cliMessage(thrown) : r.error?.message;
      const failed = r.error ? paint("red", `error [${r.error.code}]: ${said}`) : "";
      const warnings = r.warnings.filter((w) => w !== r.error?.message);
      return [
        r.content ? formatHashline(r.content, paint) : failed || paint("red", `${r.path}:`),
        ...formatWarnings(warnings, paint),
      ]
        .filter(Boolean)
        .join("\n");
    })
    .join("\n\n");
}

/** The last line of a preview-or-apply command (plan, patch). */
export function appliedFooter(applied: boolean, backup: string | undefined): string {
  if (!applied) return "Preview: nothing was written. Run again with --apply to write.";
  return backup ? `Applied. Undo it with: splice undo ${backup}` : "Applied; nothing changed.";
}

/** How a refusal prints where JSON is asked for: the same shape `splice call` answers with. */
export function errorJson(error: ToolError): string {
  return JSON.stringify({ error: error.toJSON() }, null, 2);
}

/** After a written change: how to take it back, or that nothing was written. */
export function writtenFooter(
  r: { applied: boolean; changed: boolean; backup_session?: string },
  paint: Paint,
): string[] {
  if (!r.changed) return [];
  if (!r.applied) return [paint("dim", "Preview: nothing was written.")];
  return r.backup_session ? [paint("dim", `Undo it with: splice undo ${r.backup_session}`)] : [];
}
