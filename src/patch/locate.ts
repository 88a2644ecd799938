/**
 * Where a hunk goes: its old lines as whole lines verbatim first, then the
 * replace engine's fuzzy ladder. A hunk must match one place (after the
 * previous hunk, inside its `@@` anchor's block when it has one) or it is
 * refused, naming the places; a looser search never breaks a tie.
 */
import { diffArrays } from "diff";
import { foldLookalikes, lineKey } from "../text/match/normalize.js";
import { type Candidate, type MatchMode, type Rung, replaceText } from "../text/replace.js";
import type { Hunk } from "./types.js";

export type HunkErrorCode = "not_found" | "ambiguous" | "suspicious" | "invalid_input";

/** A hunk that cannot be placed with certainty. Lines are 1-based in the original file. */
export class HunkError extends Error {
  constructor(
    readonly code: HunkErrorCode,
    message: string,
    readonly hunk: number,
    readonly lines?: number[],
    readonly candidates?: Candidate[],
  ) {
    super(message);
    this.name = "HunkError";
  }
}

export interface Span {
  /** 0-based [from, to) in the current lines. */
  from: number;
  to: number;
}

interface Located {
  span: Span;
  /** The replacement for the span, and where each of its lines came from. */
  lines: string[];
  origin: number[];
  /** Per replacement line: the current line whose terminator it takes (-1: the dominant one). */
  eolFrom: number[];
  mode: MatchMode;
  rung: Rung;
  score: number;
  warnings: string[];
}

type Search = { ok: true; found: Located } | { ok: false; error: Refusal };

interface Refusal {
  code: HunkErrorCode;
  lines?: number[];
  candidates?: Candidate[];
}

const MAX_LISTED = 10;

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
export class FileState {
  lines: string[];
  origin: number[];
  /** Per line: the original line whose terminator it keeps (a replaced line keeps its own). */
  eolFrom: number[];
  readonly originalCount: number;
  constructor(lines: readonly string[]) {
    this.lines = [...lines];
    this.origin = this.lines.map((_, i) => i);
    this.eolFrom = [...this.origin];
    this.originalCount = lines.length;
  }

  /**
   * The 1-based original line at current index `i`: the line itself when it
   * is an original one, else the line after the nearest original line above
   * (a new line, or the end, sits where that next original line would be).
   */
  lineNo(i: number): number {
    if (i < this.lines.length && this.origin[i]! >= 0) return this.origin[i]! + 1;
    for (let k = Math.min(i, this.lines.length) - 1; k >= 0; k--) {
      if (this.origin[k]! >= 0) return this.origin[k]! + 2;
    }
    return 1;
  }

  /** Current index just after original line `n` (1-based; 0 = the start). */
  indexAfterOriginal(n: number): number {
    if (n <= 0) return 0;
    let best = 0;
    for (let i = 0; i < this.origin.length; i++) {
      const o = this.origin[i]!;
      if (o >= 0 && o < n) best = i + 1;
      if (o >= n) break;
    }
    return best;
  }

  /** Current index of original line `n` (0-based), or -1 when it is gone. */
  indexOfOriginal(n: number): number {
    const i = this.indexAfterOriginal(n);
    return this.origin[i] === n ? i : -1;
  }

  /** `eolFrom` holds current indexes (as a Located's does); they become original lines here. */
  splice(span: Span, lines: string[], origin: number[], eolFrom: number[]): void {
    const eols = eolFrom.map((i) => (i >= 0 ? this.eolFrom[i]! : -1));
    this.lines.splice(span.from, span.to - span.from, ...lines);
    this.origin.splice(span.from, span.to - span.from, ...origin);
    this.eolFrom.splice(span.from, span.to - span.from, ...eols);
  }
}

/** Finds the hunk's @@ anchors in order from `pos`; the region is the last one's block. */
export function anchorRegion(state: FileState, hunk: Hunk, pos: number, name: string): Span {
  let region: Span = { from: pos, to: state.lines.length };
  for (const anchor of hunk.anchors) {
    const want = anchor.trim();
    let at = -1;
    for (let i = region.from; i < region.to; i++) {
      if (state.lines[i]!.trim() === want) {
        at = i;
        break;
      }
    }
    if (at === -1) {
      const after = region.from > 0 ? ` after line ${state.lineNo(region.from - 1)}` : "";
      throw new HunkError(
        "not_found",
        `${name}: no line reads "${want}"${after}, so the hunk's place is unknown. Nothing was applied. Name a line that is in the file (the function or class the change is in), or leave the @@ line empty.`,
        hunk.index,
      );
    }
    region = { from: at + 1, to: blockEnd(state.lines, at, region.to) };
  }
  return region;
}

