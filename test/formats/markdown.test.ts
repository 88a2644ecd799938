import { describe, expect, it } from "vitest";
import { findSection, parseMarkdown } from "../../src/formats/markdown.js";
import {
  appendToSection,
  insertAfterHeading,
  moveSection,
  replaceSection,
  upsertBullet,
} from "../../src/formats/markdown-edit.js";
import { tableAppend } from "../../src/formats/markdown-table.js";
import { fixture, span, thrown } from "./helpers.js";

const lines = () => fixture("guide.md").replace(/\n$/, "").split("\n");
const parsed = () => parseMarkdown(lines());
const changes = (out: string[]) => span(lines().join("\n"), out.join("\n"));

describe("markdown sections", () => {
  it("finds headings with a real parser: a # line in a code fence is not one", () => {
    const headings = parsed().headings.map((h) => `${h.level} ${h.text}`);
    expect(headings).toEqual([
      "1 Widgets",
      "2 Install",
      "3 From source",
      "2 Features",
      "2 Options",
      "2 Usage",
      "2 FAQ",
      "3 Why widgets?",
      "2 Help",
    ]);
    const error = thrown(() => findSection(parsed(), "Install from npm", "guide.md"));
    expect(error.code).toBe("not_found");
    expect(error.message).toContain(
      'guide.md has no heading "Install from npm". Its headings: "# Widgets" (line 1)',
    );
  });

  it("a section runs to the next heading of the same or a higher level", () => {
    const s = findSection(parsed(), "Install", "guide.md");
    expect([s.heading.line, s.body, s.own, s.end]).toEqual([4, 5, 11, 17]);
    expect(findSection(parsed(), "Install > From source", "guide.md").heading.line).toBe(11);
    expect(findSection(parsed(), "## faq > why widgets", "guide.md").heading.text).toBe(
      "Why widgets?",
    );
  });

  it("a repeated heading is ambiguous until its parent is named", () => {
    const doc = parseMarkdown(["# A", "## Notes", "x", "# B", "## Notes", "y"]);
    const error = thrown(() => findSection(doc, "Notes", "n.md"));
    expect(error.code).toBe("ambiguous");
    expect(error.message).toContain('"## Notes" (line 2), "## Notes" (line 5)');
    expect(error.message).toContain('"Parent > Notes"');
    expect(findSection(doc, "B > Notes", "n.md").heading.line).toBe(4);
  });

  it("front matter is not taken for a setext heading", () => {
    const doc = parseMarkdown(["---", "title: x", "---", "", "# Real"]);
    expect(doc.headings.map((h) => h.text)).toEqual(["Real"]);
  });
});

