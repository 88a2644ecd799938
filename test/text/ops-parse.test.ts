import { describe, expect, it } from "vitest";
import { type LineOp, OpsError, opHeader, parseOps, renderOps } from "../../src/text/ops.js";

function parseError(dsl: string): OpsError {
  try {
    parseOps(dsl);
  } catch (error) {
    if (error instanceof OpsError) return error;
    throw error;
  }
  throw new Error(`expected parseOps to throw for ${JSON.stringify(dsl)}`);
}

const only = (dsl: string): LineOp => {
  const { ops } = parseOps(dsl);
  expect(ops).toHaveLength(1);
  return ops[0]!;
};

describe("parseOps: op forms", () => {
  it("parses every op form", () => {
    const dsl = [
      "replace 5..7:",
      "+a",
      "replace 9:",
      "+b",
      "delete 10..12",
      "delete 14",
      "insert before 3:",
      "+c",
      "insert after 15:",
      "+d",
      "insert head:",
      "+e",
      "insert tail:",
      "+f",
      "replace block 40:",
      "+g",
      "delete block 60",
      "insert after block 80:",
      "+h",
    ].join("\n");
    expect(parseOps(dsl)).toEqual({
      ops: [
        { kind: "replace", start: 5, end: 7, lines: ["a"], dslLine: 1 },
        { kind: "replace", start: 9, end: 9, lines: ["b"], dslLine: 3 },
        { kind: "delete", start: 10, end: 12, dslLine: 5 },
        { kind: "delete", start: 14, end: 14, dslLine: 6 },
        { kind: "insert", where: "before", line: 3, lines: ["c"], dslLine: 7 },
        { kind: "insert", where: "after", line: 15, lines: ["d"], dslLine: 9 },
        { kind: "insert", where: "head", lines: ["e"], dslLine: 11 },
        { kind: "insert", where: "tail", lines: ["f"], dslLine: 13 },
        { kind: "replace_block", line: 40, lines: ["g"], dslLine: 15 },
        { kind: "delete_block", line: 60, dslLine: 17 },
        { kind: "insert_after_block", line: 80, lines: ["h"], dslLine: 18 },
      ],
      warnings: [],
    });
  });

  it("accepts 5..7, 5-7, 5,7 and spaces around the separator", () => {
    for (const range of ["5..7", "5-7", "5,7", "5 .. 7", "5 - 7", "5, 7"]) {
      expect(only(`delete ${range}`)).toEqual({ kind: "delete", start: 5, end: 7, dslLine: 1 });
    }
    expect(only("delete 5..5")).toEqual({ kind: "delete", start: 5, end: 5, dslLine: 1 });
  });

  it("is forgiving about case, whitespace, the colon, blank lines and CRLF", () => {
    const dsl =
      "\r\n  REPLACE   2..3 :  \r\n+x\r\n\r\n   \r\nInsert After 4\r\n+y\r\nDelete Block 9:\r\n";
    expect(parseOps(dsl).ops).toEqual([
      { kind: "replace", start: 2, end: 3, lines: ["x"], dslLine: 2 },
      { kind: "insert", where: "after", line: 4, lines: ["y"], dslLine: 6 },
      { kind: "delete_block", line: 9, dslLine: 8 },
    ]);
    expect(only("insert HEAD\n+z")).toMatchObject({ where: "head", lines: ["z"] });
    expect(only("delete 4:")).toEqual({ kind: "delete", start: 4, end: 4, dslLine: 1 });
    expect(only("\tinsert\tafter\tblock\t3\n+x")).toMatchObject({ kind: "insert_after_block" });
  });

  it("takes body text literally after the +", () => {
    const op = only("insert after 1:\n+\n+  indented\n++plus\n+trailing  \n+\ttab\n+1| not a copy");
    expect(op).toMatchObject({
      lines: ["", "  indented", "+plus", "trailing  ", "\ttab", "1| not a copy"],
    });
  });

  it("a lone + is an empty line, also as the only body line", () => {
    expect(only("replace 3:\n+")).toMatchObject({ lines: [""] });
  });
});

