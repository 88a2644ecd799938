/**
 * The line-op DSL: parse (ops/parse.ts) and apply. Every line number in an op
 * refers to the original document; ops must not overlap, and applying them is
 * one forward pass equivalent to applying them bottom-up.
 */
import { type Document, withLines } from "./document.js";
import { type LineOp, OpsError, opHeader } from "./ops/parse.js";

export {
  type LineOp,
  OpsError,
  type OpsErrorCode,
  opHeader,
  parseOps,
  renderOps,
} from "./ops/parse.js";

/** Resolves a block op's line to its 1-based inclusive [start, end]; supplied later by the syntax layer. */
export type BlockResolver = (line: number) => [number, number] | undefined;

export interface ApplyResult {
  doc: Document;
  /**
   * 1-based line of the new document where it first differs from the
   * original (text or terminator); 0 if nothing changed. When the only
   * difference is lines removed from the end, this is the new last line
   * (1 when the document became empty).
   */
  firstChangedLine: number;
  /**
   * Original-line ranges the ops touched, sorted, overlapping ones merged.
   * A range op touches its range; an insert touches the line it is anchored
   * to (`insert after 5` -> [5, 5], head -> line 1, tail -> the last line;
   * nothing on an empty document).
   */
  changedRanges: [number, number][];
}

/**
 * One edit in original coordinates: original lines start..end are replaced by
 * `lines`. An insert is an empty range (end = start - 1) at the gap before `start`.
 */
interface Edit {
  start: number;
  end: number;
  lines: string[];
  touched: [number, number] | undefined;
  op: LineOp;
  order: number;
}

function describe(op: LineOp): string {
  return `line ${op.dslLine}: "${opHeader(op)}"`;
}

function numericForm(op: LineOp): string {
  const n = "line" in op ? op.line : 0;
  if (op.kind === "replace_block") return `replace ${n}..<last line>:`;
  if (op.kind === "delete_block") return `delete ${n}..<last line>`;
  return "insert after <last line>:";
}

function checkLine(op: LineOp, line: number, count: number): void {
  if (Number.isInteger(line) && line >= 1 && line <= count) return;
  const why =
    count === 0
      ? "the document is empty (0 lines); only insert head: and insert tail: work on an empty document"
      : line < 1
        ? `lines start at 1 and the document has ${count} line${count === 1 ? "" : "s"}`
        : `the document has ${count} line${count === 1 ? "" : "s"}`;
  throw new OpsError(
    "out_of_range",
    `${describe(op)} — line ${line} is out of range: ${why}`,
    op.dslLine,
  );
}

function checkRange(op: LineOp, start: number, end: number, count: number): void {
  checkLine(op, start, count);
  checkLine(op, end, count);
  if (start > end) {
    throw new OpsError(
      "invalid_input",
      `${describe(op)} — the range ${start}..${end} runs backwards`,
      op.dslLine,
    );
  }
}

function resolve(
  op: LineOp & { kind: "replace_block" | "delete_block" | "insert_after_block" },
  count: number,
  resolveBlock: BlockResolver | undefined,
): [number, number] {
  checkLine(op, op.line, count);
  const range = resolveBlock?.(op.line);
  if (!range) {
    const why = resolveBlock
      ? `no syntax block was found at line ${op.line}`
      : "block ops need syntax support, which is not available here";
    throw new OpsError(
      "needs_syntax",
      `${describe(op)} — ${why}; use the numeric form instead: ${numericForm(op)}`,
      op.dslLine,
    );
  }
  const [start, end] = range;
  if (
    !(
      Number.isInteger(start) &&
      Number.isInteger(end) &&
      start >= 1 &&
      start <= end &&
      end <= count
    )
  ) {
    throw new OpsError(
      "out_of_range",
      `${describe(op)} — the block at line ${op.line} resolved to ${start}..${end}, outside the document's ${count} lines`,
      op.dslLine,
    );
  }
  return [start, end];
}

function toEdit(op: LineOp, order: number, count: number, resolveBlock?: BlockResolver): Edit {
  const edit = (start: number, end: number, lines: string[], touched?: [number, number]): Edit => ({
    start,
    end,
    lines,
    touched: touched ?? (end >= start ? [start, end] : undefined),
    op,
    order,
  });
  switch (op.kind) {
    case "replace":
      checkRange(op, op.start, op.end, count);
      return edit(op.start, op.end, op.lines);
    case "delete":
      checkRange(op, op.start, op.end, count);
      return edit(op.start, op.end, []);
    case "insert":
      if (!("line" in op)) {
        return op.where === "head"
          ? edit(1, 0, op.lines, count > 0 ? [1, 1] : undefined)
          : edit(count + 1, count, op.lines, count > 0 ? [count, count] : undefined);
      }
      checkLine(op, op.line, count);
      return op.where === "before"
        ? edit(op.line, op.line - 1, op.lines, [op.line, op.line])
        : edit(op.line + 1, op.line, op.lines, [op.line, op.line]);
    case "replace_block":
    case "delete_block":
    case "insert_after_block": {
      const [start, end] = resolve(op, count, resolveBlock);
      if (op.kind === "replace_block") return edit(start, end, op.lines);
      if (op.kind === "delete_block") return edit(start, end, []);
      return edit(end + 1, end, op.lines, [end, end]);
    }
  }
}

