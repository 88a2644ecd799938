/**
 * Which later changes of a file touched the lines one change made. The
 * change's own lines (what undoing it would rewrite, as `merge3` sees them)
 * are carried forward through each later version, so an undo's refusal can
 * name who overlapped them rather than everyone who touched the file.
 */
import { changeHunks, collide, type Hunk, type LineSpan } from "./diff.js";

/** One later change: the version it started from and the one it left. */
export interface Step {
  from: readonly string[];
  to: readonly string[];
}

/** Where line position `p` of a version lands after `hunks` (none of which covers it). */
function moved(p: number, hunks: readonly Hunk[]): number {
  let shift = 0;
  for (const h of hunks) if (h.end <= p) shift += h.lines.length - (h.end - h.start);
  return p + shift;
}

/** A span carried over one step: moved past the hunks before it, or grown over those it meets. */
function carry(span: LineSpan, hunks: readonly Hunk[]): { span: LineSpan; hit: boolean } {
  const met = hunks.filter((h) => collide(h, span));
  const start = moved(span.start, hunks);
  if (met.length === 0) return { span: { start, end: start + span.end - span.start }, hit: false };
  const last = met.at(-1)!;
  return {
    span: {
      start: Math.min(start, met[0]!.at),
      end: Math.max(moved(span.end, hunks), last.at + last.lines.length),
    },
    hit: true,
  };
}

/**
 * For each step after the change `before -> after`, in order, whether it
 * changed lines of that change (or inserted where it inserted or deleted).
 */
export function overlappingSteps(
  before: readonly string[],
  after: readonly string[],
  steps: readonly Step[],
): boolean[] {
  let spans: LineSpan[] = changeHunks(after, before).map(({ start, end }) => ({ start, end }));
  return steps.map(({ from, to }) => {
    const hunks = changeHunks(from, to);
    let hit = false;
    spans = spans.map((span) => {
      const carried = carry(span, hunks);
      hit ||= carried.hit;
      return carried.span;
    });
    return hit;
  });
}
