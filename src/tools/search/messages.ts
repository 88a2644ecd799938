/**
 * What the model reads of a search: the hits as `path:line: text`, and the
 * sentences for an empty, cut or failed search, each saying how to go on.
 */
import { clip, MODEL_VOICE, ToolError, type Voice } from "../../errors.js";
import { escapeControls } from "../../text/names.js";
import type { FileHits } from "./collect.js";
import { SEARCH_LIMITS } from "./limits.js";

/** The arguments these sentences quote. */
export interface SearchArgs {
  pattern: string;
  glob?: string | string[] | undefined;
  regex?: boolean | undefined;
  ignore_case?: boolean | undefined;
}

export function rgError(stderr: string, args: SearchArgs): ToolError {
  const section = /default regex engine error:\s*~+\s*([\s\S]*?)~{5,}/.exec(stderr);
  const raw = (section?.[1] ?? stderr).replace(/^rg: /gm, "");
  const message = raw.replace(/\s+/g, " ").trim().slice(0, 600);
  if (/glob/i.test(message)) {
    return new ToolError(
      "invalid_input",
      `A glob is not valid: ${message}. Fix the glob (for example "*.ts" or "src/**/*.py").`,
      { glob: args.glob },
    );
  }
  if (/regex|pattern|literal|escape/i.test(message)) {
    const facts = `The pattern ${JSON.stringify(clip(args.pattern))} is not valid: ${message}.`;
    if (!args.regex) return new ToolError("invalid_input", `${facts} Rephrase the pattern.`);
    return new ToolError(
      "invalid_input",
      facts,
      { pattern: args.pattern },
      {
        tool: "search",
        say: (v) =>
          `Fix the regular expression, or search the text literally (${v.option("regex", false)}).`,
      },
    );
  }
  return new ToolError(
    "io",
    `ripgrep failed: ${message}. Check the path and arguments, or try a narrower path.`,
  );
}

interface Shown {
  text: string;
  match: boolean;
}

/** A file's lines as shown: `path:line: text` for a match, `path-line- text` around one. */
function fileLines(file: FileHits, context: number): Shown[] {
  const out: Shown[] = [];
  let previous = 0;
  for (const l of file.lines) {
    if (!l.match && l.line > file.lastMatch + context) break;
    if (previous > 0 && context > 0 && l.line > previous + 1)
      out.push({ text: "--", match: false });
    const sep = l.match ? ":" : "-";
    out.push({
      text: `${escapeControls(file.path)}${sep}${l.line}${sep} ${l.text}`,
      match: l.match,
    });
    previous = l.line;
  }
  return out;
}

/** What `renderWithin` showed of the hits. */
export interface Rendered {
  text: string;
  matches: number;
  files: number;
  /** The first file not shown whole, when the text stopped at its byte budget. */
  next?: string;
}

/** The hits as the model reads them, stopping before the line that would pass `maxBytes`. */
export function renderWithin(files: FileHits[], context: number, maxBytes: number): Rendered {
  const blocks: string[] = [];
  let bytes = 0;
  let matches = 0;
  for (const [i, file] of files.entries()) {
    const lines: string[] = [];
    for (const line of fileLines(file, context)) {
      bytes += Buffer.byteLength(line.text) + (lines.length === 0 ? 2 : 1);
      if (bytes > maxBytes) {
        if (lines.length > 0) blocks.push(lines.join("\n"));
        return {
          text: blocks.join("\n\n"),
          matches,
          files: i + (lines.length > 0 ? 1 : 0),
          next: file.path,
        };
      }
      lines.push(line.text);
      if (line.match) matches++;
    }
    blocks.push(lines.join("\n"));
  }
  return { text: blocks.join("\n\n"), matches, files: files.length };
}

/**
 * How to see the hits a result had no room for, said last; `first` is the
 * line the result starts with, for a client that keeps only its two ends.
 */
export function budgetNotes(
  shown: Rendered,
  found: { matches: number; files: number; more: boolean; context: number },
  v: Voice = MODEL_VOICE,
): { first: string; last: string } {
  const of = `${shown.matches} of ${found.matches}${found.more ? "+" : ""} matches`;
  const less = found.context > 0 ? ", less context" : "";
  return {
    first: `[${of} shown; the last line says how to see the rest]`,
    last: `[showing ${of} (in ${shown.files} of ${found.files} files): the rest does not fit in one result. The next file with matches is ${escapeControls(shown.next ?? "")}: search it with ${v.arg("path")}, or narrow the search with ${v.arg("path")}, ${v.arg("glob")} (e.g. "*.ts")${less} or a more specific pattern]`,
  };
}

/** Names a few paths: `a, b and 3 more`. */
function some(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(", ");
  return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown;
}

/**
 * Why nothing was found. Files that matched but are binary, or that .gitignore
 * excludes, explain it better than any guess about the pattern.
 */
export function emptyNotice(
  args: SearchArgs,
  where: string,
  binary: readonly string[],
  ignored: readonly string[],
  v: Voice = MODEL_VOICE,
): string {
  let hint = "";
  if (ignored.length > 0) {
    hint = `; it matches in files .gitignore excludes, which search skips, such as ${ignored.join(", ")}. Name one as the path to search it, or read it`;
  } else if (binary.length > 0) {
    hint =
      binary.length === 1 && binary[0] === where
        ? `; ${where} is a binary file (it has a NUL byte), and search never shows binary files`
        : `; it matches only in binary files, which search never shows: ${some(binary)}`;
  } else if (!args.regex && /[\\^$.*+?()[\]{}|]/.test(args.pattern)) {
    hint = `; the pattern was searched as literal text, pass ${v.option("regex", true)} for a regular expression`;
  } else if (!args.ignore_case && /[A-Za-z]/.test(args.pattern)) {
    hint = `; try ${v.option("ignore_case", true)} or a shorter pattern`;
  }
  return `[no matches for ${JSON.stringify(clip(args.pattern))} in ${where}${hint}]`;
}

/** Why not all matches are shown; not "the first": taking the first by path would mean a second, single-threaded rg run. */
export function moreNote(
  matches: number,
  files: number,
  limit: number,
  v: Voice = MODEL_VOICE,
): string {
  const raise =
    limit < SEARCH_LIMITS.maxLimit
      ? `, or raise ${v.arg("limit")} (now ${limit}, at most ${SEARCH_LIMITS.maxLimit})`
      : "";
  return `\n\n[showing ${matches} matches in ${files} files; there are more, and which are shown can change between calls (ripgrep searches files in parallel). Narrow the search to a folder or file, with ${v.arg("glob")} (e.g. "*.ts") or with a more specific pattern${raise}]`;
}
