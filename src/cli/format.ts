/** Human views of tool results: color only on a terminal, never in pipes. */
import { styleText } from "node:util";
import type { ToolError } from "../errors.js";
import { cliMessage } from "./advice.js";
import { flagVoice, type Say } from "./flag-voice.js";
import { io, type Out } from "./io.js";

type Style = Parameters<typeof styleText>[0];

export function makePaint(stream: Out) {
  const enabled = stream.isTTY === true && !io().env.NO_COLOR;
  return (style: Style, text: string) => (enabled ? styleText(style, text) : text);
}

export type Paint = ReturnType<typeof makePaint>;

/** What any command can say in its own voice: the calls and tools a sentence names. */
const ANY_COMMAND = flagVoice();

/** Read output; `say` phrases its notices (`[... read the rest with line_range "9..12"]`). */
export function formatHashline(content: string, paint: Paint, say: Say = ANY_COMMAND): string {
  const path = /^¶(.*)#[0-9A-F]+$/.exec(content.slice(0, content.indexOf("\n") >>> 0))?.[1];
  return content
    .split("\n")
    .map((line, i) => {
      if (i === 0 && line.startsWith("¶")) return paint("bold", line);
      if (/^\[.*\]$/.test(line)) return paint("yellow", say(line, path));
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

/** Warnings as the command says them: the tool wrote them for a model. */
export function formatWarnings(
  warnings: readonly string[],
  paint: Paint,
  say: Say = ANY_COMMAND,
  path?: string,
): string[] {
  return warnings.map((w) => paint("yellow", `warning: ${say(w, path)}`));
}

/** A written file: its header, its diff and what to watch out for. */
export function changeView(
  r: { header: string; diff: string; warnings: string[]; path?: string },
  paint: Paint,
  say: Say = ANY_COMMAND,
): string {
  const lines = [paint("bold", r.header)];
  if (r.diff) lines.push(formatDiff(r.diff, paint));
  lines.push(...formatWarnings(r.warnings, paint, say, r.path));
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
  say: Say = ANY_COMMAND,
): string {
  return results
    .map((r) => {
      const thrown = (r.error as { thrown?: ToolError } | undefined)?.thrown;
      const said = say(thrown ? cliMessage(thrown) : (r.error?.message ?? ""), r.path);
      const failed = r.error ? paint("red", `error [${r.error.code}]: ${said}`) : "";
      const warnings = r.warnings.filter((w) => w !== r.error?.message);
      return [
        r.content ? formatHashline(r.content, paint, say) : failed || paint("red", `${r.path}:`),
        ...formatWarnings(warnings, paint, say, r.path),
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