const CLOSER = /^\s*(?:[}\])]|end\b|fi\b|done\b|esac\b)/;
const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * Where the block a line opens ends: after the lines indented deeper than it
 * (and a closing bracket at its own level). A line with nothing indented
 * under it (a Markdown heading) opens a block that runs to `limit`.
 */
function blockEnd(lines: readonly string[], at: number, limit: number): number {
  const indent = indentOf(lines[at]!);
  let deeper = false;
  let end = at + 1;
  for (let i = at + 1; i < limit; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    if (indentOf(line) > indent) {
      deeper = true;
      end = i + 1;
      continue;
    }
    if (deeper && CLOSER.test(line)) end = i + 1;
    break;
  }
  return deeper ? end : limit;
}

/**
 * Where the hunk's old lines are: in the region after the previous hunk (or
 * its anchor's block), then the whole rest after the anchor, then, for a
 * hunk given out of order, the whole file. Ambiguity at any step refuses.
 */
export function locate(
  state: FileState,
  hunk: Hunk,
  oldLines: string[],
  newLines: string[],
  pos: number,
  name: string,
  hint?: PlaceHint,
): Located {
  if (hunk.atEnd) return locateAtEnd(state, hunk, oldLines, newLines, pos, name);
  const n = state.lines.length;
  const regions: Span[] = [];
  if (hunk.anchors.length > 0) {
    let anchored: Span | undefined;
    try {
      anchored = anchorRegion(state, hunk, pos, name);
    } catch (error) {
      if (pos === 0) throw error;
      anchored = anchorRegion(state, hunk, 0, name);
    }
    regions.push(anchored);
    if (anchored.to < n) regions.push({ from: anchored.from, to: n });
  } else {
    regions.push({ from: pos, to: n });
    if (pos > 0) regions.push({ from: 0, to: n });
  }
  let last: Refusal | undefined;
  for (const [k, region] of regions.entries()) {
    const result = search(state, hunk, oldLines, newLines, region, hint);
    if (result.ok) {
      if (k > 0 && region.from === 0 && hunk.anchors.length === 0) {
        result.found.warnings.push(
          "it matched above the previous hunk; hunks are expected in file order.",
        );
      }
      return result.found;
    }
    last = result.error;
    if (result.error.code !== "not_found") break;
  }
  throw refusal(hunk, name, last!);
}

/**
 * A hunk pinned to the end of the file (Codex `*** End of File`, a unified
 * `\ No newline` after its old lines) matches its last lines or nothing, as
 * Codex's apply_patch does: the same lines elsewhere are another place.
 */
function locateAtEnd(
  state: FileState,
  hunk: Hunk,
  oldLines: string[],
  newLines: string[],
  pos: number,
  name: string,
): Located {
  const n = state.lines.length;
  const from = n - oldLines.length;
  if (from >= pos) {
    if (oldLines.every((l, k) => state.lines[from + k] === l)) {
      return exactLocated(state, hunk, { from, to: n });
    }
    const tail = search(state, hunk, oldLines, newLines, { from, to: n }, undefined);
    if (tail.ok && tail.found.span.to === n) return tail.found;
  }
  const elsewhere = lineAlignedMatches(state.lines, oldLines, 0, n).map((s) => state.lineNo(s));
  const where =
    elsewhere.length > 0
      ? ` (they are at line ${elsewhere.slice(0, MAX_LISTED).join(", ")} of ${n})`
      : "";
  const mark = hunk.oldNoNewline
    ? '"\\ No newline at end of file" after its old lines'
    : '"*** End of File"';
  throw new HunkError(
    "not_found",
    `${name} has ${mark}, but its old lines are not the last lines of the file${where}. Nothing was applied. Read the end of the file again and rebuild the hunk from its last lines, or remove that marker if the change is not at the end.`,
    hunk.index,
    elsewhere,
  );
}

