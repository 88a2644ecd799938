/**
 * Applies one file's hunks to its lines, in order, each found by its content
 * (locate.ts). A unified header's line numbers place a hunk that has no
 * context lines, and settle one whose lines match several places
 * (place.ts), never more. Pure: lines in, lines out, plus where each line
 * came from so the caller can keep every untouched line's terminator.
 */
import { RUNG_HOW } from "../text/match/types.js";
import type { MatchMode, Rung } from "../text/replace.js";
import { anchorRegion, FileState, HunkError, locate, type PlaceHint } from "./locate.js";
import type { Hunk } from "./types.js";

export { HunkError, type HunkErrorCode } from "./locate.js";

export interface HunkPlacement {
  hunk: number;
  header: string;
  /** 1-based line of the hunk in the patch text. */
  patch_line: number;
  /** Where the unified header says the hunk starts (1-based, old file). */
  old_start?: number;
  /** Where it landed: 1-based line of the original file its first old line is (or goes before). */
  line: number;
  /** line minus where the header says; 0 when it landed where the patch says. */
  offset?: number;
  /** exact | fuzzy | anchored; "position" when a hunk without context lines was placed by number. */
  match_mode: MatchMode | "position" | "skipped";
  rung?: Rung;
  match_score?: number;
  /** The old lines matched several places; what chose this one (as git apply would). */
  chosen_by?: "end_of_file" | "start_of_file" | "header";
  /** The other places the old lines matched (1-based, at most 10). */
  other_lines?: number[];
}

export interface AppliedHunks {
  lines: string[];
  /** Per result line: the 0-based original line it is, unchanged, or -1 for a new line. */
  origin: number[];
  /** Per result line: the original line whose terminator it keeps (-1: the file's dominant one). */
  eolFrom: number[];
  finalNewline: boolean;
  hunks: HunkPlacement[];
  warnings: string[];
}

/**
 * Applies `hunks` to a file's lines (LF-split, no terminators). `path` only
 * names the file in messages. Throws HunkError when a hunk cannot be placed.
 */
