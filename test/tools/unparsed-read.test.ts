/**
 * Reads that never dead-end: a `line` read or an outline of a file splice
 * does not parse (Markdown, plain text, a language without a grammar)
 * answers with the lines around the line or the file's headings, not an
 * error listing the languages splice parses.
 */
import { describe, expect, it } from "vitest";
import { LINE_WINDOW } from "../../src/tools/read/window.js";
import { Project } from "../helpers/project.js";

const tagOf = (content: string) => /^¶[^#]+#([0-9A-F]{4})/.exec(content)![1]!;

/** `N| text` lines for lines from..to of `lines`. */
const numbered = (lines: string[], from: number, to: number) =>
  lines.slice(from - 1, to).map((text, i) => `${from + i}| ${text}`);

const README = [
  "# Tool", //          1
  "", //                2
  "Intro.", //          3
  "", //                4
  "## Install", //      5
  "", //                6
  "npm i tool", //      7
  "", //                8
  "### From source", // 9
  "", //               10
  "make", //           11
  "", //               12
  "## Use", //         13
  "", //               14
  "tool run", //       15
];

describe("a line read in a file splice does not parse", () => {
  it("shows the Markdown section around the line", async () => {
    const p = new Project();
    p.write("README.md", `${README.join("\n")}\n`);
    const { results } = await p.splice().read({ targets: [{ path: "README.md", line: 7 }] });
    const r = results[0]!;
    expect(r.error).toBeUndefined();
    expect(r.content).toBe(
      [
        `¶README.md#${tagOf(r.content)}`,
        '[section "## Install": lines 5..11 of 15 (around line 7)]',
        ...numbered(README, 5, 11),
      ].join("\n"),
    );
    const inner = await p.splice().read({ targets: [{ path: "README.md", line: 11 }] });
    expect(inner.results[0]!.content.split("\n")[1]).toBe(
      '[section "### From source": lines 9..11 of 15 (around line 11)]',
    );
  });

  it("shows a window around the line in a long section, and in any other text", async () => {
    const p = new Project();
    const long = ["# Log", ...Array.from({ length: 300 }, (_, i) => `entry ${i + 2}`)];
    p.write("CHANGES.md", `${long.join("\n")}\n`);
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
    p.write("notes.rst", `${text.join("\n")}\n`);
    const { results } = await p.splice().read({
      targets: [
        { path: "CHANGES.md", line: 150 },
        { path: "notes.rst", line: 50 },
        { path: "notes.rst", line: 3 },
      ],
    });
    const [section, window, top] = results.map((r) => r.content.split("\n"));
    expect(section!.slice(1)).toEqual([
      `[section "# Log" (part): lines ${150 - LINE_WINDOW}..${150 + LINE_WINDOW} of 301 (around line 150)]`,
      ...numbered(long, 150 - LINE_WINDOW, 150 + LINE_WINDOW),
    ]);
    expect(window!.slice(1)).toEqual([
      "[no block (not a language splice parses): lines 30..70 of 100 (around line 50)]",
      ...numbered(text, 30, 70),
    ]);
    expect(top![1]).toBe(
      "[no block (not a language splice parses): lines 1..23 of 100 (around line 3)]",
    );
  });

  it("shows the lines around a line outside every definition of a parsed file", async () => {
    const p = new Project();
    const source = [
      "// header",
      "",
      "import x from 'x';",
      "",
      "export function f() {",
      "  return x;",
      "}",
    ];
    p.write("a.ts", `${source.join("\n")}\n`);
    const { results } = await p.splice().read({ targets: [{ path: "a.ts", line: 4 }] });
    expect(results[0]!.error).toBeUndefined();
    expect(results[0]!.content.split("\n").slice(1)).toEqual([
      "[no block (not inside a definition): lines 1..7 of 7 (around line 4)]",
      ...numbered(source, 1, 7),
    ]);
  });

  it("names a version an edit can use, and still refuses a line past the end", async () => {
    const p = new Project();
    p.write("notes.txt", "a\nb\nc\n");
    const splice = p.splice();
    const { results } = await splice.read({
      targets: [
        { path: "notes.txt", line: 2 },
        { path: "notes.txt", line: 9 },
      ],
    });
    await splice.edit({
      targets: [{ path: "notes.txt", file_hash: results[0]!.file_hash!, ops: "replace 2:\n+B" }],
    });
    expect(p.text("notes.txt")).toBe("a\nB\nc\n");
    expect(results[1]!.error).toEqual({
      code: "invalid_input",
      message: "line 9 is past the end: notes.txt has 3 lines.",
    });
  });
});

describe("an outline of a file splice does not parse", () => {
  it("lists a Markdown file's headings with their sections' lines", async () => {
    const p = new Project();
    p.write("README.md", `${README.join("\n")}\n`);
    const result = await p.splice().outline({ path: "README.md" });
    expect(result.content).toBe(
      [
        `¶README.md#${tagOf(result.content)}`,
        "1..15 # Tool",
        "  5..11 ## Install",
        "    9..11 ### From source",
        "  13..15 ## Use",
      ].join("\n"),
    );
    expect(result.files).toEqual([
      { path: "README.md", file_hash: tagOf(result.content), total_lines: 15, definitions: [] },
    ]);
  });

  it("shows the first lines of any other text, saying how to read on", async () => {
    const p = new Project();
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
    p.write("notes.txt", `${text.join("\n")}\n`);
    p.write("short.md", "no headings here\n");
    const splice = p.splice();
    const result = await splice.outline({ path: "notes.txt" });
    expect(result.content.split("\n").slice(1)).toEqual([
      '[no outline (not a language splice parses): lines 1..40 of 100; read line_range "41..100" for more]',
      ...numbered(text, 1, 40),
    ]);
    const short = await splice.outline({ path: "short.md" });
    expect(short.content.split("\n").slice(1)).toEqual([
      "[no outline (it has no headings): lines 1..1 of 1]",
      "1| no headings here",
    ]);
  });
});
