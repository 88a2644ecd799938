/**
 * What settles a hunk whose old lines match several places (a unified
 * header, as git apply reads it) and the per-line comparisons Codex uses when
 * the replace engine's ladder finds nothing.
 */
import { foldLookalikes, lineKey } from "../text/match/normalize.js";
import type { Rung } from "../text/match/types.js";
import {
  type FileState,
  lineAlignedMatches,
  MAX_LISTED,
  type Search,
  type Span,
  spanLocated,
} from "./state.js";
import type { Hunk } from "./types.js";

/**
 * What a unified header says about where the hunk goes, when it is plausible:
 * `line` is the header's old start moved by the drift of the hunk before.
 */
export interface PlaceHint {
  /** 1-based original line where the header (plus drift) puts the hunk's first old line. */
  line?: number;
  /** The header's own old start, before drift. */
  header: number;
  drift: number;
  /** The hunk has context before its change and none after: a diff tool wrote it at the end. */
  end: boolean;
  /** The hunk starts at line 1 with no context before its change. */
  start: boolean;
}

/** The lines as patched so far, and which original line each one is (-1: new). */
/**
 * Several exact places: the header decides, as `git apply` does, when it
 * points at one of them. First a hunk that a diff tool ended at the end of
 * the file (or began at its start) takes the place there; then the place at
 * the header's line moved by the drift of the hunk before; then the nearest
 * place between the header's line and that one. Refused (undefined) when
 * none is there, when two are equally near, or when another place overlaps
 * the chosen one: repeating lines like that leave only the number to go by.
 */
/** Which of several places a hunk took, why, and the other places (1-based lines). */
export interface TieBreak {
  from: number;
  by: "end_of_file" | "start_of_file" | "header" | "same_change";
  others: number[];
  why: string;
}

export function tieBreak(
  state: FileState,
  oldLines: string[],
  region: Span,
  hint: PlaceHint,
  starts: number[],
): TieBreak | undefined {
  const places = placesOf(state, oldLines, region, starts);
  const edge = byFileEdge(places, hint);
  if (edge) return edge;
  if (hint.line === undefined) return undefined;
  return byHeader(places, hint, hint.line);
}

/**
 * Several exact places and as many hunks, this one and later ones, that make
 * the same change: each takes one, in file order, and any order gives the
 * same file. Not when two places overlap (changing one changes the other),
 * nor when the places outnumber the hunks (which ones are meant is unknown).
 */
export function sameChange(
  state: FileState,
  oldLines: string[],
  starts: number[],
  twins: number,
): TieBreak | undefined {
  if (twins < 2 || starts.length !== twins || starts.length > MAX_LISTED) return undefined;
  for (let k = 1; k < starts.length; k++) {
    if (starts[k]! - starts[k - 1]! < oldLines.length) return undefined;
  }
  const from = starts[0]!;
  const others = starts.slice(1).map((s) => state.lineNo(s));
  const more = twins === 2 ? "1 more hunk" : `${twins - 1} more hunks`;
  return {
    from,
    by: "same_change",
    others,
    why: `its old lines also match line ${others.join(", ")}, and the patch has ${more} making this same change, one for each place; any order gives the same file, so they were applied in file order (this one at line ${state.lineNo(from)}).`,
  };
}

/** The places a hunk's old lines match, and what a tie-break asks of them. */
interface Places {
  state: FileState;
  oldLines: string[];
  region: Span;
  starts: number[];
  /** Whether the old lines are at index i, inside the region. */
  at(i: number): boolean;
  /** The other places, as 1-based lines (at most MAX_LISTED). */
  rest(from: number): number[];
  /** The other places, for a sentence. */
  others(from: number): string;
  /** Whether another match overlaps the one at `from`. */
  overlapped(from: number): boolean;
}

function placesOf(state: FileState, oldLines: string[], region: Span, starts: number[]): Places {
  const m = oldLines.length;
  const rest = (from: number) =>
    starts
      .filter((s) => s !== from)
      .slice(0, MAX_LISTED)
      .map((s) => state.lineNo(s));
  return {
    state,
    oldLines,
    region,
    starts,
    at: (i) =>
      i >= region.from && i + m <= region.to && oldLines.every((l, k) => state.lines[i + k] === l),
    rest,
    others: (from) => `${rest(from).join(", ")}${starts.length > MAX_LISTED ? " and more" : ""}`,
    overlapped: (from) =>
      lineAlignedMatches(
        state.lines,
        oldLines,
        Math.max(region.from, from - m + 1),
        Math.min(region.to, from + 2 * m - 1),
      ).some((s) => s !== from),
  };
}

/** A hunk whose header says it ends the file, or begins it, and whose lines are there. */
function byFileEdge(places: Places, hint: PlaceHint): TieBreak | undefined {
  const { state, oldLines, region, at, rest, others } = places;
  const m = oldLines.length;
  const n = state.lines.length;
  if (hint.end && region.to === n && at(n - m)) {
    const from = n - m;
    return {
      from,
      by: "end_of_file",
      others: rest(from),
      why: `its old lines also match line ${others(from)}; it ends at the end of the file, as its header says (no lines after its change), so it was applied at line ${state.lineNo(from)}, the last lines.`,
    };
  }
  if (hint.start && region.from === 0 && at(0)) {
    return {
      from: 0,
      by: "start_of_file",
      others: rest(0),
      why: `its old lines also match line ${others(0)}; it begins at the start of the file, as its header says, so it was applied at line 1.`,
    };
  }
  return undefined;
}

