/**
 * Section edits on a Markdown document's lines. Each returns the new lines;
 * lines outside the touched section keep their text, and blocks are kept one
 * blank line apart from their neighbours.
 */
import { DocError } from "./errors.js";
import {
  findSection,
  type Heading,
  type Parsed,
  parseMarkdown,
  type Section,
  type SectionRef,
  sectionOf,
} from "./markdown.js";

export interface MdEdit {
  lines: string[];
  warnings: string[];
}

const blank = (line: string | undefined) => line !== undefined && line.trim() === "";

/** The text's lines without blank lines at either end. */
export function textLines(text: string): string[] {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let a = 0;
  let b = lines.length;
  while (a < b && blank(lines[a])) a++;
  while (b > a && blank(lines[b - 1])) b--;
  return lines.slice(a, b);
}

/** Inserts a block at `at`, with one blank line between it and any text around it. */
export function insertBlock(lines: string[], at: number, block: string[]): string[] {
  const before = at > 0 && !blank(lines[at - 1]) ? [""] : [];
  const after = at < lines.length && !blank(lines[at]) ? [""] : [];
  return [...lines.slice(0, at), ...before, ...block, ...after, ...lines.slice(at)];
}

/** `at` moved back over blank lines, but not before `floor`. */
function beforeBlanks(lines: string[], at: number, floor: number): number {
  let i = at;
  while (i > floor && blank(lines[i - 1])) i--;
  return i;
}

function requireText(text: string | undefined, action: string): string[] {
  if (text === undefined) {
    throw new DocError(
      "invalid_input",
      `The "${action}" action needs "text": the Markdown to put there.`,
    );
  }
  return textLines(text);
}

/**
 * Replaces everything under the heading (subsections included); the heading
 * stays unless the text starts with a heading of the same level, which then
 * replaces it. Blank lines around the body are kept as they were.
 */
export function replaceSection(
  parsed: Parsed,
  path: SectionRef,
  text: string | undefined,
  label: string,
): MdEdit {
  const { lines } = parsed;
  const s = findSection(parsed, path, label);
  let body = requireText(text, "replace_section");
  const warnings: string[] = [];
  let head = lines.slice(s.heading.line, s.body);
  // Parsed, not pattern-matched, so a setext heading ("New" over "---") counts like "## New".
  const first = parseMarkdown(body).headings[0];
  if (first?.line === 0 && first.level === s.heading.level) {
    head = body.slice(0, first.after);
    body = textLines(body.slice(first.after).join("\n"));
  } else if (first?.line === 0) {
    warnings.push(
      `The text starts with a level-${first.level} heading; it went under the level-${s.heading.level} heading "${s.heading.text}", which was kept.`,
    );
  }
  const old = lines.slice(s.body, s.end);
  let lead = 0;
  while (lead < old.length && blank(old[lead])) lead++;
  let trail = 0;
  while (trail < old.length - lead && blank(old[old.length - 1 - trail])) trail++;
  if (lead === old.length) {
    lead = 1;
    trail = s.end < lines.length ? 1 : 0;
  }
  const gap = (n: number) => Array.from({ length: n }, () => "");
  const section =
    body.length === 0
      ? [...head, ...gap(s.end < lines.length ? 1 : 0)]
      : [...head, ...gap(lead), ...body, ...gap(Math.max(trail, s.end < lines.length ? 1 : 0))];
  return {
    lines: [...lines.slice(0, s.heading.line), ...section, ...lines.slice(s.end)],
    warnings,
  };
}

/** Puts the text right under the heading, before the section's existing text. */
export function insertAfterHeading(
  parsed: Parsed,
  path: SectionRef,
  text: string | undefined,
  label: string,
): MdEdit {
  const s = findSection(parsed, path, label);
  const block = requireText(text, "insert_after_heading");
  let at = s.body;
  if (blank(parsed.lines[at]) && at < s.end) at++;
  return { lines: insertBlock(parsed.lines, at, block), warnings: [] };
}

/** Adds the text at the end of the section's own text, before its first subsection. */
export function appendToSection(
  parsed: Parsed,
  path: SectionRef,
  text: string | undefined,
  label: string,
): MdEdit {
  const s = findSection(parsed, path, label);
  const block = requireText(text, "append_to_section");
  const at = beforeBlanks(parsed.lines, s.own, s.body);
  return { lines: insertBlock(parsed.lines, at, block), warnings: [] };
}

const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])(\s+)(\[[ xX]\]\s+)?(.*)$/;

function same(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, " ").trim();
  return norm(a) === norm(b);
}

/**
 * Adds a bullet to the first list in the section's own text — unless an item
 * with the same text is already there. A section without a list gets one.
 */
