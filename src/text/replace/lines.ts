/**
 * Applies a fuzzy match: only what the model changed. old_text and new_text
 * are aligned with a line diff; lines they share are context and keep the
 * file's own text (a misremembered or re-indented context line is never
 * written); each changed line replaces the file line its old_text line stands
 * for, re-indented and un-escaped the way the match mapped old_text onto the
 * file. When that file line is missing or reads differently, or the file has
 * unquoted lines where an insertion would go or inside a stretch being
 * rewritten, the edit is refused rather than guessed.
 */
import { lineChanges } from "../match/changes.js";
import { IDENTITY, type IndentMap, reindent, solveIndentMap } from "../match/indent.js";
import { linesRef } from "../match/messages.js";
import { isBlank, leadingWs, lineKey, unescapeOnce } from "../match/normalize.js";
import type { LineSpan, OldLines, Refusal } from "../match/types.js";

/**
 * A line new_text changes must be at least this similar to the file line it
 * replaces: a typo or a changed literal passes, a different statement does
 * not (its change would land on a line the model never saw).
 */
export const CHANGED_LINE_MIN = 0.8;

export type SpanEdit =
  | {
      ok: true;
      /** What replaces file lines [span.from, span.to). */
      lines: string[];
      /** 0-based file lines kept although old_text's version of them differs. */
      kept: number[];
    }
  | Refusal;

export function editSpan(
  fileLines: readonly string[],
  span: LineSpan,
  old: OldLines,
  newLines: readonly string[],
): SpanEdit {
  const editor = new SpanEditor(fileLines, span, old.lines);
  const changes = lineChanges(old.lines, newLines);
  for (let c = 0; c < changes.length; c++) {
    const change = changes[c]!;
    if (!change.added && !change.removed) {
      editor.keep(change.count);
      continue;
    }
    // A hunk: removed old lines, then the added new lines, in either order.
    let removed = 0;
    let added: string[] = [];
    while (c < changes.length && (changes[c]!.added || changes[c]!.removed)) {
      if (changes[c]!.removed) removed += changes[c]!.count;
      else added = added.concat(changes[c]!.value);
      c++;
    }
    c--;
    const refused = editor.hunk(removed, added);
    if (refused) return refused;
  }
  return editor.result();
}

/** The edit of one span as old_text's changes are walked, in order. */
class SpanEditor {
  private readonly region: string;
  private readonly aligned: Set<number>;
  private readonly replaced = new Map<number, string[]>();
  private readonly inserted = new Map<number, string[]>();
  private readonly kept: number[] = [];
  /** The last file line reached; an insertion goes after it. */
  private lastPos: number;
  /** The next old_text line. */
  private oi = 0;

  constructor(
    private readonly fileLines: readonly string[],
    private readonly span: LineSpan,
    private readonly olds: readonly string[],
  ) {
    this.region = linesRef(span.from + 1, span.to);
    this.aligned = new Set(span.align.filter((f) => f >= 0));
    this.lastPos = span.from - 1;
  }

  private place(line: string, oi: number): string {
    const { span } = this;
    const unescaped = span.escapes === "over" ? unescapeOnce(line) : line;
    return reindent(unescaped, span.indent ?? localIndent(this.fileLines, span, this.olds, oi));
  }

  /**
   * A changed line that replaces file line f keeps that line's own
   * indentation when the model did not change the indentation it quoted
   * (so a tab quoted for three spaces stays three spaces).
   */
  private placeOver(line: string, oi: number, f: number): string {
    const indent = leadingSpace(line);
    if (indent !== leadingSpace(this.olds[oi]!)) return this.place(line, oi);
    const rest = line.slice(indent.length);
    return (
      leadingSpace(this.fileLines[f]!) + (this.span.escapes === "over" ? unescapeOnce(rest) : rest)
    );
  }

  private insert(lines: string[]): void {
    const at = this.inserted.get(this.lastPos);
    if (at) for (const line of lines) at.push(line);
    else this.inserted.set(this.lastPos, lines);
  }

  /** Unquoted file lines with content between lastPos and the next quoted one make a pure insertion's place uncertain. */
  private unquotedAhead(): number | undefined {
    for (let f = this.lastPos + 1; f < this.span.to && !this.aligned.has(f); f++) {
      if (!isBlank(this.fileLines[f]!)) return f;
    }
    return undefined;
  }

  /** Context lines: the file keeps its own text, noted when old_text's differs. */
  keep(count: number): void {
    const { span, olds, fileLines } = this;
    for (let k = 0; k < count; k++, this.oi++) {
      const f = span.align[this.oi]!;
      if (f < 0) continue;
      this.lastPos = f;
      if (lineKey("unicode", olds[this.oi]!) !== lineKey("unicode", fileLines[f]!)) {
        this.kept.push(f);
      }
    }
  }

