import { describe, expect, it } from "vitest";
import { findMatch } from "../../src/text/match.js";
import { type ReplaceOutcome, replaceText } from "../../src/text/replace.js";

function ok(outcome: ReplaceOutcome): Extract<ReplaceOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`expected a match, got ${outcome.code}: ${outcome.message}`);
  return outcome;
}

const replace = (text: string, oldText: string, newText: string, replaceAll = false) =>
  replaceText(text, { oldText, newText, replaceAll });

describe("inputs", () => {
  it("refuses an empty old_text", () => {
    expect(replace("abc\n", "", "x")).toEqual({
      ok: false,
      code: "invalid_input",
      message:
        "old_text is empty; quote the exact text to replace (an empty old_text only creates a new file).",
    });
    expect(replace("abc\n", "\uFEFF", "x")).toMatchObject({ ok: false, code: "invalid_input" });
  });

  it("refuses old_text equal to new_text, line endings aside", () => {
    const nothing = {
      ok: false,
      code: "invalid_input",
      message:
        "old_text and new_text are the same, so there is nothing to change; put the text the file should have in new_text.",
    };
    expect(replace("abc\n", "abc", "abc")).toEqual(nothing);
    expect(replace("a\nb\n", "a\r\nb", "a\nb")).toEqual(nothing);
  });
});

describe("exact", () => {
  it("replaces a unique substring, even mid-line, and reports it", () => {
    expect(replace("const a = 1;\nconst b = 2;\n", "a = 1", "a = 10")).toEqual({
      ok: true,
      text: "const a = 10;\nconst b = 2;\n",
      mode: "exact",
      rung: "exact",
      score: 1,
      count: 1,
      matchedText: "a = 1",
      matchedLines: [[1, 1]],
      firstChangedLine: 1,
      warnings: [],
    });
  });

  it("reports the lines a multi-line match spans and the first changed line", () => {
    const r = ok(replace("a\nb\nc\nd\n", "b\nc\n", "b\nC\n"));
    expect(r.text).toBe("a\nb\nC\nd\n");
    expect(r.matchedLines).toEqual([[2, 3]]);
    expect(r.firstChangedLine).toBe(3);
  });

  it("refuses several exact matches, listing every line", () => {
    expect(replace("foo()\nbar\nfoo()\nbaz\nfoo()\n", "foo()", "qux()")).toEqual({
      ok: false,
      code: "ambiguous",
      message:
        "old_text matches 3 places (lines 1, 3, 5); include more surrounding lines to make it unique, or set replace_all.",
      lines: [1, 3, 5],
    });
  });

  it("calls overlapping occurrences ambiguous too", () => {
    expect(replace("aaa\n", "aa", "b")).toMatchObject({
      ok: false,
      code: "ambiguous",
      lines: [1, 1],
    });
  });

  it("a unique exact match wins over any fuzzy candidate", () => {
    const r = ok(replace("  x = 1;\nx = 1;  \n", "  x = 1;\n", "  x = 2;\n"));
    expect(r.text).toBe("  x = 2;\nx = 1;  \n");
    expect(r.rung).toBe("exact");
  });

  it("replace_all replaces every non-overlapping match", () => {
    const r = ok(replace("foo()\nbar\nfoo()\nfoo()\n", "foo()", "qux()", true));
    expect(r.text).toBe("qux()\nbar\nqux()\nqux()\n");
    expect(r.count).toBe(3);
    expect(r.matchedLines).toEqual([
      [1, 1],
      [3, 3],
      [4, 4],
    ]);
  });

  it("inserts new_text literally: $&, $1, $$ and $' are plain text", () => {
    const r = ok(replace("price = 10;\n", "10", "$& $1 $$ $' $`"));
    expect(r.text).toBe("price = $& $1 $$ $' $`;\n");
    const all = ok(replace("a a\n", "a", "$&$&", true));
    expect(all.text).toBe("$&$& $&$&\n");
  });
});