describe("parseOps: copied hashline prefixes", () => {
  it("strips N| prefixes when every body line has one, counting up, with a warning", () => {
    const { ops, warnings } = parseOps("delete 1\nreplace 5..6:\r\n+5| a\r\n+6|   b\r\n+7|");
    expect(ops[1]).toEqual({
      kind: "replace",
      start: 5,
      end: 6,
      lines: ["a", "  b", ""],
      dslLine: 2,
    });
    expect(warnings).toEqual([
      'line 2: removed copied "N| " line-number prefixes from the body of "replace 5..6:"; the prefixes are not part of the file',
    ]);
  });

  it("keeps the text when the numbers do not count up or a line has no prefix", () => {
    for (const body of ["+5| a\n+7| b", "+5| a\n+b", "+a\n+6| b", "+ 5| a"]) {
      const { ops, warnings } = parseOps(`insert head:\n${body}`);
      expect(ops[0]).toMatchObject({ lines: body.split("\n").map((l) => l.slice(1)) });
      expect(warnings).toEqual([]);
    }
  });

  it("warns once per op, naming that op's line", () => {
    const { warnings } = parseOps(
      "insert head:\n+1| a\ninsert tail:\n+plain\n\ninsert after 3:\n+9| x",
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^line 1: /);
    expect(warnings[1]).toMatch(/^line 6: /);
  });
});

describe("parseOps: errors", () => {
  it("names the DSL line, quotes it and says what was expected", () => {
    expect(parseError("delete 1\n\nreplace 5..x:\n+a").message).toBe(
      'line 3: "replace 5..x:" — expected a line number or range like 5..7',
    );
    expect(parseError("frob 3").message).toBe(
      'line 1: "frob 3" — unknown op "frob"; expected replace, delete or insert (body lines must start with +)',
    );
    expect(parseError("replace 3:\ndelete 5").message).toBe(
      'line 1: "replace 3:" — expected body lines starting with + after it (a lone + is an empty line); use delete to remove lines',
    );
    expect(parseError("delete 7..5").message).toBe(
      'line 1: "delete 7..5" — the range 7..5 runs backwards; write 5..7',
    );
    expect(parseError("delete 3\n+x").message).toBe(
      'line 2: "+x" — "delete 3" on line 1 takes no body; to change lines use replace with + lines',
    );
    expect(parseError("").message).toBe(
      "the ops text is empty; expected at least one op like replace 5..7: followed by + lines",
    );
  });

  const cases: [dsl: string, dslLine: number | undefined, fragment: string][] = [
    ["", undefined, "the ops text is empty"],
    [" \n\r\n\t", undefined, "the ops text is empty"],
    ["replace 5..x:\n+a", 1, "expected a line number or range like 5..7"],
    ["replace 5...7:\n+a", 1, "expected a line number or range like 5..7"],
    ["replace:\n+a", 1, "expected a line number or range like 5..7"],
    ["delete 5 7", 1, "expected a line number or range like 5..7"],
    ["frob 3", 1, 'unknown op "frob"'],
    ["replace5:\n+a", 1, 'unknown op "replace5"'],
    ["replace 1:\n+a\n  return x;", 3, 'unknown op "return"'],
    ["replace 1:\n+a\n  +b", 3, "body lines must start with + in the first column"],
    ["+x", 1, "expected an op before body lines"],
    ["\n\n+x\nreplace 1:\n+y", 3, "expected an op before body lines"],
    ["delete 3\n+x", 2, "takes no body"],
    ["delete block 3\n\n+x", 3, '"delete block 3" on line 1 takes no body'],
    ["replace 3:", 1, "use delete to remove lines"],
    ["replace 3:\n\ninsert head:\n+a", 1, "use delete to remove lines"],
    ["insert after 3:", 1, "expected body lines starting with +"],
    ["insert head:\ninsert tail:\n+x", 1, "expected body lines starting with +"],
    ["replace block 4:\ndelete 1", 1, "use delete block to remove a block"],
    ["insert after block 4:", 1, "expected body lines starting with +"],
    ["delete 7..5", 1, "runs backwards"],
    ["replace 3,2:\n+a", 1, "runs backwards"],
    ["delete 0", 1, "line numbers start at 1 (got 0)"],
    ["delete -3", 1, "line numbers start at 1 (got -3)"],
    ["replace 0..2:\n+a", 1, "line numbers start at 1 (got 0)"],
    ["replace 2..-4:\n+a", 1, "line numbers start at 1 (got -4)"],
    ["insert before 0:\n+a", 1, "line numbers start at 1 (got 0)"],
    ["replace block 0:\n+a", 1, "line numbers start at 1 (got 0)"],
    ["delete 99999999999999999999", 1, "line number 99999999999999999999 is too large"],
    ["replace 5: new text\n+a", 1, "put the new text on the following lines"],
    [
      "insert 5:\n+a",
      1,
      "expected insert before N:, insert after N:, insert head: or insert tail:",
    ],
    ["insert after 3..5:\n+a", 1, "expected one line number like 3, not a range"],
    ["insert before x:\n+a", 1, "expected a line number like 3"],
    ["insert head 3:\n+a", 1, "expected nothing after insert head"],
    ["replace block 40..52:\n+a", 1, "expected one line number like 40, not a range"],
    ["delete block", 1, "expected a line number like 40"],
    ["replace 1:\n+a\n\n+b", 4, "a blank line separates this from the op on line 1"],
    ["replace 1:\n\n+a", 3, "write a lone + for an empty line"],
  ];

  it.each(cases)("%j -> line %s", (dsl, dslLine, fragment) => {
    const error = parseError(dsl);
    expect(error).toBeInstanceOf(OpsError);
    expect(error.name).toBe("OpsError");
    expect(error.code).toBe("invalid_input");
    expect(error.dslLine).toBe(dslLine);
    expect(error.message).toContain(fragment);
    if (dslLine !== undefined) expect(error.message).toMatch(new RegExp(`^line ${dslLine}: "`));
  });

  it("shortens a long quoted line", () => {
    const long = `frob ${"x".repeat(200)}`;
    const { message } = parseError(long);
    expect(message).toContain(`"${long.slice(0, 79)}…"`);
    expect(message.length).toBeLessThan(200);
  });
});