function exactLocated(state: FileState, hunk: Hunk, span: Span): Located {
  return spanLocated(state, hunk, span, "exact");
}

/**
 * The hunk over a span its old lines matched line for line: context lines
 * stay the file's own, and an added line that replaces a removed one keeps
 * that line's terminator (a mixed-ending file stays as it was).
 */
function spanLocated(state: FileState, hunk: Hunk, span: Span, rung: Rung): Located {
  const lines: string[] = [];
  const origin: number[] = [];
  const eolFrom: number[] = [];
  let removed: number[] = [];
  let k = span.from;
  for (const l of hunk.lines) {
    if (l.op === "-") removed.push(k++);
    else if (l.op === "+") {
      lines.push(l.text);
      origin.push(-1);
      eolFrom.push(removed.shift() ?? -1);
    } else {
      removed = [];
      lines.push(state.lines[k]!);
      origin.push(state.origin[k]!);
      eolFrom.push(k);
      k++;
    }
  }
  const mode: MatchMode = rung === "exact" ? "exact" : "fuzzy";
  return { span, lines, origin, eolFrom, mode, rung, score: 1, warnings: [] };
}

function search(
  state: FileState,
  hunk: Hunk,
  oldLines: string[],
  newLines: string[],
  region: Span,
  hint: PlaceHint | undefined,
): Search {
  const starts = lineAlignedMatches(state.lines, oldLines, region.from, region.to);
  if (starts.length > 1) {
    const chosen = hint ? tieBreak(state, oldLines, region, hint, starts) : undefined;
    if (chosen) {
      const found = exactLocated(state, hunk, {
        from: chosen.from,
        to: chosen.from + oldLines.length,
      });
      found.warnings.push(chosen.why);
      return { ok: true, found };
    }
    return { ok: false, error: { code: "ambiguous", lines: starts.map((s) => state.lineNo(s)) } };
  }
  if (starts.length === 1) {
    const from = starts[0]!;
    return { ok: true, found: exactLocated(state, hunk, { from, to: from + oldLines.length }) };
  }
  const regionLines = state.lines.slice(region.from, region.to);
  const result = fuzzy(state, regionLines, oldLines, newLines, region);
  // Codex's per-line comparisons are stricter than the anchored rung, looser than the rest.
  const looser = result.ok ? result.found.rung === "anchored" : result.error.code === "not_found";
  if (!looser) return result;
  return perLine(state, hunk, regionLines, oldLines, region) ?? result;
}

/**
 * Several exact places: the header decides, as `git apply` does, when it
 * points at one of them. First a hunk that a diff tool ended at the end of
 * the file (or began at its start) takes the place there; then the place at
 * the header's line moved by the drift of the hunk before; then the nearest
 * place between the header's line and that one. Refused (undefined) when
 * none is there, when two are equally near, or when another place overlaps
 * the chosen one: repeating lines like that leave only the number to go by.
 */