describe("line endings and BOM in the model's input", () => {
  it("matches CRLF old_text on an LF text, as rung line_endings", () => {
    const r = ok(replace("one\ntwo\nthree\n", "one\r\ntwo\r\n", "uno\r\ndos\r\n"));
    expect(r).toEqual({
      ok: true,
      text: "uno\ndos\nthree\n",
      mode: "fuzzy",
      rung: "line_endings",
      score: 1,
      count: 1,
      matchedText: "one\ntwo\n",
      matchedLines: [[1, 2]],
      firstChangedLine: 1,
      warnings: ["old_text had CRLF line endings; it was matched with LF."],
    });
  });

  it("ignores a BOM the model copied, and says so", () => {
    const r = ok(replace("alpha\nbeta\n", "\uFEFFalpha", "gamma"));
    expect(r.text).toBe("gamma\nbeta\n");
    expect(r.rung).toBe("line_endings");
    expect(r.warnings).toEqual(["old_text began with a byte order mark; it was ignored."]);
  });

  it("writes CRLF new_text with LF (the file's own style is restored by the writer)", () => {
    expect(ok(replace("a\nb\n", "b", "c\r\nd")).text).toBe("a\nc\nd\n");
  });
});

describe("final newline", () => {
  it("keeps a missing final newline when old and new text agree", () => {
    expect(ok(replace("a\nb", "b", "c")).text).toBe("a\nc");
    expect(ok(replace("a\nb\n", "b\n", "c\n")).text).toBe("a\nc\n");
  });

  it("adds or drops it only when old and new text differ in that respect", () => {
    expect(ok(replace("a\nb\n", "b\n", "c")).text).toBe("a\nc");
    expect(ok(replace("a\nb", "a\nb", "a\nc\n")).text).toBe("a\nc\n");
  });

  it("keeps it for whole-line fuzzy matches at the end of the file", () => {
    const noFinal = "top\n    end();";
    expect(ok(replace(noFinal, "end();\n", "finish();\n")).text).toBe("top\n    finish();");
    expect(ok(replace(noFinal, "end();", "finish();\n")).text).toBe("top\n    finish();\n");
    expect(ok(replace("top\n    end();\n", "end();\n", "finish();")).text).toBe(
      "top\n    finish();",
    );
  });

  it("deleting the last lines leaves the file's final-newline state on the new last line", () => {
    // The trailing space keeps these off the exact path, which would cut mid-line.
    expect(ok(replace("a\n  b\n", "b \n", "")).text).toBe("a\n");
    expect(ok(replace("a\n  b", "b ", "")).text).toBe("a");
    expect(ok(replace("a\n  b\n", "b ", "")).text).toBe("a\n");
    expect(ok(replace("a\n  b\n", "b ", "")).rung).toBe("indentation");
  });
});

describe("findMatch", () => {
  it("returns exact spans with offsets and lines", () => {
    expect(findMatch("ab\ncd\n", "cd")).toEqual({
      ok: true,
      kind: "exact",
      mode: "exact",
      rung: "exact",
      score: 1,
      spans: [{ start: 3, end: 5, startLine: 2, endLine: 2 }],
      warnings: [],
    });
  });

  it("returns line spans with the alignment and indentation mapping", () => {
    const found = findMatch("x\n    a\n    b\n", "a\nb\n");
    expect(found).toMatchObject({
      ok: true,
      kind: "lines",
      rung: "indentation",
      spans: [
        {
          from: 1,
          to: 3,
          align: [1, 2],
          indent: { kind: "prefix", add: "    ", remove: "" },
        },
      ],
    });
  });
});

describe("indentation of changed lines", () => {
  it("keeps the file's indentation on a changed line when the quote only mistook it (tab for three spaces)", () => {
    const text =
      "function f() {\n  const a = 1;\n  /**\n   * Name of the MCP server.\n   */\n  return a;\n}\n";
    const oldText = "\tconst a = 1;\n\t/**\n\t * Name of the MCP server.\n\t */\n\treturn a;";
    const newText = "\tconst a = 1;\n\t/**\n\t * NameValue of the MCP server.\n\t */\n\treturn a;";
    const r = replaceText(text, { oldText, newText });
    expect(r).toMatchObject({ ok: true });
    expect(r.ok && r.text).toBe(text.replace("   * Name of", "   * NameValue of"));
  });
});

describe("sizes", () => {
  it("inserts more lines than a call takes arguments, through a quote placed by its shape", () => {
    // A quote with the wrong indentation goes the line-by-line way; its insertion must not be spread into a call.
    const file = "function f() {\n    const a = 1;\n    return a;\n}\n";
    const added = Array.from({ length: 300_000 }, (_, i) => `  x${i}();`);
    const out = ok(
      replace(
        file,
        "function f() {\n  const a = 1;\n  return a;\n}",
        ["function f() {", "  const a = 1;", ...added, "  return a;", "}"].join("\n"),
      ),
    );
    const lines = out.text.split("\n");
    expect(lines).toHaveLength(300_005);
    expect(lines[2]).toBe("    x0();");
    expect(lines.at(-3)).toBe("    return a;");
  });
});