describe("renderOps", () => {
  it("renders canonical DSL text", () => {
    const ops: LineOp[] = [
      { kind: "replace", start: 5, end: 7, lines: ["a", "", " b"], dslLine: 0 },
      { kind: "replace", start: 9, end: 9, lines: ["c"], dslLine: 0 },
      { kind: "delete", start: 10, end: 12, dslLine: 0 },
      { kind: "delete", start: 14, end: 14, dslLine: 0 },
      { kind: "insert", where: "before", line: 3, lines: ["d"], dslLine: 0 },
      { kind: "insert", where: "after", line: 15, lines: ["e"], dslLine: 0 },
      { kind: "insert", where: "head", lines: ["f"], dslLine: 0 },
      { kind: "insert", where: "tail", lines: ["+g"], dslLine: 0 },
      { kind: "replace_block", line: 40, lines: ["h"], dslLine: 0 },
      { kind: "delete_block", line: 60, dslLine: 0 },
      { kind: "insert_after_block", line: 80, lines: ["i"], dslLine: 0 },
    ];
    const text = renderOps(ops);
    expect(text).toBe(
      [
        "replace 5..7:",
        "+a",
        "+",
        "+ b",
        "replace 9:",
        "+c",
        "delete 10..12",
        "delete 14",
        "insert before 3:",
        "+d",
        "insert after 15:",
        "+e",
        "insert head:",
        "+f",
        "insert tail:",
        "++g",
        "replace block 40:",
        "+h",
        "delete block 60",
        "insert after block 80:",
        "+i",
      ].join("\n"),
    );
    const strip = (list: LineOp[]) => list.map(({ dslLine: _, ...rest }) => rest);
    expect(strip(parseOps(text).ops)).toEqual(strip(ops));
    expect(opHeader(ops[0]!)).toBe("replace 5..7:");
  });
});
