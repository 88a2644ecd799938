import { describe, expect, it } from "vitest";
import {
  describeIndent,
  IDENTITY,
  indentStep,
  reindent,
  solveIndentMap,
} from "../../src/text/match/indent.js";
import {
  foldUnicode,
  LineView,
  normalizeInput,
  splitLines,
  unescapeOnce,
} from "../../src/text/match/normalize.js";
import { findIdSequence } from "../../src/text/match/search.js";
import {
  alignLines,
  alignmentScore,
  Budget,
  lineSimilarity,
} from "../../src/text/match/similarity.js";

describe("normalizeInput", () => {
  it("turns CRLF into LF and drops a leading BOM, saying which it did", () => {
    expect(normalizeInput("\uFEFFa\r\nb\r\n")).toEqual({
      text: "a\nb\n",
      hadCR: true,
      hadBOM: true,
    });
    expect(normalizeInput("a\nb")).toEqual({ text: "a\nb", hadCR: false, hadBOM: false });
    expect(normalizeInput("a\rb").text).toBe("a\rb");
  });

  it("drops a lone CR at the end: a CRLF line end cut before its LF", () => {
    expect(normalizeInput("a\r\nb\r")).toEqual({ text: "a\nb", hadCR: true, hadBOM: false });
    expect(normalizeInput("b = 2;\r")).toEqual({ text: "b = 2;", hadCR: true, hadBOM: false });
  });

  it("splits text into lines and a final-newline flag", () => {
    expect(splitLines("")).toEqual({ lines: [], finalNewline: false });
    expect(splitLines("a\nb\n")).toEqual({ lines: ["a", "b"], finalNewline: true });
    expect(splitLines("a\n\n")).toEqual({ lines: ["a", ""], finalNewline: true });
    expect(splitLines("a")).toEqual({ lines: ["a"], finalNewline: false });
  });
});

describe("foldUnicode", () => {
  it("maps quote, dash, space and ellipsis look-alikes to ASCII", () => {
    expect(foldUnicode("\u201Chi\u201D \u2018x\u2019 a\u2013b\u2014c\u00A0d\u2026")).toBe(
      "\"hi\" 'x' a-b-c d...",
    );
    expect(foldUnicode("a\u200Bb\u3000c")).toBe("ab c");
  });

  it("folds escapes the same way on both sides: over-escaped quotes and doubled backslashes", () => {
    expect(foldUnicode('say(\\"hi\\")')).toBe(foldUnicode('say("hi")'));
    expect(foldUnicode('print("a\\\\nb")')).toBe(foldUnicode('print("a\\nb")'));
    expect(unescapeOnce('say(\\"hi\\") \\\\n')).toBe('say("hi") \\n');
  });

  it("leaves plain ASCII alone (the same string, no copy)", () => {
    const s = "const x = 1;";
    expect(foldUnicode(s)).toBe(s);
  });
});

describe("findIdSequence (KMP over line ids)", () => {
  const view = (file: string[], old: string[]) => new LineView(file, old);

  it("finds every start, overlapping ones included", () => {
    const file = ["a", "b", "a", "b", "a"];
    const v = view(file, ["a", "b", "a"]);
    const hits = findIdSequence(v.fileIds("indent"), v.oldIds("indent", ["a", "b", "a"]), 10);
    expect(hits).toEqual({ starts: [0, 2], truncated: false });
  });

  it("stops after limit + 1 hits", () => {
    const file = new Array<string>(16_000).fill("x");
    const v = view(file, ["x", "x"]);
    const hits = findIdSequence(v.fileIds("trailing"), v.oldIds("trailing", ["x", "x"]), 1000);
    expect(hits.truncated).toBe(true);
    expect(hits.starts).toHaveLength(1001);
  });

  it("keys lines per rung: trailing keeps indentation, indent and unicode drop it", () => {
    const v = view(["  a  ", "a", "\u201Ca\u201D"], ['"a"', "a"]);
    expect([...v.fileIds("trailing")]).toEqual([-1, 1, -1]);
    expect([...v.fileIds("indent")]).toEqual([1, 1, -1]);
    expect([...v.fileIds("unicode")]).toEqual([1, 1, 0]);
  });
});

