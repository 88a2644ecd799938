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

/** A find's matches as ripgrep prints lines: `path:line:text`, each line of a match numbered. */
export function findView(
  r: CodeEditResult & { hits?: readonly { path: string; line: number; text: string }[] },
  paint: Paint,
): string {
  const lines: string[] = [];
  for (const hit of r.hits ?? []) {
    hit.text.split("\n").forEach((text, i) => {
      lines.push(`${paint("magenta", hit.path)}:${paint("green", String(hit.line + i))}:${text}`);
    });
  }
  lines.push(...formatWarnings(r.warnings, paint));
  return lines.join("\n");
}