export function upsertBullet(
  parsed: Parsed,
  path: SectionRef,
  bullet: string | undefined,
  label: string,
): MdEdit {
  const { lines, tokens } = parsed;
  const s = findSection(parsed, path, label);
  const given = bullet === undefined ? undefined : textLines(bullet).join(" ");
  if (!given) {
    throw new DocError(
      "invalid_input",
      "The bullet to add is empty.",
      {},
      {
        tool: "md",
        say: (v) => `Give the item's text as ${v.arg("bullet")}, e.g. "Supports TOML".`,
      },
    );
  }
  const text = ITEM.exec(given)?.[5] ?? given;
  const list = tokens.find(
    (t) =>
      (t.type === "bullet_list_open" || t.type === "ordered_list_open") &&
      t.level === 0 &&
      t.map !== null &&
      t.map[0] >= s.body &&
      t.map[0] < s.own,
  );
  if (!list?.map) {
    const marker = tokens.find((t) => t.type === "bullet_list_open")?.markup || "-";
    const at = beforeBlanks(lines, s.own, s.body);
    return { lines: insertBlock(lines, at, [`${marker} ${text}`]), warnings: [] };
  }
  const [start, end] = list.map;
  let last = start;
  for (const t of tokens) {
    if (t.type !== "list_item_open" || t.level !== 1 || !t.map) continue;
    if (t.map[0] < start || t.map[0] >= end) continue;
    last = t.map[0];
    const item = ITEM.exec(lines[t.map[0]]!)?.[5] ?? "";
    if (same(item, text) || same(item, given)) {
      return {
        lines,
        warnings: [
          `The list already has "${item.trim()}" (line ${t.map[0] + 1}); nothing was added.`,
        ],
      };
    }
  }
  const m = ITEM.exec(lines[last]!)!;
  const marker = /\d/.test(m[2]!) ? `${Number.parseInt(m[2]!, 10) + 1}${m[2]!.slice(-1)}` : m[2]!;
  const box = m[4] ? "[ ] " : "";
  const at = beforeBlanks(lines, end, start + 1);
  const line = `${m[1]}${marker}${m[3]}${box}${text}`;
  return { lines: [...lines.slice(0, at), line, ...lines.slice(at)], warnings: [] };
}

/** The section's lines with every heading shifted by `delta` levels. */
function shifted(parsed: Parsed, s: Section, delta: number): string[] {
  const { lines } = parsed;
  const inside = parsed.headings.filter((h) => h.line >= s.heading.line && h.line < s.end);
  const deepest = Math.max(...inside.map((h) => h.level)) + delta;
  if (deepest > 6) {
    throw new DocError(
      "invalid_input",
      `Moving "${s.heading.text}" there would need a level-${deepest} heading; Markdown stops at 6. Move it under a shallower heading.`,
    );
  }
  const out: string[] = [];
  const at = new Map<number, Heading>(inside.map((h) => [h.line, h]));
  for (let i = s.heading.line; i < s.end; i++) {
    const h = at.get(i);
    if (!h || delta === 0) {
      out.push(lines[i]!);
      continue;
    }
    const hashes = "#".repeat(h.level + delta);
    if (h.setext) {
      out.push(`${hashes} ${h.text}`);
      i = h.after - 1;
    } else {
      out.push(lines[i]!.replace(/^( {0,3})#{1,6}/, `$1${hashes}`));
    }
  }
  return out;
}

export interface MoveResult {
  source: string[];
  /** The destination's new lines (a move to another file). */
  dest?: string[];
  warnings: string[];
}

/**
 * Moves a section (with its subsections) to the end of the `to` section, one
 * level below it, or to the end of the destination when `to` is not given.
 */
export function moveSection(
  source: { parsed: Parsed; label: string },
  path: SectionRef,
  to: SectionRef | undefined,
  dest?: { parsed: Parsed; label: string },
): MoveResult {
  const s = findSection(source.parsed, path, source.label);
  const target = dest ?? source;
  const toHeading = typeof to === "string" ? to : to?.heading;
  const t =
    toHeading === undefined || toHeading.trim() === ""
      ? undefined
      : findSection(target.parsed, to!, target.label, "to_line");
  if (!t && !dest) {
    throw new DocError(
      "invalid_input",
      `There is no heading to move "${s.heading.text}" under: name one, or another file to move the section to the end of.`,
    );
  }
  if (t && !dest && t.heading.line >= s.heading.line && t.heading.line < s.end) {
    throw new DocError(
      "invalid_input",
      `Cannot move "${s.heading.text}" under "${t.heading.text}": that heading is inside the section being moved.`,
    );
  }
  const delta = t ? t.heading.level + 1 - s.heading.level : 0;
  const block = textLines(shifted(source.parsed, s, delta).join("\n"));
  const lines = source.parsed.lines;
  let rest = [...lines.slice(0, s.heading.line), ...lines.slice(s.end)];
  const cut = s.heading.line;
  if (blank(rest[cut - 1]) && (blank(rest[cut]) || cut === rest.length)) rest.splice(cut - 1, 1);
  const warnings =
    delta === 0
      ? []
      : [
          `Heading levels shifted by ${delta > 0 ? "+" : ""}${delta} to fit under "${t!.heading.text}".`,
        ];
  if (dest) {
    const at = t
      ? beforeBlanks(dest.parsed.lines, t.end, t.body)
      : beforeBlanks(dest.parsed.lines, dest.parsed.lines.length, 0);
    return { source: rest, dest: insertBlock(dest.parsed.lines, at, block), warnings };
  }
  const reparsed = parseMarkdown(rest);
  // The target again by its line, shifted past the lines taken out: its name may
  // match differently (or only by a line that moved) once the section is gone.
  const shift = t!.heading.line > s.heading.line ? lines.length - rest.length : 0;
  const same = reparsed.headings.find(
    (h) => h.line === t!.heading.line - shift && h.text === t!.heading.text,
  );
  const again = same ? sectionOf(reparsed, same) : findSection(reparsed, to!, source.label);
  rest = insertBlock(rest, beforeBlanks(rest, again.end, again.body), block);
  return { source: rest, warnings };
}
