/**
 * Markdown sections addressed by heading path (`Install > From source`).
 * Headings come from markdown-it's block tokens, so a `#` line inside a code
 * fence, an HTML block or a blockquote is never taken for one. A section is
 * its heading through the line before the next heading of the same or a
 * higher level.
 */
import MarkdownIt, { type Token } from "markdown-it";
import type { Voice } from "../errors.js";
import { DocError } from "./errors.js";

export interface Heading {
  level: number;
  /** The heading's text as written (inline markup kept, closing #s dropped). */
  text: string;
  /** 0-based line of the heading. */
  line: number;
  /** The line after it (a setext heading has an underline). */
  after: number;
  setext: boolean;
}

export interface Section {
  heading: Heading;
  /** First line of the body (after the heading). */
  body: number;
  /** First line after the section (the next same-or-higher heading, or the end). */
  end: number;
  /** First line of the first subsection, or `end`: where the section's own text stops. */
  own: number;
}

/** Top-level blocks of a document, parsed once. */
export interface Parsed {
  lines: string[];
  headings: Heading[];
  tokens: Token[];
}

// GitHub-flavoured: tables on; HTML blocks recognized so a "#" inside one is no heading.
const md = new MarkdownIt("default", { html: true });

/** Front matter (`---` … `---` at the top) is not Markdown; blank it so `title: x\n---` is no heading. */
function withoutFrontMatter(lines: string[]): string[] {
  if (lines[0]?.trim() !== "---") return lines;
  const close = lines.findIndex((l, i) => i > 0 && (l.trim() === "---" || l.trim() === "..."));
  if (close === -1) return lines;
  return lines.map((l, i) => (i <= close ? "" : l));
}

export function parseMarkdown(lines: string[]): Parsed {
  const tokens = md.parse(withoutFrontMatter(lines).join("\n"), {});
  const headings: Heading[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== "heading_open" || t.level !== 0 || !t.map) continue;
    headings.push({
      level: Number(t.tag.slice(1)),
      text: tokens[i + 1]?.content.trim() ?? "",
      line: t.map[0],
      after: t.map[1],
      setext: !t.markup.startsWith("#"),
    });
  }
  return { lines, headings, tokens };
}

export function sectionOf(parsed: Parsed, heading: Heading): Section {
  const later = parsed.headings.filter((h) => h.line > heading.line);
  const next = later.find((h) => h.level <= heading.level);
  const end = next ? next.line : parsed.lines.length;
  const child = later.find((h) => h.line < end);
  return { heading, body: heading.after, end, own: child ? child.line : end };
}

/** `Install > From source` as its parts; leading #s are allowed (`## Install`). */
export function headingPath(path: string): string[] {
  return path
    .split(">")
    .map((p) => p.trim().replace(/^#+\s*/, ""))
    .filter((p) => p !== "");
}

function loose(text: string): string {
  return text
    .replace(/[*_`~]/g, "")
    .replace(/\s+/g, " ")
    .replace(/[:.?!]+$/, "")
    .trim()
    .toLowerCase();
}

function matchAll(
  parsed: Parsed,
  parts: string[],
  same: (a: string, b: string) => boolean,
): Heading[] {
  let found: { heading: Heading; end: number }[] = [
    {
      heading: { level: 0, text: "", line: -1, after: 0, setext: false },
      end: parsed.lines.length,
    },
  ];
  for (const part of parts) {
    const next: { heading: Heading; end: number }[] = [];
    for (const scope of found) {
      for (const h of parsed.headings) {
        if (h.line <= scope.heading.line || h.line >= scope.end || h.level <= scope.heading.level)
          continue;
        if (same(h.text, part)) next.push({ heading: h, end: sectionOf(parsed, h).end });
      }
    }
    found = next;
  }
  return [...new Set(found.map((f) => f.heading))];
}

export function describeHeading(h: Heading): string {
  return `"${"#".repeat(h.level)} ${h.text}" (line ${h.line + 1})`;
}

function outline(parsed: Parsed): string {
  if (parsed.headings.length === 0) return "It has no headings.";
  const shown = parsed.headings.slice(0, 40).map(describeHeading);
  const more = parsed.headings.length > 40 ? `, … (${parsed.headings.length} in all)` : "";
  return `Its headings: ${shown.join(", ")}${more}.`;
}

/** A heading path, and (when several headings match it) the 1-based line of the one meant. */
export type SectionRef = string | { heading: string; line?: number };

/** The texts of the headings `h` sits under, outermost first. */
function parentsOf(parsed: Parsed, h: Heading): string[] {
  const out: string[] = [];
  let level = h.level;
  for (const p of parsed.headings.filter((x) => x.line < h.line).reverse()) {
    if (p.level < level) {
      out.unshift(p.text);
      level = p.level;
    }
  }
  return out;
}

function ambiguity(parsed: Parsed, path: string, hits: Heading[], label: string, lineArg: string) {
  const lines = hits.map((h) => h.line + 1);
  const parents = new Set(hits.map((h) => parentsOf(parsed, h).join(" > ")));
  const byLine = (v: Voice) =>
    `pass ${v.arg(lineArg)} with the line of the one you mean, e.g. ${v.option(lineArg, lines[0])}`;
  const advice = (v: Voice) =>
    parents.size === hits.length
      ? `Add the parent heading to make it unique, e.g. "Parent > ${headingPath(path).at(-1)}", or ${byLine(v)}.`
      : `${parents.size === 1 ? "They share" : "Some share"} their parent headings, so ${byLine(v)}.`;
  return new DocError(
    "ambiguous",
    `${JSON.stringify(path)} matches ${hits.length} headings in ${label}: ${hits.map(describeHeading).join(", ")}.`,
    { heading: path, lines },
    { tool: "md", args: { [lineArg]: lines[0] }, say: advice },
  );
}

/**
 * The one section a heading path names, or a DocError (not_found / ambiguous).
 * `lineArg` is the argument that carries a ref's line, for the messages.
 */
export function findSection(
  parsed: Parsed,
  ref: SectionRef,
  label: string,
  lineArg = "line",
): Section {
  const { heading: path, line } = typeof ref === "string" ? { heading: ref, line: undefined } : ref;
  const parts = headingPath(path);
  if (parts.length === 0) {
    throw new DocError(
      "invalid_input",
      `"heading" is empty. Name a heading, or a path of headings like "Install > From source".`,
    );
  }
  let hits = matchAll(parsed, parts, (a, b) => a === b);
  if (hits.length === 0) hits = matchAll(parsed, parts, (a, b) => loose(a) === loose(b));
  if (hits.length === 0 && parts.length > 1) {
    hits = matchAll(parsed, [path.trim()], (a, b) => a === b);
  }
  if (line !== undefined && hits.length > 0) {
    const at = hits.find((h) => h.line + 1 === line);
    if (!at) {
      throw new DocError(
        "not_found",
        `No heading ${JSON.stringify(path)} starts on line ${line} of ${label}; the ones that match: ${hits.map(describeHeading).join(", ")}. Pass one of those lines as "${lineArg}".`,
        { heading: path, lines: hits.map((h) => h.line + 1) },
      );
    }
    return sectionOf(parsed, at);
  }
  if (hits.length === 1) return sectionOf(parsed, hits[0]!);
  if (hits.length === 0) {
    throw new DocError(
      "not_found",
      `${label} has no heading ${JSON.stringify(path)}. ${outline(parsed)} Use a heading's text, or a path like "Install > From source" (a "#" line inside a code fence is not a heading).`,
      { heading: path },
    );
  }
  throw ambiguity(parsed, path, hits, label, lineArg);
}
