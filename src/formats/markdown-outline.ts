/**
 * A Markdown file's headings with the lines each section spans, for reads
 * and outlines of a file no grammar covers. Loaded on first use, as every
 * Markdown module is (markdown-it is not needed to start splice).
 */
import { parseMarkdown, sectionOf } from "./markdown.js";

export interface HeadingSpan {
  level: number;
  /** The heading as written, with its #s: "## Install". */
  title: string;
  /** 1-based, inclusive: the heading line through the section's last line. */
  start: number;
  end: number;
}

export function headingSpans(lines: string[]): HeadingSpan[] {
  const parsed = parseMarkdown(lines);
  return parsed.headings.map((h) => {
    const section = sectionOf(parsed, h);
    // A section's trailing blank lines belong to no one; they are left out of its span.
    let end = section.end;
    while (end > h.after && (lines[end - 1] ?? "").trim() === "") end--;
    return { level: h.level, title: `${"#".repeat(h.level)} ${h.text}`, start: h.line + 1, end };
  });
}
