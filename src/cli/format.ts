/** Human views of tool results: color only on a terminal, never in pipes. */
import { styleText } from "node:util";

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