function tieBreak(
  state: FileState,
  oldLines: string[],
  region: Span,
  hint: PlaceHint,
  starts: number[],
): { from: number; why: string } | undefined {
  const m = oldLines.length;
  const at = (i: number) =>
    i >= region.from && i + m <= region.to && oldLines.every((l, k) => state.lines[i + k] === l);
  const others = (from: number) => {
    const rest = starts.filter((s) => s !== from).map((s) => state.lineNo(s));
    const more = starts.length > MAX_LISTED ? " and more" : "";
    return `${rest.slice(0, MAX_LISTED).join(", ")}${more}`;
  };
  const n = state.lines.length;
  if (hint.end && region.to === n && at(n - m)) {
    const from = n - m;
    return {
      from,
      why: `its old lines also match line ${others(from)}; it ends at the end of the file, as its header says (no lines after its change), so it was applied at line ${state.lineNo(from)}, the last lines.`,
    };
  }
  if (hint.start && region.from === 0 && at(0)) {
    return {
      from: 0,
      why: `its old lines also match line ${others(0)}; it begins at the start of the file, as its header says, so it was applied at line 1.`,
    };
  }
  if (hint.line === undefined) return undefined;
  const overlapped = (from: number) =>
    lineAlignedMatches(
      state.lines,
      oldLines,
      Math.max(region.from, from - m + 1),
      Math.min(region.to, from + 2 * m - 1),
    ).some((s) => s !== from);
  const shifted =
    hint.drift !== 0
      ? ` (the header's line ${hint.header} moved ${hint.drift > 0 ? "+" : ""}${hint.drift} like the hunk before)`
      : "";
  const exact = state.indexOfOriginal(hint.line - 1);
  if (exact !== -1 && at(exact)) {
    if (overlapped(exact)) return undefined;
    return {
      from: exact,
      why: `its old lines also match line ${others(exact)}; it was applied at line ${hint.line}, where its header says${shifted}.`,
    };
  }
  if (hint.drift === 0) return undefined;
  // Between the header's own line and where the drift moves it.
  const lo = Math.min(hint.header, hint.line);
  const hi = Math.max(hint.header, hint.line);
  const from = Math.max(region.from, state.indexAfterOriginal(lo - 1));
  const to = Math.min(region.to, state.indexAfterOriginal(hi) + m - 1);
  const near = lineAlignedMatches(state.lines, oldLines, from, to);
  if (near.length === 0 || near.length > MAX_LISTED) return undefined;
  const dist = (s: number) => Math.abs(state.lineNo(s) - hint.line!);
  const sorted = [...near].sort((a, b) => dist(a) - dist(b));
  const best = sorted[0]!;
  if (sorted.length > 1 && dist(sorted[1]!) === dist(best)) return undefined;
  if (overlapped(best)) return undefined;
  return {
    from: best,
    why: `its old lines also match line ${others(best)}; it was applied at line ${state.lineNo(best)}, the nearest to where its header says${shifted}.`,
  };
}

/**
 * Codex's own context matching, for what the replace engine's ladder did not
 * find: each line compared ignoring trailing whitespace, then all surrounding
 * whitespace, then Unicode look-alikes too; the first comparison that finds
 * anything decides, and it must find one place. Added lines go in as written.
 */
function perLine(
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

/**
 * Starts (0-based) of every place where `needle` is whole lines of `hay`,
 * overlapping ones included, at most MAX_LISTED + 1. Knuth-Morris-Pratt over
 * lines: linear even in a file of identical lines.
 */
function lineAlignedMatches(
  hay: readonly string[],
  needle: readonly string[],
  from: number,
  to: number,
): number[] {
  const m = needle.length;
  if (m === 0 || m > to - from) return [];
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && needle[i] !== needle[k]) k = fail[k - 1]!;
    if (needle[i] === needle[k]) k++;
    fail[i] = k;
  }
  const out: number[] = [];
  for (let i = from, q = 0; i < to; i++) {
    while (q > 0 && needle[q] !== hay[i]) q = fail[q - 1]!;
    if (needle[q] === hay[i]) q++;
    if (q === m) {
      out.push(i - m + 1);
      if (out.length > MAX_LISTED) break;
      q = fail[q - 1]!;
    }
  }
  return out;
}

/**
 * The replace engine's ladder on the region. Its exact rung matches
 * substrings; whole-line old lines that match only mid-line are retried with
 * a trailing space on the first line, which the fuzzy rungs ignore.
 */
