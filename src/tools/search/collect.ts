/**
 * Folds rg's JSON messages into the search tool's hits. rg reports a binary
 * file only in the file's `end` message (it stops at the NUL byte, which may
 * come after matches it already printed), so a file's hits count only once its
 * `end` has arrived: past the limit rg runs on to the end of the current file,
 * never stopping inside one.
 */
import {
  type RgLine,
  type RgOutcome,
  type RgStarter,
  rgText,
  runRipgrep,
} from "../../proc/ripgrep.js";

/** A shown line longer than this is cut to a window around its first match. */
export const MAX_LINE_CHARS = 300;

export interface SearchHit {
  /** Root-relative path. */
  path: string;
  line: number;
  text: string;
}

interface ShownLine {
  line: number;
  text: string;
  match: boolean;
  /** The whole line as rg read it, without its line break: checked against the confined read. */
  raw: string;
}

export interface FileHits {
  path: string;
  lines: ShownLine[];
  lastMatch: number;
  /** Index of this file's first entry in `hits`, to take them back if it turns out binary. */
  firstHit: number;
  /** It has a match past the limit. */
  more: boolean;
}

export interface Collected {
  files: FileHits[];
  hits: SearchHit[];
  /** More matches than the limit. */
  truncated: boolean;
  /** Files with matches that turned out binary, so show nothing. */
  binary: string[];
  outcome: RgOutcome;
}

export interface CollectOptions {
  argv: string[];
  cwd: string;
  limit: number;
  /** The root-relative path of a file rg printed, or undefined when it must not be shown. */
  accept: (printed: string) => string | undefined;
  signal?: AbortSignal;
  /** Runs rg on a remote root's machine instead of here. */
  start?: RgStarter;
}

function rawText(data: RgLine): string {
  return rgText(data.lines).replace(/\r?\n$/, "");
}

/** One line as shown: no line break, and a window around the match when very long. */
function shownText(data: RgLine): string {
  const text = rgText(data.lines).replace(/\r?\n$/, "");
  if (text.length <= MAX_LINE_CHARS) return text;
  const first = data.submatches[0];
  const at = first ? Buffer.from(text, "utf8").subarray(0, first.start).toString("utf8").length : 0;
  return clipLine(text, at);
}

/** `text` as shown: whole, or when very long a window around character `at` (the match). */
export function clipLine(text: string, at: number): string {
  const max = MAX_LINE_CHARS;
  if (text.length <= max) return text;
  const start = Math.max(0, Math.min(at - Math.floor(max / 3), text.length - max));
  const head = start > 0 ? "…" : "";
  const tail = start + max < text.length ? "…" : "";
  return head + text.slice(start, start + max) + tail;
}

/** Runs rg and keeps at most `limit` matches, from files rg finished and found not binary. */
export async function collectHits(options: CollectOptions): Promise<Collected> {
  const { limit } = options;
  const files: FileHits[] = [];
  const hits: SearchHit[] = [];
  const binary: string[] = [];
  let current: FileHits | undefined;
  let truncated = false;

  const outcome = await runRipgrep(
    options.argv,
    options.cwd,
    (message) => {
      switch (message.type) {
        case "begin": {
          const rel = options.accept(rgText(message.data.path));
          current =
            rel === undefined
              ? undefined
              : { path: rel, lines: [], lastMatch: 0, firstHit: hits.length, more: false };
          return true;
        }
        case "match": {
          if (!current || message.data.line_number === null) return true;
          if (hits.length >= limit) {
            current.more = true;
            return true;
          }
          const text = shownText(message.data);
          const line = message.data.line_number;
          current.lines.push({ line, text, match: true, raw: rawText(message.data) });
          current.lastMatch = line;
          hits.push({ path: current.path, line, text });
          return true;
        }
        case "context": {
          if (current && !current.more && message.data.line_number !== null) {
            current.lines.push({
              line: message.data.line_number,
              text: shownText(message.data),
              match: false,
              raw: rawText(message.data),
            });
          }
          return true;
        }
        case "end": {
          const file = current;
          current = undefined;
          if (!file) return true;
          if (message.data.binary_offset !== null) {
            hits.length = file.firstHit;
            if (file.lastMatch > 0 || file.more) binary.push(file.path);
            return true;
          }
          if (file.lastMatch > 0) files.push(file);
          truncated = file.more;
          return !truncated;
        }
        default:
          return true;
      }
    },
    options.signal,
    options.start,
  );
  return { files, hits, truncated, binary, outcome };
}
