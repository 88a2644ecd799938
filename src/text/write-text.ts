/**
 * Checks on whole-file text before it is written: display prefixes a model
 * copied from read output, and files that a machine owns.
 */
import { looksLikeHashline } from "./hashline.js";

const LEGACY_HEADER = /^\[[^\]\n]+#[0-9A-Za-z]+\]$/;
const LEGACY_LINE = /^(\d+):/;

/**
 * Strips the older `N:` line prefixes (and a `[path#hash]` header) when every
 * line carries one and the numbers count up by one, so a model that pasted
 * old-style read output still writes clean text.
 */
export function stripLegacyPrefixes(text: string): string | undefined {
  const lines = text.split("\n");
  const trailingNewline = lines.at(-1) === "";
  if (trailingNewline) lines.pop();
  if (lines.length > 0 && LEGACY_HEADER.test(lines[0]!.replace(/\r$/, ""))) lines.shift();
  if (lines.length === 0) return undefined;
  let expected: number | undefined;
  const out: string[] = [];
  for (const line of lines) {
    const m = LEGACY_LINE.exec(line);
    if (!m) return undefined;
    const n = Number(m[1]);
    if (expected !== undefined ? n !== expected : n !== 1) return undefined;
    expected = n + 1;
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