describe("markdown edits", () => {
  it("replace_section replaces the body and keeps the heading and blank lines", () => {
    const out = replaceSection(parsed(), "Install > From source", "Run `make`.", "guide.md");
    expect(changes(out.lines)).toEqual({
      removed: [
        "Clone the repository and build:",
        "",
        "    git clone https://example.com/widgets.git",
      ],
      added: ["Run `make`."],
    });
  });

  it("replace_section takes a same-level heading at the top of the text as the new heading", () => {
    const out = replaceSection(parsed(), "Help", "## Support\n\nMail us.\n", "guide.md");
    expect(changes(out.lines)).toEqual({
      removed: ["## Help", "", "Ask on the forum."],
      added: ["## Support", "", "Mail us."],
    });
  });

  it("replace_section takes a setext heading at the top of the text like an ATX one", () => {
    const out = replaceSection(parsed(), "Help", "Support\n-------\n\nMail us.\n", "guide.md");
    expect(changes(out.lines)).toEqual({
      removed: ["## Help", "", "Ask on the forum."],
      added: ["Support", "-------", "", "Mail us."],
    });
    expect(out.warnings).toEqual([]);
    const deeper = replaceSection(parsed(), "Help", "Support\n=======\n\nMail us.", "guide.md");
    expect(deeper.warnings).toEqual([
      'The text starts with a level-1 heading; it went under the level-2 heading "Help", which was kept.',
    ]);
  });

  it("insert_after_heading goes right under the heading", () => {
    const out = insertAfterHeading(parsed(), "Features", "What you get:", "guide.md");
    expect(changes(out.lines)).toEqual({ removed: [], added: ["What you get:", ""] });
    expect(out.lines.slice(17, 21)).toEqual(["## Features", "", "What you get:", ""]);
  });

  it("append_to_section ends the section's own text, before its subsections", () => {
    const out = appendToSection(parsed(), "Install", "Needs Node 20.", "guide.md");
    expect(out.lines.slice(8, 14)).toEqual([
      "npm install @acme/widgets",
      "```",
      "",
      "Needs Node 20.",
      "",
      "### From source",
    ]);
  });

  it("upsert_bullet adds to the list once, after nested items, with the list's marker", () => {
    const out = upsertBullet(parsed(), "Features", "- Gauges", "guide.md");
    expect(changes(out.lines)).toEqual({ removed: [], added: ["- Gauges"] });
    expect(out.lines.slice(19, 24)).toEqual([
      "- Charts with zoom",
      "- Tables",
      "  - sortable columns",
      "- Maps",
      "- Gauges",
    ]);
    const again = upsertBullet(parseMarkdown(out.lines), "Features", "Gauges", "guide.md");
    expect(again.lines).toEqual(out.lines);
    expect(again.warnings[0]).toContain('already has "Gauges"');
  });

  it("upsert_bullet starts a list in a section that has none", () => {
    const out = upsertBullet(parsed(), "Help", "Open an issue", "guide.md");
    expect(out.lines.slice(-3)).toEqual(["Ask on the forum.", "", "- Open an issue"]);
  });

  it("table_append pads cells to an aligned table's columns and alignment", () => {
    const out = tableAppend(parsed(), "Options", ["`height`", 24, "Rows to use"], "guide.md");
    expect(changes(out.lines)).toEqual({
      removed: [],
      added: ["| `height` |      24 | Rows to use    |"],
    });
    expect(out.warnings).toEqual([
      "Cell 1 is wider than its column; the other rows were left as they are.",
    ]);
    const fits = tableAppend(parsed(), "Options", ["`h`", 1], "guide.md");
    expect(changes(fits.lines).added).toEqual(["| `h`     |       1 |                |"]);
  });

  it("table_append writes a plain row into a table that is not aligned, escaping pipes", () => {
    const doc = parseMarkdown(["## T", "", "a | b", "--|--", "1 | 2"]);
    expect(tableAppend(doc, "T", ["x|y", "z"], "t.md").lines.at(-1)).toBe("x\\|y | z");
    const error = thrown(() => tableAppend(doc, "T", [1, 2, 3], "t.md"));
    expect(error.message).toContain("has 2 columns, but the row has 3 cells");
  });

  it("move_section moves a section with its subsections under another, shifting levels", () => {
    const out = moveSection({ parsed: parsed(), label: "guide.md" }, "FAQ", "Help");
    expect(out.source.slice(-9)).toEqual([
      "## Help",
      "",
      "Ask on the forum.",
      "",
      "### FAQ",
      "",
      "#### Why widgets?",
      "",
      "Because dashboards deserve them.",
    ]);
    expect(out.warnings).toEqual(['Heading levels shifted by +1 to fit under "Help".']);
  });

  it("move_section turns a setext heading into an ATX one when its level changes", () => {
    const out = moveSection({ parsed: parsed(), label: "guide.md" }, "Usage", "Options");
    const at = out.source.indexOf("### Usage");
    expect(out.source.slice(at - 2, at + 3)).toEqual([
      "| `width` |      80 | Columns to use |",
      "",
      "### Usage",
      "",
      "Call `render()` with a spec.",
    ]);
    expect(out.source).not.toContain("-----");
  });

  it("move_section leaves a # line inside a code fence alone", () => {
    const out = moveSection({ parsed: parsed(), label: "guide.md" }, "Install", "Features");
    const at = out.source.indexOf("### Install");
    expect(out.source.slice(at, at + 9)).toEqual([
      "### Install",
      "",
      "```sh",
      "# Install from npm",
      "npm install @acme/widgets",
      "```",
      "",
      "#### From source",
      "",
    ]);
  });

  it("move_section refuses to move a section under itself", () => {
    const error = thrown(() =>
      moveSection({ parsed: parsed(), label: "guide.md" }, "Install", "From source"),
    );
    expect(error.message).toContain("that heading is inside the section being moved");
  });

  it("move_section to another file appends there and removes here", () => {
    const dest = parseMarkdown(["# Help", "", "More help."]);
    const out = moveSection({ parsed: parsed(), label: "guide.md" }, "FAQ", "Help", {
      parsed: dest,
      label: "help.md",
    });
    expect(out.dest).toEqual([
      "# Help",
      "",
      "More help.",
      "",
      "## FAQ",
      "",
      "### Why widgets?",
      "",
      "Because dashboards deserve them.",
    ]);
    expect(changes(out.source)).toEqual({
      removed: ["## FAQ", "", "### Why widgets?", "", "Because dashboards deserve them.", ""],
      added: [],
    });
  });
});