function fuzzy(
  state: FileState,
  regionLines: string[],
  oldLines: string[],
  newLines: string[],
  region: Span,
): Search {
  const text = regionLines.length === 0 ? "" : `${regionLines.join("\n")}\n`;
  const join = (lines: string[]) => `${lines.join("\n")}\n`;
  let outcome = replaceText(text, { oldText: join(oldLines), newText: join(newLines) });
  if (outcome.ok && (outcome.rung === "exact" || outcome.rung === "line_endings")) {
    // An exact substring that was not whole lines (the line-aligned search found none).
    const first = [`${oldLines[0]} `, ...oldLines.slice(1)];
    const sameFirst = newLines[0] === oldLines[0];
    const firstNew = sameFirst ? [`${newLines[0]} `, ...newLines.slice(1)] : newLines;
    // A padded context line is unchanged between old and new, so the file's own line stays.
    outcome = replaceText(text, { oldText: join(first), newText: join(firstNew) });
  }
  if (!outcome.ok) {
    return {
      ok: false,
      error: {
        code: outcome.code,
        ...(outcome.lines
          ? { lines: outcome.lines.map((l) => state.lineNo(region.from + l - 1)) }
          : {}),
        ...(outcome.candidates
          ? {
              candidates: outcome.candidates.map((c) => ({
                ...c,
                startLine: state.lineNo(region.from + c.startLine - 1),
                endLine: state.lineNo(region.from + c.endLine - 1),
              })),
            }
          : {}),
      },
    };
  }
  const [s, e] = outcome.matchedLines[0]!;
  const out = outcome.text === "" ? [] : outcome.text.replace(/\n$/, "").split("\n");
  const after = regionLines.length - e;
  const spanOld = regionLines.slice(s - 1, e);
  const spanNew = out.slice(s - 1, out.length - after);
  const { origin, eolFrom } = mapOrigins(spanOld, spanNew, state.origin, region.from + s - 1);
  const warnings = outcome.warnings.filter((w) => !/\bline/.test(w)).map(engineWords);
  return {
    ok: true,
    found: {
      span: { from: region.from + s - 1, to: region.from + e },
      lines: spanNew,
      origin,
      eolFrom,
      mode: outcome.mode,
      rung: outcome.rung,
      score: outcome.score,
      warnings,
    },
  };
}

function engineWords(w: string): string {
  return w
    .replaceAll("old_text", "the hunk's old lines")
    .replaceAll("new_text", "the hunk's new lines");
}

/**
 * Which new lines are old lines kept as they were (by a line diff of the
 * span starting at current index `at`), and whose terminator each takes: its
 * own, or that of the removed line it replaces.
 */
function mapOrigins(
  oldSpan: string[],
  newSpan: string[],
  origins: readonly number[],
  at: number,
): { origin: number[]; eolFrom: number[] } {
  const origin: number[] = [];
  const eolFrom: number[] = [];
  let removed: number[] = [];
  let k = 0;
  for (const part of diffArrays(oldSpan, newSpan)) {
    for (let j = 0; j < part.value.length; j++) {
      if (part.removed) removed.push(at + k++);
      else if (part.added) {
        origin.push(-1);
        eolFrom.push(removed.shift() ?? -1);
      } else {
        removed = [];
        origin.push(origins[at + k] ?? -1);
        eolFrom.push(at + k++);
      }
    }
  }
  return { origin, eolFrom };
}

function refusal(hunk: Hunk, name: string, r: Refusal): HunkError {
  const nothing = "Nothing was applied.";
  if (r.code === "ambiguous") {
    const where = r.lines?.length
      ? ` (lines ${r.lines.slice(0, MAX_LISTED).join(", ")}${r.lines.length > MAX_LISTED ? " and more" : ""})`
      : "";
    const how =
      hunk.anchors.length > 0 || hunk.oldStart === undefined
        ? 'Add context lines that occur once, or an "@@ line" naming the function or class it is in'
        : "Add context lines that occur only at the place you mean";
    return new HunkError(
      "ambiguous",
      `${name} matches ${r.lines?.length ?? "several"} places${where}, so it is not certain where it goes. ${nothing} ${how}.`,
      hunk.index,
      r.lines,
      r.candidates,
    );
  }
  if (r.code === "suspicious") {
    return new HunkError(
      "suspicious",
      `${name} matched only a much larger block than its old lines, which is more likely different code. ${nothing} Read the file again and rebuild the hunk from its current lines.`,
      hunk.index,
      undefined,
      r.candidates,
    );
  }
  const closest = (r.candidates ?? [])
    .slice(0, 3)
    .map((c) => `${c.startLine}..${c.endLine} (similarity ${c.score.toFixed(2)})`);
  const near = closest.length > 0 ? ` The closest lines are ${closest.join(", ")}.` : "";
  const said = hunk.oldStart !== undefined ? ` (the patch says line ${hunk.oldStart})` : "";
  return new HunkError(
    r.code === "invalid_input" ? "invalid_input" : "not_found",
    `${name}: its old lines are not in the file${said}.${near} ${nothing} Read the file again and rebuild the hunk from its current lines.`,
    hunk.index,
    undefined,
    r.candidates,
  );
}