/** The place at the header's line, else one clearly nearest to it, else the nearest between it and where the drift moves it. */
function byHeader(places: Places, hint: PlaceHint, line: number): TieBreak | undefined {
  const { state, oldLines, at, rest, others, overlapped } = places;
  const shifted =
    hint.drift !== 0
      ? ` (the header's line ${hint.header} moved ${hint.drift > 0 ? "+" : ""}${hint.drift} like the hunk before)`
      : "";
  const exact = state.indexOfOriginal(line - 1);
  if (exact !== -1 && at(exact)) {
    if (overlapped(exact)) return undefined;
    return {
      from: exact,
      by: "header",
      others: rest(exact),
      why: `its old lines also match line ${others(exact)}; it was applied at line ${line}, where its header says${shifted}.`,
    };
  }
  const nearest = clearlyNearest(state, places.starts, line, oldLines.length);
  if (hint.drift === 0 || nearest !== undefined) {
    if (nearest === undefined || overlapped(nearest)) return undefined;
    return {
      from: nearest,
      by: "header",
      others: rest(nearest),
      why: `its old lines also match line ${others(nearest)}; it was applied at line ${state.lineNo(nearest)}, ${Math.abs(state.lineNo(nearest) - line)} line(s) from where its header says${shifted}, and every other place is far away.`,
    };
  }
  return betweenDrift(places, hint, line, shifted);
}

/** Between the header's own line and where the drift moves it: the one nearest to the moved line. */
function betweenDrift(
  places: Places,
  hint: PlaceHint,
  line: number,
  shifted: string,
): TieBreak | undefined {
  const { state, oldLines, region, rest, others, overlapped } = places;
  const m = oldLines.length;
  const lo = Math.min(hint.header, line);
  const hi = Math.max(hint.header, line);
  const from = Math.max(region.from, state.indexAfterOriginal(lo - 1));
  const to = Math.min(region.to, state.indexAfterOriginal(hi) + m - 1);
  const near = lineAlignedMatches(state.lines, oldLines, from, to);
  if (near.length === 0 || near.length > MAX_LISTED) return undefined;
  const dist = (s: number) => Math.abs(state.lineNo(s) - line);
  const sorted = [...near].sort((a, b) => dist(a) - dist(b));
  const best = sorted[0]!;
  if (sorted.length > 1 && dist(sorted[1]!) === dist(best)) return undefined;
  if (overlapped(best)) return undefined;
  return {
    from: best,
    by: "header",
    others: rest(best),
    why: `its old lines also match line ${others(best)}; it was applied at line ${state.lineNo(best)}, the nearest to where its header says${shifted}.`,
  };
}

/** How near the header a place must be, and how far every other one, for the near one to be taken. */
const NEAR_LINES = 20;
const FAR_LINES = 200;

/**
 * The one place within NEAR_LINES of the header's line when every other
 * place is at least FAR_LINES and ten hunk lengths away, as git would take
 * it (the file grew a little above the hunk). Two copies closer than that
 * stay refused: a header a few lines off cannot tell them apart.
 */
function clearlyNearest(
  state: FileState,
  starts: readonly number[],
  line: number,
  length: number,
): number | undefined {
  const dist = (s: number) => Math.abs(state.lineNo(s) - line);
  const sorted = [...starts].sort((a, b) => dist(a) - dist(b));
  const [best, second] = sorted;
  if (best === undefined || dist(best) > NEAR_LINES) return undefined;
  if (second !== undefined && dist(second) < Math.max(FAR_LINES, 10 * length)) return undefined;
  return best;
}

/**
 * Codex's own context matching, for what the replace engine's ladder did not
 * find: each line compared ignoring trailing whitespace, then all surrounding
 * whitespace, then Unicode look-alikes too; the first comparison that finds
 * anything decides, and it must find one place. Added lines go in as written.
 */
export function perLine(
  state: FileState,
  hunk: Hunk,
  regionLines: string[],
  oldLines: string[],
  region: Span,
): Search | undefined {
  const rungs: [Rung, (line: string) => string][] = [
    ["trailing_whitespace", (l) => lineKey("trailing", l)],
    ["indentation", (l) => lineKey("indent", l)],
    ["unicode", (l) => foldLookalikes(l).trim()],
  ];
  for (const [rung, key] of rungs) {
    const hay = regionLines.map(key);
    const starts = lineAlignedMatches(hay, oldLines.map(key), 0, hay.length);
    if (starts.length > 1) {
      return {
        ok: false,
        error: { code: "ambiguous", lines: starts.map((s) => state.lineNo(region.from + s)) },
      };
    }
    if (starts.length === 1) {
      const from = region.from + starts[0]!;
      return {
        ok: true,
        found: spanLocated(state, hunk, { from, to: from + oldLines.length }, rung),
      };
    }
  }
  return undefined;
}
