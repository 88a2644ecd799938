/**
 * Applies one file's hunks to its lines, in order, each found by its content
 * (locate.ts). A unified header's line numbers place a hunk that has no
 * context lines, and settle one whose lines match several places
 * (place.ts), never more. Pure: lines in, lines out, plus where each line
 * came from so the caller can keep every untouched line's terminator.
 */
import { RUNG_HOW } from "../text/match/types.js";
import type { MatchMode, Rung } from "../text/replace.js";
import { HunkError } from "./errors.js";
import { anchorRegion, FileState, locate, type PlaceHint } from "./locate.js";
import type { Hunk } from "./types.js";

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
  chosen_by?: "end_of_file" | "start_of_file" | "header" | "same_change";
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
  const applier = new HunkApplier(original);
  hunks.forEach((hunk, i) => {
    applier.apply(hunk, path, twinsFrom(hunks, i));
  });
  return applier.result(original.finalNewline);
}

/**
 * Hunk i and the later hunks that are the same change (same lines, anchors
 * and end marker), as 0-based indexes: when they are as many as the places
 * their old lines match, every order gives the same file (locate.ts).
 */
function twinsFrom(hunks: readonly Hunk[], i: number): number[] {
  const key = (h: Hunk) =>
    JSON.stringify([h.lines, h.anchors, h.atEnd, h.oldNoNewline, h.newNoNewline]);
  const own = key(hunks[i]!);
  const out: number[] = [];
  for (let j = i; j < hunks.length; j++) if (key(hunks[j]!) === own) out.push(j);
  return out;
}

/** One hunk as the applier sees it: its two sides, its name in messages, where its header puts it. */
interface HunkSides {
  hunk: Hunk;
  oldLines: string[];
  newLines: string[];
  name: string;
  base: Omit<HunkPlacement, "line" | "match_mode">;
  /** The line the header says the hunk starts at; undefined without one. */
  expected: number | undefined;
  /** This hunk and the later ones that are the same change (0-based hunk indexes). */
  twins: readonly number[];
}

/** The hunks of one file applied in order, each placed after the one before. */
class HunkApplier {
  private readonly state: FileState;
  private finalNewline: boolean;
  private readonly placements: HunkPlacement[] = [];
  private readonly warnings: string[] = [];
  private pos = 0;
  private drift = 0;

  constructor(original: { lines: readonly string[]; finalNewline: boolean }) {
    this.state = new FileState(original.lines);
    this.finalNewline = original.lines.length === 0 ? true : original.finalNewline;
  }

  apply(hunk: Hunk, path: string, twins: readonly number[] = []): void {
    const oldLines = hunk.lines.filter((l) => l.op !== "+").map((l) => l.text);
    const newLines = hunk.lines.filter((l) => l.op !== "-").map((l) => l.text);
    const expected =
      hunk.oldStart === undefined
        ? undefined
        : oldLines.length === 0
          ? hunk.oldStart + 1
          : hunk.oldStart;
    const sides: HunkSides = {
      hunk,
      oldLines,
      newLines,
      name: hunkName(path, hunk),
      base: {
        hunk: hunk.index,
        header: hunk.header,
        patch_line: hunk.patchLine,
        ...(hunk.oldStart !== undefined ? { old_start: hunk.oldStart } : {}),
      },
      expected,
      twins,
    };
    if (oldLines.length === 0) this.insert(sides);
    else if (oldLines.length === newLines.length && oldLines.every((l, k) => l === newLines[k])) {
      this.contextOnly(sides);
    } else this.replace(sides);
  }

  private withOffset({ expected }: HunkSides, line: number) {
    return expected === undefined ? {} : { offset: line - Math.max(1, expected) };
  }

  /** A hunk with no old lines: placed by its @@ line or its line number. */
  private insert(sides: HunkSides): void {
    const { hunk, newLines, name, base } = sides;
    const { state } = this;
    const at = insertionPoint(state, hunk, this.pos, name);
    const line = state.lineNo(at);
    const fresh = newLines.map(() => -1);
    state.splice({ from: at, to: at }, newLines, fresh, fresh);
    this.pos = at + newLines.length;
    const how = hunk.anchors.length > 0 ? "after its @@ line" : undefined;
    if (!how && hunk.oldStart !== undefined && hunk.oldStart > 0) {
      this.warnings.push(
        `${name} has no context lines, so it was placed by its line number (after line ${hunk.oldStart}); check the diff.`,
      );
    }
    this.placements.push({
      ...base,
      line,
      ...this.withOffset(sides, line),
      match_mode: "position",
    });
    if (at + newLines.length === state.lines.length) {
      this.finalNewline = endState(hunk, this.finalNewline);
    }
  }

  /** A hunk whose lines stay as they are: nothing to do, or only the final newline changes. */
  private contextOnly(sides: HunkSides): void {
    const { hunk, oldLines, name, base } = sides;
    const { state } = this;
    if (hunk.oldNoNewline === hunk.newNoNewline) {
      this.warnings.push(`${name} changes nothing (it has only context lines); skipped it.`);
      this.placements.push({ ...base, line: 0, match_mode: "skipped" });
      return;
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
    this.finalNewline = endState(hunk, this.finalNewline);
    const line = state.lineNo(from);
    this.placements.push({
      ...base,
      line,
      ...this.withOffset(sides, line),
      match_mode: "exact",
      rung: "exact",
    });
    this.pos = state.lines.length;
  }

  /** A hunk that changes lines: found by its old side, then replaced by its new one. */
  private replace(sides: HunkSides): void {
    const { hunk, oldLines, newLines, name, base, expected, twins } = sides;
    const { state } = this;
    const hint = placeHint(state, hunk, this.drift);
    const found = locate(state, hunk, oldLines, newLines, this.pos, name, hint, twins.length);
    const line = state.lineNo(found.span.from);
    if (expected !== undefined) this.drift = line - expected;
    state.splice(found.span, found.lines, found.origin, found.eolFrom);
    this.pos = found.span.from + found.lines.length;
    if (this.pos === state.lines.length) this.finalNewline = endState(hunk, this.finalNewline);
    this.placements.push({
      ...base,
      line,
      ...this.withOffset(sides, line),
      match_mode: found.mode,
      rung: found.rung,
      ...(found.mode === "exact" ? {} : { match_score: round(found.score) }),
      ...(found.chosenBy ? { chosen_by: found.chosenBy, other_lines: found.otherLines ?? [] } : {}),
    });
    if (found.mode !== "exact") {
      const score = found.score < 1 ? ` (similarity ${round(found.score).toFixed(2)})` : "";
      this.warnings.push(`${name} matched line ${line} only ${RUNG_HOW[found.rung]}${score}.`);
    }
    this.warnings.push(...found.warnings.map((w) => `${name}: ${w}`));
  }

  result(originalFinalNewline: boolean): AppliedHunks {
    const { state } = this;
    return {
      lines: state.lines,
      origin: state.origin,
      eolFrom: state.eolFrom,
      finalNewline: state.lines.length === 0 ? originalFinalNewline : this.finalNewline,
      hunks: this.placements,
      warnings: this.warnings,
    };
  }
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