export function applyHunks(
  original: { lines: readonly string[]; finalNewline: boolean },
  hunks: readonly Hunk[],
  path: string,
): AppliedHunks {
  const state = new FileState(original.lines);
  let finalNewline = original.lines.length === 0 ? true : original.finalNewline;
  const placements: HunkPlacement[] = [];
  const warnings: string[] = [];
  let pos = 0;
  let drift = 0;
  for (const hunk of hunks) {
    const oldLines = hunk.lines.filter((l) => l.op !== "+").map((l) => l.text);
    const newLines = hunk.lines.filter((l) => l.op !== "-").map((l) => l.text);
    const name = hunkName(path, hunk);
    const base: Omit<HunkPlacement, "line" | "match_mode"> = {
      hunk: hunk.index,
      header: hunk.header,
      patch_line: hunk.patchLine,
      ...(hunk.oldStart !== undefined ? { old_start: hunk.oldStart } : {}),
    };
    const expected =
      hunk.oldStart === undefined
        ? undefined
        : oldLines.length === 0
          ? hunk.oldStart + 1
          : hunk.oldStart;
    const withOffset = (line: number) =>
      expected === undefined ? {} : { offset: line - Math.max(1, expected) };

    if (oldLines.length === 0) {
      const at = insertionPoint(state, hunk, pos, name);
      const line = state.lineNo(at);
      const fresh = newLines.map(() => -1);
      state.splice({ from: at, to: at }, newLines, fresh, fresh);
      pos = at + newLines.length;
      const how = hunk.anchors.length > 0 ? "after its @@ line" : undefined;
      if (!how && hunk.oldStart !== undefined && hunk.oldStart > 0) {
        warnings.push(
          `${name} has no context lines, so it was placed by its line number (after line ${hunk.oldStart}); check the diff.`,
        );
      }
      placements.push({ ...base, line, ...withOffset(line), match_mode: "position" });
      if (at + newLines.length === state.lines.length) finalNewline = endState(hunk, finalNewline);
      continue;
    }
    if (oldLines.length === newLines.length && oldLines.every((l, k) => l === newLines[k])) {
      if (hunk.oldNoNewline === hunk.newNoNewline) {
        warnings.push(`${name} changes nothing (it has only context lines); skipped it.`);
        placements.push({ ...base, line: 0, match_mode: "skipped" });
        continue;
      }
      // Only the final newline changes: the lines must be the file's last ones.
      const from = state.lines.length - oldLines.length;
      if (from < 0 || !oldLines.every((l, k) => state.lines[from + k] === l)) {
        throw new HunkError(
          "not_found",
          `${name} changes only the final newline, but its lines are not the end of the file. Nothing was applied. Read the end of the file again.`,
          hunk.index,
        );
      }
      finalNewline = endState(hunk, finalNewline);
      const line = state.lineNo(from);
      placements.push({ ...base, line, ...withOffset(line), match_mode: "exact", rung: "exact" });
      pos = state.lines.length;
      continue;
    }

    const found = locate(state, hunk, oldLines, newLines, pos, name, placeHint(state, hunk, drift));
    const line = state.lineNo(found.span.from);
    if (expected !== undefined) drift = line - expected;
    state.splice(found.span, found.lines, found.origin, found.eolFrom);
    pos = found.span.from + found.lines.length;
    if (pos === state.lines.length) finalNewline = endState(hunk, finalNewline);
    const placement: HunkPlacement = {
      ...base,
      line,
      ...withOffset(line),
      match_mode: found.mode,
      rung: found.rung,
      ...(found.mode === "exact" ? {} : { match_score: round(found.score) }),
      ...(found.chosenBy ? { chosen_by: found.chosenBy, other_lines: found.otherLines ?? [] } : {}),
    };
    placements.push(placement);
    if (found.mode !== "exact") {
      const score = found.score < 1 ? ` (similarity ${round(found.score).toFixed(2)})` : "";
      warnings.push(`${name} matched line ${line} only ${RUNG_HOW[found.rung]}${score}.`);
    }
    warnings.push(...found.warnings.map((w) => `${name}: ${w}`));
  }
  return {
    lines: state.lines,
    origin: state.origin,
    eolFrom: state.eolFrom,
    finalNewline: state.lines.length === 0 ? original.finalNewline : finalNewline,
    hunks: placements,
    warnings,
  };
}

/**
 * What a unified header says about the hunk's place, when a diff tool wrote
 * it (its counts fit its lines) and it lies inside the file; Codex hunks and
 * bare `@@` headers say nothing.
 */
function placeHint(state: FileState, hunk: Hunk, drift: number): PlaceHint | undefined {
  if (hunk.oldStart === undefined || hunk.headerFits !== true) return undefined;
  const ops = hunk.lines.map((l) => l.op);
  const leading = ops.findIndex((op) => op !== " ");
  const trailing = ops.length - 1 - ops.findLastIndex((op) => op !== " ");
  const m = ops.filter((op) => op !== "+").length;
  const line = hunk.oldStart + drift;
  return {
    ...(line >= 1 && line + m - 1 <= state.originalCount ? { line } : {}),
    header: hunk.oldStart,
    drift,
    end: leading > 0 && trailing === 0,
    start: hunk.oldStart === 1 && leading === 0 && trailing > 0,
  };
}

/** A hunk that reaches the end of the file decides the final newline when it says so. */
function endState(hunk: Hunk, current: boolean): boolean {
  if (hunk.newNoNewline) return false;
  if (hunk.oldNoNewline) return true;
  return current;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

export function hunkName(path: string, hunk: Hunk): string {
  return `${path}: hunk ${hunk.index} (${hunk.header}, patch line ${hunk.patchLine})`;
}

function insertionPoint(state: FileState, hunk: Hunk, pos: number, name: string): number {
  if (hunk.anchors.length > 0) return anchorRegion(state, hunk, pos, name).from;
  if (hunk.oldStart !== undefined && !hunk.atEnd) return state.indexAfterOriginal(hunk.oldStart);
  return state.lines.length;
}
