import { describe, expect, it } from "vitest";
import { hasFinalNewline, parseDocument, renderDocument } from "../../src/text/document.js";
import {
  type ApplyResult,
  applyOps,
  type BlockResolver,
  type LineOp,
  OpsError,
  parseOps,
} from "../../src/text/ops.js";

const TEN = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";

function run(text: string, dsl: string, resolver?: BlockResolver): ApplyResult {
  return applyOps(parseDocument(text), parseOps(dsl).ops, resolver);
}

const edit = (text: string, dsl: string, resolver?: BlockResolver): string =>
  renderDocument(run(text, dsl, resolver).doc);

function applyError(text: string, dsl: string, resolver?: BlockResolver): OpsError {
  try {
    run(text, dsl, resolver);
  } catch (error) {
    if (error instanceof OpsError) return error;
    throw error;
  }
  throw new Error(`expected applyOps to throw for ${JSON.stringify(dsl)}`);
}

const lines = (...xs: (string | number)[]) => `${xs.join("\n")}\n`;

describe("applyOps: op forms", () => {
  it("replace a range and a single line", () => {
    expect(edit(TEN, "replace 2..4:\n+a\n+b")).toBe(lines(1, "a", "b", 5, 6, 7, 8, 9, 10));
    expect(edit(TEN, "replace 10:\n+x\n+y\n+z")).toBe(
      lines(1, 2, 3, 4, 5, 6, 7, 8, 9, "x", "y", "z"),
    );
  });

  it("delete a range and a single line", () => {
    expect(edit(TEN, "delete 2..9")).toBe(lines(1, 10));
    expect(edit(TEN, "delete 1")).toBe(lines(2, 3, 4, 5, 6, 7, 8, 9, 10));
    expect(edit(TEN, "delete 1..10")).toBe("");
  });

  it("insert before, after, head and tail", () => {
    expect(edit(TEN, "insert before 1:\n+a")).toBe(lines("a", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
    expect(edit(TEN, "insert after 10:\n+a")).toBe(lines(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "a"));
    expect(edit(TEN, "insert after 3:\n+a\n+")).toBe(lines(1, 2, 3, "a", "", 4, 5, 6, 7, 8, 9, 10));
    expect(edit(TEN, "insert before 3:\n+a")).toBe(lines(1, 2, "a", 3, 4, 5, 6, 7, 8, 9, 10));
    expect(edit(TEN, "insert head:\n+h")).toBe(lines("h", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
    expect(edit(TEN, "insert tail:\n+t")).toBe(lines(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "t"));
  });

  it("numbers always refer to the original document, whatever the DSL order", () => {
    const expected = lines("h", 1, "A", 4, "i", 5, 6, 8, 9, 10, "t");
    const parts = [
      "replace 2..3:\n+A",
      "delete 7",
      "insert after 4:\n+i",
      "insert head:\n+h",
      "insert tail:\n+t",
    ];
    expect(edit(TEN, parts.join("\n"))).toBe(expected);
    expect(edit(TEN, [...parts].reverse().join("\n"))).toBe(expected);
  });

  it("keeps DSL order for inserts at one gap and puts them before a replacement there", () => {
    expect(edit(TEN, "insert after 4:\n+a\ninsert before 5:\n+b\ninsert after 4:\n+c")).toBe(
      lines(1, 2, 3, 4, "a", "b", "c", 5, 6, 7, 8, 9, 10),
    );
    expect(edit(TEN, "replace 5..7:\n+R\ninsert before 5:\n+b\ninsert after 7:\n+a")).toBe(
      lines(1, 2, 3, 4, "b", "R", "a", 8, 9, 10),
    );
    expect(edit(TEN, "delete 5..7\ninsert after 4:\n+b\ninsert before 8:\n+a")).toBe(
      lines(1, 2, 3, 4, "b", "a", 8, 9, 10),
    );
    expect(edit(TEN, "insert before 1:\n+x\ninsert head:\n+y")).toBe(
      lines("x", "y", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
    );
    expect(edit(TEN, "insert tail:\n+y\ninsert after 10:\n+x\ndelete 10")).toBe(
      lines(1, 2, 3, 4, 5, 6, 7, 8, 9, "y", "x"),
    );
  });

  it("adjacent ranges do not overlap", () => {
    expect(edit(TEN, "replace 3..4:\n+a\nreplace 5..6:\n+b\ndelete 7")).toBe(
      lines(1, 2, "a", "b", 8, 9, 10),
    );
  });

  it("an empty op list changes nothing", () => {
    const result = applyOps(parseDocument(TEN), []);
    expect(renderDocument(result.doc)).toBe(TEN);
    expect(result.firstChangedLine).toBe(0);
    expect(result.changedRanges).toEqual([]);
  });
});

describe("applyOps: block ops", () => {
  // Blocks in TEN: 2..4 and 6..9; any other line has no block.
  const resolver: BlockResolver = (line) =>
    line >= 2 && line <= 4 ? [2, 4] : line >= 6 && line <= 9 ? [6, 9] : undefined;

  it("converts block ops through the resolver", () => {
    expect(edit(TEN, "replace block 2:\n+B", resolver)).toBe(lines(1, "B", 5, 6, 7, 8, 9, 10));
    expect(edit(TEN, "delete block 7", resolver)).toBe(lines(1, 2, 3, 4, 5, 10));
    expect(edit(TEN, "insert after block 6:\n+x", resolver)).toBe(
      lines(1, 2, 3, 4, 5, 6, 7, 8, 9, "x", 10),
    );
    expect(run(TEN, "insert after block 6:\n+x", resolver).changedRanges).toEqual([[9, 9]]);
  });

  it("checks resolved blocks for overlap like any range", () => {
    const error = applyError(TEN, "replace block 3:\n+B\ndelete 4", resolver);
    expect(error.code).toBe("overlap");
    expect(error.dslLine).toBe(3);
  });

  it("needs a resolver, and says which numeric form to use instead", () => {
    const error = applyError(TEN, "delete 1\nreplace block 4:\n+x");
    expect(error.code).toBe("needs_syntax");
    expect(error.dslLine).toBe(2);
    expect(error.message).toBe(
      'line 2: "replace block 4:" — block ops need syntax support, which is not available here; use the numeric form instead: replace 4..<last line>:',
    );
    expect(applyError(TEN, "delete block 4").message).toContain("delete 4..<last line>");
    expect(applyError(TEN, "insert after block 4:\n+x").message).toContain(
      "insert after <last line>:",
    );
  });

  it("refuses a line where the resolver finds no block", () => {
    const error = applyError(TEN, "delete block 5", resolver);
    expect(error).toMatchObject({ code: "needs_syntax", dslLine: 1 });
    expect(error.message).toBe(
      'line 1: "delete block 5" — no syntax block was found at line 5; use the numeric form instead: delete 5..<last line>',
    );
  });

  it("checks the block's line before resolving, and the resolved range after", () => {
    expect(applyError(TEN, "delete block 11", resolver)).toMatchObject({
      code: "out_of_range",
      dslLine: 1,
    });
    const bad = applyError(TEN, "delete block 3", () => [3, 12]);
    expect(bad).toMatchObject({ code: "out_of_range", dslLine: 1 });
    expect(bad.message).toContain("resolved to 3..12");
  });
});

describe("applyOps: range checks", () => {
  it("names the DSL line, the bad number and the line count", () => {
    const error = applyError(TEN, "delete 1\ndelete 9..12");
    expect(error).toMatchObject({ code: "out_of_range", dslLine: 2 });
    expect(error.message).toBe(
      'line 2: "delete 9..12" — line 12 is out of range: the document has 10 lines',
    );
    expect(applyError("one\n", "insert after 2:\n+x").message).toBe(
      'line 1: "insert after 2:" — line 2 is out of range: the document has 1 line',
    );
  });

  it.each([
    ["replace 11:\n+x", 1, "line 11 is out of range"],
    ["insert before 11:\n+x", 1, "line 11 is out of range"],
    ["insert after 11:\n+x", 1, "line 11 is out of range"],
    ["delete 3\n\nreplace 10..11:\n+x", 3, "line 11 is out of range"],
  ])("%j", (dsl, dslLine, fragment) => {
    const error = applyError(TEN, dsl);
    expect(error).toMatchObject({ code: "out_of_range", dslLine });
    expect(error.message).toContain(fragment);
  });

  it("checks ops built in code as well", () => {
    const doc = parseDocument(TEN);
    const zero: LineOp = { kind: "delete", start: 0, end: 2, dslLine: 4 };
    expect(() => applyOps(doc, [zero])).toThrow(
      'line 4: "delete 0..2" — line 0 is out of range: lines start at 1 and the document has 10 lines',
    );
    const backwards: LineOp = { kind: "delete", start: 5, end: 3, dslLine: 1 };
    expect(() => applyOps(doc, [backwards])).toThrow(/runs backwards/);
  });

  it("allows only insert head and insert tail on an empty document", () => {
    const error = applyError("", "replace 1:\n+x");
    expect(error).toMatchObject({ code: "out_of_range", dslLine: 1 });
    expect(error.message).toBe(
      'line 1: "replace 1:" — line 1 is out of range: the document is empty (0 lines); only insert head: and insert tail: work on an empty document',
    );
    for (const dsl of [
      "delete 1",
      "insert before 1:\n+x",
      "insert after 1:\n+x",
      "delete block 1",
    ]) {
      expect(applyError("", dsl).code).toBe("out_of_range");
    }
    expect(edit("", "insert tail:\n+b\ninsert head:\n+a")).toBe("b\na\n");
    const result = run("", "insert head:\n+a");
    expect(result.firstChangedLine).toBe(1);
    expect(result.changedRanges).toEqual([]);
  });
});

describe("applyOps: overlap", () => {
  it("names both DSL lines", () => {
    const error = applyError(TEN, "replace 3..6:\n+a\ndelete 5..8");
    expect(error).toMatchObject({ code: "overlap", dslLine: 3 });
    expect(error.message).toBe(
      'line 1: "replace 3..6:" and line 3: "delete 5..8" overlap: lines 5..6 are in both; ops in one call must not overlap — combine them into one op',
    );
    const insert = applyError(TEN, "insert after 5:\n+x\nreplace 5..7:\n+y");
    expect(insert).toMatchObject({ code: "overlap", dslLine: 3 });
    expect(insert.message).toBe(
      'line 1: "insert after 5:" and line 3: "replace 5..7:" overlap: insert after 5 falls inside lines 5..7; ops in one call must not overlap — combine them into one op',
    );
  });

  it.each([
    ["delete 5\ndelete 5", 2],
    ["delete 1..10\ndelete 4", 2],
    ["replace 5..7:\n+a\ninsert before 6:\n+b", 3],
    ["replace 5..7:\n+a\ninsert before 7:\n+b", 3],
    ["replace 5..7:\n+a\ninsert after 6:\n+b", 3],
    ["delete 2..3\ndelete 8\ndelete 3..4", 3],
  ])("%j", (dsl, dslLine) => {
    expect(applyError(TEN, dsl)).toMatchObject({ code: "overlap", dslLine });
  });

  it("allows inserts at the edges of a range", () => {
    expect(() =>
      run(TEN, "replace 5..7:\n+a\ninsert before 5:\n+b\ninsert after 7:\n+c"),
    ).not.toThrow();
    expect(() => run(TEN, "delete 5\ninsert before 5:\n+b\ninsert after 5:\n+c")).not.toThrow();
  });
});

describe("applyOps: line endings, BOM and final newline", () => {
  it("keeps CRLF for inserts at head and tail and for a replaced last line", () => {
    expect(edit("a\r\nb\r\n", "insert head:\n+h\ninsert tail:\n+t")).toBe("h\r\na\r\nb\r\nt\r\n");
    expect(edit("a\r\nb\r\n", "replace 2:\n+B\n+C")).toBe("a\r\nB\r\nC\r\n");
  });

  it("keeps a missing final newline missing", () => {
    expect(edit("a\r\nb", "insert tail:\n+t")).toBe("a\r\nb\r\nt");
    expect(edit("a\nb", "replace 2:\n+B")).toBe("a\nB");
    expect(edit("a\nb", "delete 2")).toBe("a");
    expect(edit("a\nb", "insert head:\n+h")).toBe("h\na\nb");
  });

  it("an empty line appended to a file without a final newline is just a newline", () => {
    // The Document keeps the empty last line; its bytes are the same as a
    // final newline, so a re-read sees one line fewer.
    const result = run("a", "insert tail:\n+");
    expect(result.doc.lines).toEqual(["a", ""]);
    expect(renderDocument(result.doc)).toBe("a\n");
  });

  it("keeps a final newline when the last line goes", () => {
    expect(edit("a\r\nb\r\n", "delete 2")).toBe("a\r\n");
  });

  it("keeps each untouched line's own terminator in a mixed file", () => {
    // Dominant CRLF: new lines get CRLF; the LF lines stay LF.
    const mixed = "a\r\nb\nc\r\nd\r\ne\n";
    expect(edit(mixed, "replace 3:\n+C\ninsert after 2:\n+x\ninsert tail:\n+t")).toBe(
      "a\r\nb\nx\r\nC\r\nd\r\ne\nt\r\n",
    );
  });

  it("keeps the BOM", () => {
    expect(edit("\uFEFFa\nb\n", "insert head:\n+h")).toBe("\uFEFFh\na\nb\n");
    expect(edit("\uFEFFa\r\nb", "replace 1..2:\n+x")).toBe("\uFEFFx");
    expect(edit("\uFEFFa\n", "delete 1")).toBe("\uFEFF");
    expect(edit("\uFEFF", "insert tail:\n+x")).toBe("\uFEFFx\n");
  });

  it("gives inserted lines of a file without terminators LF and keeps the last unterminated", () => {
    const result = run("only", "insert tail:\n+next");
    expect(renderDocument(result.doc)).toBe("only\nnext");
    expect(hasFinalNewline(result.doc)).toBe(false);
  });
});

describe("applyOps: firstChangedLine and changedRanges", () => {
  it("reports the first line of the new document that differs", () => {
    expect(run(TEN, "delete 9\nreplace 3..4:\n+a").firstChangedLine).toBe(3);
    expect(run(TEN, "insert after 6:\n+x").firstChangedLine).toBe(7);
    expect(run(TEN, "insert head:\n+x").firstChangedLine).toBe(1);
    expect(run(TEN, "insert tail:\n+x").firstChangedLine).toBe(11);
    // Removing the tail points at the new last line.
    expect(run(TEN, "delete 9..10").firstChangedLine).toBe(8);
    expect(run(TEN, "delete 1..10").firstChangedLine).toBe(1);
    // The old last line gains a terminator when a line follows it.
    expect(run("a\nb", "insert tail:\n+c").firstChangedLine).toBe(2);
  });

  it("is 0 when the bytes did not change, even though ops ran", () => {
    const result = run(TEN, "replace 3..4:\n+3\n+4");
    expect(result.firstChangedLine).toBe(0);
    expect(result.changedRanges).toEqual([[3, 4]]);
    // A no-op replace before a real change does not hide it.
    expect(run(TEN, "replace 2:\n+2\ndelete 8").firstChangedLine).toBe(8);
  });

  it("lists touched original ranges, sorted, merged only where they overlap", () => {
    const result = run(
      TEN,
      "delete 9\ninsert after 3:\n+x\nreplace 5..7:\n+y\ninsert before 5:\n+z\ninsert head:\n+h\ninsert tail:\n+t",
    );
    expect(result.changedRanges).toEqual([
      [1, 1],
      [3, 3],
      [5, 7],
      [9, 9],
      [10, 10],
    ]);
  });
});

describe("applyOps: large documents", () => {
  it("applies a handful of ops to 100k lines", () => {
    const text = Array.from({ length: 100_000 }, (_, i) => `line ${i + 1}`).join("\n");
    const doc = parseDocument(text);
    const { ops } = parseOps(
      "replace 10..20:\n+x\ndelete 50000\ninsert after 99999:\n+y\ninsert head:\n+z\nreplace 100000:\n+last",
    );
    const result = applyOps(doc, ops);
    expect(result.doc.lines).toHaveLength(100_000 - 11 + 1 - 1 + 1 + 1);
    expect(result.doc.lines.slice(0, 3)).toEqual(["z", "line 1", "line 2"]);
    expect(result.doc.lines.at(-3)).toBe("line 99999");
    expect(result.doc.lines.slice(-2)).toEqual(["y", "last"]);
    expect(hasFinalNewline(result.doc)).toBe(false);
    expect(result.firstChangedLine).toBe(1);
  });
});
