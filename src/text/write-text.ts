/**
 * Checks on whole-file text before it is written: line numbers a model
 * copied from read output, and files that a machine owns.
 */
import { looksLikeHashline } from "./hashline.js";

/** A line as read prints it: `N| text`, or `N|` for an empty line whose trailing space was trimmed. */
const READ_LINE = /^(\d+)\|(?: |$)/;

/**
 * Strips the `N| ` prefixes read prints when every line carries one and they
 * count 1, 2, 3, …: the model pasted its read of the whole file. Any other
 * numbering ("1: one" in a YAML map, "1|Ann|30" in pipe-separated data) is
 * the file's content.
 */
export function stripReadPrefixes(text: string): string | undefined {
  const lines = text.split("\n");
  const trailingNewline = lines.at(-1) === "";
  if (trailingNewline) lines.pop();
  if (lines.length === 0) return undefined;
  const out: string[] = [];
  for (const [i, line] of lines.entries()) {
    const m = READ_LINE.exec(line);
    if (!m || Number(m[1]) !== i + 1) return undefined;
    out.push(line.slice(m[0].length));
  }
  return out.join("\n") + (trailingNewline ? "\n" : "");
}

export { looksLikeHashline };

const LOCKFILES = new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lockb",
  "bun.lock",
  "Cargo.lock",
  "Gemfile.lock",
  "poetry.lock",
  "Pipfile.lock",
  "uv.lock",
  "composer.lock",
  "go.sum",
  "flake.lock",
  "mix.lock",
  "pubspec.lock",
  "Podfile.lock",
  "packages.lock.json",
]);

const GENERATED_MARK = /@generated\b|DO NOT EDIT/;
/** Markers only count near the top, where generators put them. */
const HEAD_CHARS = 1024;

/** Why a file is machine-generated, or undefined when a person owns it. */
export function generatedReason(fileName: string, existing?: string): string | undefined {
  if (LOCKFILES.has(fileName)) return `${fileName} is a lockfile written by a package manager`;
  const mark = existing === undefined ? null : GENERATED_MARK.exec(existing.slice(0, HEAD_CHARS));
  if (mark) return `it is marked "${mark[0]}" near its top`;
  return undefined;
}