function overlapError(a: Edit, b: Edit, detail: string): OpsError {
  const [first, second] = a.op.dslLine <= b.op.dslLine ? [a, b] : [b, a];
  return new OpsError(
    "overlap",
    `${describe(first.op)} and ${describe(second.op)} overlap: ${detail}; ops in one call must not overlap — combine them into one op`,
    second.op.dslLine,
  );
}

/** Sorts edits into application order and refuses overlapping ones. */
function order(edits: Edit[]): Edit[] {
  const sorted = [...edits].sort(
    (a, b) =>
      a.start - b.start ||
      Number(a.end >= a.start) - Number(b.end >= b.start) || // inserts before a range at the same gap
      a.order - b.order,
  );
  let last: Edit | undefined; // the latest non-empty range; ranges seen so far are disjoint
  for (const e of sorted) {
    if (!last || e.start > last.end) {
      if (e.end >= e.start) last = e;
      continue;
    }
    if (e.end >= e.start) {
      throw overlapError(last, e, `lines ${e.start}..${Math.min(e.end, last.end)} are in both`);
    }
    throw overlapError(
      last,
      e,
      `${opHeader(e.op).replace(/:$/, "")} falls inside lines ${last.start}..${last.end}`,
    );
  }
  return sorted;
}

function mergeRanges(ranges: [number, number][]): [number, number][] {
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const r of ranges) {
    const prev = out.at(-1);
    if (prev && r[0] <= prev[1]) prev[1] = Math.max(prev[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/**
 * Applies ops to `doc` in one forward pass. Untouched lines keep their own
 * terminators; new lines get the dominant one; BOM and final-newline state
 * are kept. Throws OpsError: out_of_range, overlap, needs_syntax.
 */
export function applyOps(doc: Document, ops: LineOp[], resolveBlock?: BlockResolver): ApplyResult {
  const count = doc.lines.length;
  const edits = order(ops.map((op, i) => toEdit(op, i, count, resolveBlock)));
  let size = count;
  for (const e of edits) size += e.lines.length - (e.end - e.start + 1);
  // Preallocated and filled by index: no per-op splicing, no array growth.
  const lines: string[] = new Array(size);
  const eols: (string | undefined)[] = new Array(size);
  let at = 0;
  let next = 1; // next original line to copy
  for (const e of edits) {
    at = copyLines(doc, next, e.start, lines, eols, at);
    for (const line of e.lines) {
      lines[at] = line;
      eols[at++] = undefined;
    }
    next = Math.max(next, e.start, e.end + 1);
  }
  copyLines(doc, next, count + 1, lines, eols, at);
  const result = withLines(doc, lines, eols);
  const changedRanges = mergeRanges(edits.flatMap((e) => (e.touched ? [e.touched] : [])));
  return { doc: result, firstChangedLine: firstDifference(doc, result, edits), changedRanges };
}

/** Copies original lines from..stop-1 (1-based) to `at`; returns the next free index. */
function copyLines(
  doc: Document,
  from: number,
  stop: number,
  lines: string[],
  eols: (string | undefined)[],
  at: number,
): number {
  const src = doc.lines;
  const srcEols = doc.eols;
  for (let i = from - 1; i < stop - 1; i++, at++) {
    lines[at] = src[i]!;
    eols[at] = srcEols[i];
  }
  return at;
}

/** 1-based first line where `after` differs from `before`, scanning from the first edit. */
function firstDifference(before: Document, after: Document, edits: Edit[]): number {
  const first = edits[0];
  if (!first) return 0;
  const common = Math.min(before.lines.length, after.lines.length);
  // Lines before the first edit are copies; only the original last line among
  // them can differ (its terminator, when it stops being last).
  let i = Math.max(0, first.start - 2);
  while (i < common && before.lines[i] === after.lines[i] && before.eols[i] === after.eols[i]) {
    i++;
  }
  if (i === before.lines.length && i === after.lines.length) return 0;
  return Math.min(i + 1, Math.max(after.lines.length, 1));
}
