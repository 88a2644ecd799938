import { describe, expect, it } from "vitest";
import { replaceText } from "../../src/text/replace.js";

const replace = (text: string, oldText: string, newText: string) =>
  replaceText(text, { oldText, newText });

const L = (...lines: string[]) => `${lines.join("\n")}\n`;

describe("not found", () => {
  it("shows the closest region with line numbers, N| lines and the score", () => {
    const text = L(
      "alpha();",
      "beta();",
      "gamma();",
      "delta();",
      "epsilon();",
      "zeta();",
      "eta();",
    );
    expect(replace(text, "gamma();\ndeltta();", "x")).toEqual({
      ok: false,
      code: "not_found",
      message: [
        "old_text was not found. The closest region is lines 3..4 (similarity 0.94):",
        "3| gamma();",
        "4| delta();",
        'Copy the lines you mean exactly as shown, without the "N| " prefixes, into old_text; or read lines 1..7 again.',
      ].join("\n"),
      candidates: [
        { startLine: 3, endLine: 4, score: (1 + 8 / 9) / 2, text: "gamma();\ndelta();" },
      ],
    });
  });

  it("shows several regions, best first", () => {
    const text = L(
      "open(a);",
      "read(a);",
      "close(a);",
      "x();",
      "y();",
      "open(b);",
      "read(b);",
      "close(b);",
    );
    const r = replace(text, "open(c);\nread(c);\nclose(c);", "z");
    expect(r).toMatchObject({ ok: false, code: "not_found" });
    if (r.ok) return;
    expect(r.candidates?.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 3],
      [6, 8],
    ]);
    expect(r.message).toBe(
      [
        "old_text was not found. The closest regions are lines 1..3 (similarity 0.87):",
        "1| open(a);",
        "2| read(a);",
        "3| close(a);",
        "lines 6..8 (similarity 0.87):",
        "6| open(b);",
        "7| read(b);",
        "8| close(b);",
        'Copy the lines you mean exactly as shown, without the "N| " prefixes, into old_text; or read lines 1..6 again.',
      ].join("\n"),
    );
  });

  it("finds the nearest line by its characters when no line matches exactly", () => {
    const text = L("const first = 1;", "function computeTotal(items) {", "  return 0;", "}");
    const r = replace(text, "function computeTotals(item) {", "x");
    expect(r).toMatchObject({
      ok: false,
      code: "not_found",
      candidates: [{ startLine: 2, endLine: 2 }],
    });
  });

  it("says so when nothing resembles old_text", () => {
    expect(replace(L("aaaa", "bbbb"), "zzzz\nyyyy", "x")).toEqual({
      ok: false,
      code: "not_found",
      message:
        "old_text was not found, and no part of the file resembles it. Read the file again and copy the exact lines you want to change into old_text.",
      candidates: [],
    });
  });
});

describe("suspicious", () => {
  it("refuses a fuzzy match holding far more text than old_text", () => {
    const line = `s = "${"\\".repeat(400)}";`;
    const r = replace(L("a = 1;", line, "b = 2;"), 's = "\\";', 's = "";');
    expect(r).toEqual({
      ok: false,
      code: "suspicious",
      message:
        "old_text has no exact match; ignoring indentation, quote/dash/space styles and escapes it matches line 2, but that holds far more text than old_text (407 vs 8 characters), so nothing was replaced. Read line 2 again and copy the exact lines into old_text.",
      candidates: [{ startLine: 2, endLine: 2, score: expect.any(Number), text: line }],
    });
  });
});

describe("results", () => {
  it("an edit whose changed lines already read that way leaves the text unchanged and says so", () => {
    const file = L("function f() {", "  const a = 1;", "  const b = 2;", "}");
    const r = replace(
      file,
      L("function f() {", "  const a = 1;", "  const b = 3;", "}"),
      L("function f() {", "  const a = 1;", "  const b = 2;", "}"),
    );
    expect(r).toMatchObject({ ok: true, text: file, firstChangedLine: 0 });
    expect(r.ok && r.warnings.at(-1)).toBe(
      "The edit left the file unchanged: the lines new_text changes already read that way in the file.",
    );
  });

  it("matchedText is the file's text, not old_text", () => {
    const r = replace(L("    a();", "    b();", "c();"), "a();\nb();\n", "a();\nb2();\n");
    expect(r).toMatchObject({ ok: true, matchedText: "    a();\n    b();\n", firstChangedLine: 2 });
  });
});
