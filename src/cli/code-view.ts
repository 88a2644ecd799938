/**
 * What `splice ast` and `splice rename` share: their flags, the tool
 * arguments those flags become, and the view of a rewrite's result. Both
 * preview by default and write only with --apply.
 */
import type { CodeEditResult } from "../index.js";
import { formatDiff, formatWarnings, type Paint } from "./format.js";
import { positiveInt } from "./inputs.js";

export const REWRITE_FLAGS = {
  apply: {
    type: "boolean",
    description: "write the changed files, all or none, in one backup session",
  },
  lang: {
    type: "string",
    valueName: "L",
    description: "only files of this language (e.g. typescript, python)",
  },
  "max-files": {
    type: "string",
    valueName: "N",
    description: "cover at most N files (default 1000)",
  },
} as const;

export function rewriteArgs(flags: { apply?: boolean; lang?: string; "max-files"?: string }) {
  const maxFiles = positiveInt("max-files", flags["max-files"]);
  return {
    mode: flags.apply === true ? ("apply" as const) : ("preview" as const),
    ...(flags.lang ? { lang: flags.lang } : {}),
    ...(maxFiles ? { max_files: maxFiles } : {}),
  };
}

export function editView(r: CodeEditResult, paint: Paint): string {
  const lines: string[] = [];
  for (const f of r.files) {
    if (!f.diff && f.warnings.length === 0) continue;
    lines.push(paint("bold", f.header ?? f.path));
    if (f.diff) lines.push(formatDiff(f.diff, paint));
    lines.push(...formatWarnings(f.warnings, paint));
  }
  lines.push(...formatWarnings(r.warnings, paint));
  // The tool's summary names the undo tool; a person runs the command.
  const head = r.content
    .split("\n", 1)[0]!
    .replace(
      / Undo them all with the undo tool \(backup_session "(.+)"\)\.$/,
      " Undo them all with: splice undo $1",
    );
  const hint = r.mode === "apply" || r.files_changed === 0 ? "" : " (add --apply to write)";
  lines.push(
    paint(
      r.files_changed > 0 ? "green" : "dim",
      `${head.replace(/ Run again with mode "apply" to write\.$/, "")}${hint}`,
    ),
  );
  return lines.join("\n");
}

type Hit = { path: string; line: number; end_line?: number; text: string };

/** A line with the spans that matched on it painted, as ast-grep marks them. */
function marked(line: string, spans: readonly [number, number][], paint: Paint): string {
  let out = "";
  let at = 0;
  for (const [from, to] of spans) {
    if (from < at) continue;
    out += line.slice(at, from) + paint(["bold", "red"], line.slice(from, to));
    at = to;
  }
  return out + line.slice(at);
}

/**
 * A find's matches as ast-grep prints them: `path:line:` and the whole line,
 * the match marked when colour is on, each line once however many matches
 * it holds. `lines` gives a file's current lines; without them (a remote
 * root) the matched text stands in for its lines.
 */
export function findView(
  r: CodeEditResult & { hits?: readonly Hit[] },
  paint: Paint,
  lines: (path: string) => readonly string[] | undefined = () => undefined,
): string {
  // path -> line -> the matched spans on it, in order.
  const byFile = new Map<string, Map<number, [number, number][]>>();
  const fallback: string[] = [];
  for (const hit of r.hits ?? []) {
    const file = lines(hit.path);
    const parts = hit.text.split("\n");
    if (!file) {
      parts.forEach((text, i) => {
        fallback.push(
          `${paint("magenta", hit.path)}:${paint("green", String(hit.line + i))}:${text}`,
        );
      });
      continue;
    }
    const spans = byFile.get(hit.path) ?? new Map<number, [number, number][]>();
    byFile.set(hit.path, spans);
    parts.forEach((part, i) => {
      const n = hit.line + i;
      const text = file[n - 1] ?? "";
      const list = spans.get(n) ?? [];
      // A match's first line starts where its text does (after an earlier match on that line);
      // its later lines are marked from their indentation to where the text ends.
      const from =
        i === 0
          ? Math.max(0, text.indexOf(part, list.at(-1)?.[1] ?? 0))
          : text.length - text.trimStart().length;
      const to = i === 0 ? from + part.length : text.length - (text.length - text.trimEnd().length);
      list.push([from, Math.min(text.length, Math.max(from, to))]);
      spans.set(n, list);
    });
  }
  const out: string[] = [...fallback];
  for (const [path, spans] of byFile) {
    const file = lines(path)!;
    for (const n of [...spans.keys()].sort((a, b) => a - b)) {
      const text = marked(file[n - 1] ?? "", spans.get(n)!, paint);
      out.push(`${paint("magenta", path)}:${paint("green", String(n))}:${text}`);
    }
  }
  out.push(...formatWarnings(r.warnings, paint));
  return out.join("\n");
}
