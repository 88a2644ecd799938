/**
 * A `line` read that finds no block: the file is in no language splice
 * parses (Markdown, reStructuredText, a language without a grammar), or the
 * line is outside every definition. Instead of an error, it shows the
 * Markdown section around the line, or else a window of lines around it.
 */
import type { LoadedFile } from "../../change/load.js";
import { ELISION_BUDGET } from "../../code/elide.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import type { ToolContext } from "../define.js";
import type { ReadResult } from "./result.js";
import { linesOf, render } from "./symbol-view.js";

/** Lines shown on each side of the line asked for. */
export const LINE_WINDOW = 20;

const MARKDOWN = /\.(md|markdown|mdx|mdown|mkd)$/i;

export const isMarkdown = (path: string): boolean => MARKDOWN.test(path);

interface Span {
  start: number;
  end: number;
  /** What the span is, before its line numbers: `section "## Install"`. */
  label: string;
}

/** The window around `line`, kept inside `[from, to]`. */
function around(line: number, from: number, to: number): { start: number; end: number } {
  return { start: Math.max(from, line - LINE_WINDOW), end: Math.min(to, line + LINE_WINDOW) };
}

/** The innermost section holding the line, cut to a window when it is longer than a block read shows. */
async function markdownSpan(lines: string[], line: number): Promise<Span | undefined> {
  const { headingSpans } = await import("../../formats/markdown-outline.js");
  const holding = headingSpans(lines).filter((h) => h.start <= line && h.end >= line);
  const inner = holding.at(-1);
  if (!inner) return undefined;
  const label = `section "${inner.title}"`;
  if (inner.end - inner.start < ELISION_BUDGET) return { ...inner, label };
  return { ...around(line, inner.start, inner.end), label: `${label} (part)` };
}

/**
 * Shows the lines around `line`. `why` says why there is no block (it goes
 * into the title, so the model knows this is a window, not a definition).
 */
export async function readWindow(
  context: ToolContext,
  a: { file: GuardedPath; loaded: LoadedFile },
  line: number,
  why: string,
  warnings: string[],
): Promise<ReadResult> {
  const lines = a.loaded.doc.lines;
  const total = lines.length;
  const section = isMarkdown(a.file.display) ? await markdownSpan(lines, line) : undefined;
  const span = section ?? { ...around(line, 1, total), label: `no block (${why})` };
  const title = `${span.label}: ${linesOf(span.start, span.end)} of ${total} (around line ${line})`;
  return render(
    context,
    a,
    [{ start: span.start, end: span.end, title, elisions: [] }],
    [],
    warnings,
  );
}