  /** `removed` old lines replaced by `added`; a refusal when their place is not certain. */
  hunk(removed: number, added: string[]): Refusal | undefined {
    const { span, olds, fileLines, region } = this;
    const unseen = unquotedWithin(
      span.align.slice(this.oi, this.oi + removed),
      this.aligned,
      fileLines,
    );
    if (unseen !== undefined) return refuseUnseen(region, unseen);
    let touched = false;
    for (let k = 0; k < removed; k++, this.oi++) {
      const oi = this.oi;
      const f = span.align[oi]!;
      const next =
        k < added.length
          ? [f < 0 ? this.place(added[k]!, oi) : this.placeOver(added[k]!, oi, f)]
          : [];
      if (f < 0) {
        // A blank line old_text imagined: nothing to remove, its replacement is an insertion.
        if (!isBlank(olds[oi]!)) return refuseMissing(region, oi, olds[oi]!, next.length > 0);
        if (next.length > 0) {
          const unquoted = touched ? undefined : this.unquotedAhead();
          if (unquoted !== undefined) return refuseInsertion(region, unquoted);
          this.insert(next);
        }
        continue;
      }
      if (span.sim[oi]! < CHANGED_LINE_MIN) {
        return refuseDifferent(region, oi, f, fileLines, olds, span.sim[oi]!, next.length > 0);
      }
      this.replaced.set(f, next);
      this.lastPos = f;
      touched = true;
    }
    if (added.length > removed) {
      const unquoted = touched ? undefined : this.unquotedAhead();
      if (unquoted !== undefined) return refuseInsertion(region, unquoted);
      const at = Math.max(0, this.oi - 1);
      this.insert(added.slice(removed).map((line) => this.place(line, at)));
    }
    return undefined;
  }

  result(): SpanEdit {
    // Loops, not push(...spread): an insertion may be longer than the engine's argument limit.
    const lines: string[] = [];
    const add = (more: readonly string[] | undefined) => {
      for (const line of more ?? []) lines.push(line);
    };
    add(this.inserted.get(this.span.from - 1));
    for (let f = this.span.from; f < this.span.to; f++) {
      add(this.replaced.get(f) ?? [this.fileLines[f]!]);
      add(this.inserted.get(f));
    }
    return { ok: true, lines, kept: this.kept };
  }
}

/** With no mapping for the whole span, the nearest quoted line with content decides. */
function localIndent(
  fileLines: readonly string[],
  span: LineSpan,
  olds: readonly string[],
  oi: number,
): IndentMap {
  for (let d = 0; d < olds.length; d++) {
    for (const k of d === 0 ? [oi] : [oi - d, oi + d]) {
      const f = span.align[k];
      if (f === undefined || f < 0 || isBlank(olds[k]!)) continue;
      return solveIndentMap([[leadingWs(olds[k]!), leadingWs(fileLines[f]!)]]) ?? IDENTITY;
    }
  }
  return IDENTITY;
}

const quote = (s: string) => JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}…` : s);

const verb = (replacing: boolean) => (replacing ? "changes" : "removes");

function refuseMissing(region: string, oi: number, line: string, replacing: boolean): Refusal {
  return {
    ok: false,
    code: "not_found",
    message: `old_text matched ${region} by its first and last lines, but its line ${oi + 1} (${quote(line)}), which new_text ${verb(replacing)}, is not in the file there. Read ${region} again and copy them exactly into old_text.`,
  };
}

function refuseDifferent(
  region: string,
  oi: number,
  f: number,
  fileLines: readonly string[],
  olds: readonly string[],
  sim: number,
  replacing: boolean,
): Refusal {
  const score = (Math.floor(sim * 100) / 100).toFixed(2);
  return {
    ok: false,
    code: "not_found",
    message: `old_text matched ${region} by its first and last lines, but its line ${oi + 1} (${quote(olds[oi]!)}), which new_text ${verb(replacing)}, reads differently in the file (similarity ${score}):\n${f + 1}| ${fileLines[f]}\nRead ${region} again and copy them exactly into old_text.`,
  };
}

/**
 * A file line with content between the file lines a hunk replaces that
 * old_text does not quote: the model rewrote that stretch without seeing it.
 */
function unquotedWithin(
  hunk: readonly number[],
  aligned: ReadonlySet<number>,
  fileLines: readonly string[],
): number | undefined {
  const placed = hunk.filter((f) => f >= 0);
  if (placed.length < 2) return undefined;
  const first = placed.reduce((a, b) => Math.min(a, b));
  const last = placed.reduce((a, b) => Math.max(a, b));
  for (let f = first + 1; f < last; f++) {
    if (!aligned.has(f) && !isBlank(fileLines[f]!)) return f;
  }
  return undefined;
}

function refuseUnseen(region: string, f: number): Refusal {
  return {
    ok: false,
    code: "ambiguous",
    message: `old_text matched ${region} by its first and last lines, but among the lines new_text rewrites the file has one that old_text lacks (line ${f + 1}), so whether it should stay is not certain. Read ${region} again and copy it exactly into old_text.`,
    lines: [f + 1],
  };
}

function refuseInsertion(region: string, f: number): Refusal {
  return {
    ok: false,
    code: "ambiguous",
    message: `old_text matched ${region} by its first and last lines, but the file has a line there that old_text lacks (line ${f + 1}), so where new_text's added lines belong is not certain. Read ${region} again and copy them exactly into old_text.`,
    lines: [f + 1],
  };
}

function leadingSpace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}
