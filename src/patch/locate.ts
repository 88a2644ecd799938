/**
 * Where a hunk goes: its old lines as whole lines verbatim first, then the
 * replace engine's fuzzy ladder. A hunk must match one place (after the
 * previous hunk, inside its `@@` anchor's block when it has one) or it is
 * refused, naming the places, unless its unified header settles it (place.ts);
 * a looser search never breaks a tie.
 */
import { diffArrays } from "diff";
import { replaceText } from "../text/replace.js";
import { HunkError } from "./errors.js";
import { type PlaceHint, perLine, sameChange, tieBreak } from "./place.js";
import {
  FileState,
  type Located,
  lineAlignedMatches,
  MAX_LISTED,
  type Refusal,
  type Search,
  type Span,
  spanLocated,
} from "./state.js";
import type { Hunk } from "./types.js";

export { FileState, type PlaceHint };

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
  twins = 1,
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
    const result = search(state, hunk, oldLines, newLines, region, hint, twins);
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

function search(
  state: FileState,
  hunk: Hunk,
  oldLines: string[],
  newLines: string[],
  region: Span,
  hint: PlaceHint | undefined,
  twins = 1,
): Search {
  const starts = lineAlignedMatches(state.lines, oldLines, region.from, region.to);
  if (starts.length > 1) {
    const chosen =
      (hint ? tieBreak(state, oldLines, region, hint, starts) : undefined) ??
      sameChange(state, oldLines, starts, twins);
    if (chosen) {
      const found = exactLocated(state, hunk, {
        from: chosen.from,
        to: chosen.from + oldLines.length,
      });
      found.warnings.push(chosen.why);
      found.chosenBy = chosen.by;
      found.otherLines = chosen.others;
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