describe("solveIndentMap", () => {
  it("finds a uniform shift either way", () => {
    expect(
      solveIndentMap([
        ["", "    "],
        ["  ", "      "],
      ]),
    ).toEqual({
      kind: "prefix",
      add: "    ",
      remove: "",
    });
    expect(
      solveIndentMap([
        ["    ", ""],
        ["      ", "  "],
      ]),
    ).toEqual({
      kind: "prefix",
      add: "",
      remove: "    ",
    });
  });

  it("finds spaces->tabs and tabs->spaces with the unit the lines show", () => {
    expect(
      solveIndentMap([
        ["", "\t"],
        ["    ", "\t\t"],
      ]),
    ).toEqual({
      kind: "spaces_to_tabs",
      unit: 4,
      offset: -4,
    });
    expect(
      solveIndentMap([
        ["\t", "  "],
        ["\t\t", "    "],
      ]),
    ).toEqual({
      kind: "tabs_to_spaces",
      unit: 2,
      offset: 0,
    });
  });

  it("asks for the unit only when one level is all the lines show", () => {
    const hints = { oldSpaces: () => 2, fileSpaces: () => undefined };
    expect(solveIndentMap([["  ", "\t"]], hints)).toEqual({
      kind: "spaces_to_tabs",
      unit: 2,
      offset: 0,
    });
  });

  it("has no answer when relative indentation differs", () => {
    expect(
      solveIndentMap([
        ["", ""],
        [" ", "  "],
      ]),
    ).toBeUndefined();
    expect(
      solveIndentMap([
        ["", "\t"],
        ["   ", "\t\t"],
        ["    ", "\t\t\t"],
      ]),
    ).toBeUndefined();
  });

  it("re-indents new lines by the mapping, keeping alignment spaces", () => {
    expect(reindent("  x", { kind: "prefix", add: "\t", remove: "" })).toBe("\t  x");
    expect(reindent("      x", { kind: "prefix", add: "", remove: "    " })).toBe("  x");
    expect(reindent(" x", { kind: "prefix", add: "", remove: "    " })).toBe("x");
    expect(reindent("      x", { kind: "spaces_to_tabs", unit: 4, offset: 0 })).toBe("\t  x");
    expect(reindent("\t\tx", { kind: "tabs_to_spaces", unit: 2, offset: 1 })).toBe("     x");
    expect(reindent("", { kind: "prefix", add: "  ", remove: "" })).toBe("");
    expect(reindent("x", IDENTITY)).toBe("x");
  });

  it("describes the mapping for warnings", () => {
    expect(describeIndent({ kind: "prefix", add: "    ", remove: "" })).toBe(
      "indented 4 spaces deeper",
    );
    expect(describeIndent({ kind: "prefix", add: "", remove: "\t" })).toBe(
      "indented 1 tab shallower",
    );
  });

  it("reads the indentation step a text uses", () => {
    expect(indentStep(["a", "  b", "    c", "  d", "e"], " ")).toBe(2);
    expect(indentStep(["a", "b"], " ")).toBeUndefined();
  });
});

describe("similarity", () => {
  it("is 1 - edit distance / longer length", () => {
    const b = new Budget();
    expect(lineSimilarity("abc", "abc", b)).toBe(1);
    expect(lineSimilarity("abcd", "abxd", b)).toBe(0.75);
    expect(lineSimilarity("", "", b)).toBe(1);
    expect(lineSimilarity("abc", "", b)).toBe(0);
  });

  it("bounds the cost of long lines with a lower bound instead of a matrix", () => {
    const b = new Budget(0);
    const long = "x".repeat(600);
    expect(lineSimilarity(`${long}1`, `${long}2`, b)).toBeCloseTo(600 / 601);
    expect(lineSimilarity("a".repeat(5000), "b".repeat(5000), b)).toBe(0);
  });

  it("aligns equal lines by diff and unequal ones by best similarity", () => {
    const a = ["one", "twoo", "three"];
    const f = ["one", "extra line", "two", "three"];
    const al = alignLines(a, f, new Budget());
    expect(al.pairOf).toEqual([0, 2, 3]);
    expect(alignmentScore(a, f, al)).toBeCloseTo((1 + 0.75 + 1) / 4);
  });

  it("does not count blank lines in the score", () => {
    const a = ["x", "y"];
    const f = ["x", "", "y"];
    expect(alignmentScore(a, f, alignLines(a, f, new Budget()))).toBe(1);
  });
});
