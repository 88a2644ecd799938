/**
 * Elision: a block or symbol read shows at most ELISION_BUDGET lines by
 * folding its largest nested blocks into one bracketed notice each (the
 * block's header stays, so a 2,000-line class reads as its outline). Lines
 * the caller asked for are never folded away.
 */
import type { Block } from "./blocks.js";

/**
 * Lines a block or symbol read shows before nested blocks are folded. 200
 * lines (about 2,500 tokens) hold a whole function or a small class, which
 * is what a symbol read almost always wants; only bigger spans are folded,
 * and folding them costs one notice per nested block.
 */
export const ELISION_BUDGET = 200;

/** Folding a block is only worth it when it hides at least this many lines. */
export const MIN_ELIDED_LINES = 4;

export interface Elision {
  /** 1-based inclusive lines replaced by the notice. */
  start: number;
  end: number;
  label: string;
}

export interface Section {
  start: number;
  end: number;
  /** A notice line before the section: "function parse, lines 3..40". */
  title?: string;
  elisions: Elision[];
}

const hidden = (b: Block) => b.end - b.headerEnd;

/**
 * Which nested blocks to fold so that `span` shows about `budget` lines:
 * largest first; a block holding a protected line is opened and its own
 * nested blocks are considered instead.
 */
export function planElision(
  span: { start: number; end: number },
  blocks: readonly Block[],
  protect: readonly number[] = [],
  budget = ELISION_BUDGET,
): Elision[] {
  let shown = span.end - span.start + 1;
  if (shown <= budget) return [];
  const queue = [...blocks].sort((a, b) => hidden(b) - hidden(a));
  const out: Elision[] = [];
  while (shown > budget && queue.length > 0) {
    const block = queue.shift()!;
    if (protect.some((line) => line > block.headerEnd && line <= block.end)) {
      queue.push(...block.children);
      queue.sort((a, b) => hidden(b) - hidden(a));
      continue;
    }
    const lines = hidden(block);
    if (lines < MIN_ELIDED_LINES) continue;
    out.push({ start: block.headerEnd + 1, end: block.end, label: block.label });
    shown -= lines - 1;
  }
  return out.sort((a, b) => a.start - b.start);
}

export function elisionNotice(e: Elision): string {
  return `[lines ${e.start}..${e.end} elided (${e.label}); read them with line_range "${e.start}..${e.end}"]`;
}

export interface RenderOptions {
  maxLines: number;
  maxLineLength: number;
}

export interface RenderedSections {
  /** Numbered lines and notices, in order. */
  lines: string[];
  /** First and last numbered line shown; [0, 0] when none. */
  shown: [number, number];
}

/** Cuts at a character boundary: never half of a surrogate pair. */
function cut(line: string, max: number): string {
  const code = line.charCodeAt(max - 1);
  return line.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Renders sections of a file as `N| text` lines with their notices, within the line cap. */
export function renderSections(
  fileLines: readonly string[],
  sections: readonly Section[],
  options: RenderOptions,
): RenderedSections {
  const out: string[] = [];
  const truncated: number[] = [];
  let count = 0;
  let first = 0;
  let last = 0;
  for (const section of sections) {
    if (section.title) out.push(`[${section.title}]`);
    const elisions = [...section.elisions].sort((a, b) => a.start - b.start);
    let next = 0;
    for (let n = section.start; n <= section.end; n++) {
      const elision = elisions[next];
      if (elision && n === elision.start) {
        out.push(elisionNotice(elision));
        n = elision.end;
        next++;
        continue;
      }
      if (count >= options.maxLines) {
        out.push(
          `[output stopped at ${options.maxLines} lines; read the rest with line_range "${n}..${section.end}"]`,
        );
        return finish(out, truncated, options, [first, last]);
      }
      const text = fileLines[n - 1] ?? "";
      if (text.length > options.maxLineLength) truncated.push(n);
      out.push(
        `${n}| ${text.length > options.maxLineLength ? cut(text, options.maxLineLength) : text}`,
      );
      count++;
      if (first === 0) first = n;
      last = n;
    }
  }
  return finish(out, truncated, options, [first, last]);
}

function finish(
  out: string[],
  truncated: number[],
  options: RenderOptions,
  shown: [number, number],
): RenderedSections {
  if (truncated.length > 0) {
    const list = truncated.slice(0, 10).join(", ");
    const more = truncated.length > 10 ? ` and ${truncated.length - 10} more` : "";
    out.push(
      `[lines ${list}${more} cut at ${options.maxLineLength} characters; search the file to see their full text]`,
    );
  }
  return { lines: out, shown };
}
