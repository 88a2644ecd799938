/**
 * The outline of one file splice does not parse: a Markdown file's
 * headings, nested by level with the lines each section spans; any other
 * text, its first lines. An answer to go on from, never an error that lists
 * the languages splice does parse.
 */

import { loadTextFile } from "../../change/load.js";
import { missingLanguage } from "../../code/languages.js";
import { formatSpan } from "../../code/outline.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { header, renderHashline } from "../../text/hashline.js";
import { count } from "../../util/format.js";
import type { ToolContext } from "../define.js";

/** What the outline tool reports for the file. */
export interface UnparsedOutline {
  content: string;
  fileHash: string;
  totalLines: number;
  truncated: boolean;
}

/** Lines a file without headings shows instead of an outline. */
export const HEAD_LINES = 40;

const MARKDOWN = /\.(md|markdown|mdx|mdown|mkd)$/i;

async function headingLines(lines: string[]): Promise<string[]> {
  const { headingSpans } = await import("../../formats/markdown-outline.js");
  const spans = headingSpans(lines);
  const top = Math.min(...spans.map((s) => s.level));
  return spans.map((s) => `${"  ".repeat(s.level - top)}${formatSpan(s.start, s.end)} ${s.title}`);
}

export async function outlineUnparsed(
  context: ToolContext,
  target: GuardedPath,
): Promise<UnparsedOutline> {
  const loaded = await loadTextFile(context, target);
  const { lines } = loaded.doc;
  const total = lines.length;
  const maxLines = context.limits.maxLines;
  const headings = MARKDOWN.test(target.display) ? await headingLines(lines) : [];
  let content: string;
  let truncated = false;
  if (headings.length > 0) {
    truncated = headings.length > maxLines;
    const shown = headings.slice(0, maxLines);
    const stop = `[outline stopped at ${count(maxLines)} headings; read the file by line_range for the rest]`;
    content = [header(target.display, loaded.tag), ...shown, ...(truncated ? [stop] : [])].join(
      "\n",
    );
    // The outline names the version, so line ops may use its numbers.
    context.history.recordRead(target.rel, loaded.bytes, loaded.tag, undefined, loaded.sha);
  } else {
    const end = Math.min(total, HEAD_LINES);
    const rendered = renderHashline(loaded.doc, target.display, loaded.tag, {
      end,
      maxLineLength: context.limits.maxLineLength,
    });
    const why = MARKDOWN.test(target.display)
      ? "it has no headings"
      : (missingLanguage(target.display) ?? "not a language splice parses");
    const more =
      total > end ? `; read line_range "${end + 1}..${Math.min(total, end + 200)}" for more` : "";
    // Its own "[showing lines …]" notice gives way to one that says why and how to read on.
    const [head, ...body] = rendered.content
      .split("\n")
      .filter((l) => !l.startsWith("[showing lines "));
    const notice = `[no outline (${why}): lines 1..${end} of ${total}${more}]`;
    content = [head, ...(total > 0 ? [notice] : []), ...body].join("\n");
    context.history.recordRead(
      target.rel,
      loaded.bytes,
      loaded.tag,
      end >= total ? undefined : rendered.shown,
      loaded.sha,
    );
  }
  return { content, fileHash: loaded.tag, totalLines: total, truncated };
}
