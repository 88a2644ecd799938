import { describe, expect, it } from "vitest";
import { anchorPairLimit, lineTolerance } from "../../src/text/match/anchored.js";
import { findMatch } from "../../src/text/match.js";
import { type ReplaceOutcome, replaceText } from "../../src/text/replace.js";

function ok(outcome: ReplaceOutcome): Extract<ReplaceOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`expected a match, got ${outcome.code}: ${outcome.message}`);
  return outcome;
}

const replace = (text: string, oldText: string, newText: string) =>
  replaceText(text, { oldText, newText });

const L = (...lines: string[]) => `${lines.join("\n")}\n`;

const BODY = [
  "  const alpha = 1;",
  "  const beta = 2;",
  "  const gamma = 3;",
  "  const delta = 4;",
  "  const epsilon = 5;",
  "  const zeta = 6;",
  "  const eta = 7;",
  "  const theta = 8;",
  "  const iota = 9;",
  "  const kappa = 10;",
];
const G = L("function g() {", ...BODY, "}");

describe("rung: anchored", () => {
  it("a misremembered context line in old_text and new_text: the file keeps its own", () => {
    const file = L("function f() {", "  const a = 1;", "  const b = 2;", "  return a + b;", "}");
    const r = ok(
      replace(
        file,
        L("function f() {", "  const a = 1;", "  const b = 3;", "  return a + b;", "}"),
        L("function f() {", "  const a = 1;", "  const b = 3;", "  return a * b;", "}"),
      ),
    );
    expect(r).toEqual({
      ok: true,
      text: L("function f() {", "  const a = 1;", "  const b = 2;", "  return a * b;", "}"),
      mode: "anchored",
      rung: "anchored",
      score: (1 + 11 / 12 + 1) / 3,
      count: 1,
      matchedText: file,
      matchedLines: [[1, 5]],
      firstChangedLine: 4,
      warnings: [
        "old_text matched lines 1..5 by its first and last lines (similarity 0.97); only the lines new_text changes were replaced, and the others keep the file's text.",
        "Kept the file's own text on line 3, where old_text differs but new_text does not change it.",
      ],
    });
  });

  it("first and last lines match but the middle is different code: refused, with the candidate", () => {
    const file = L("function a() {", "  const x = 1;", "  throw new Error('no');", "}");
    const r = replace(
      file,
      L("function a() {", "  const x = 1;", "  return compute(x);", "}"),
      L("function a() {", "  return 2;", "}"),
    );
    expect(r).toEqual({
      ok: false,
      code: "not_found",
      message: [
        "old_text was not found. The closest region is lines 1..4, which start and end like old_text but differ in between (similarity 0.50; 0.85 needed):",
        "1| function a() {",
        "2|   const x = 1;",
        "3|   throw new Error('no');",
        "4| }",
        'Copy the lines you mean exactly as shown, without the "N| " prefixes, into old_text; or read lines 1..4 again.',
      ].join("\n"),
      candidates: [{ startLine: 1, endLine: 4, score: 0.5, text: file.slice(0, -1) }],
    });
  });

  it("a missing blank line is found (anchored, score 1) and the file keeps it", () => {
    const r = ok(
      replace(
        L("a() {", "  x();", "", "  y();", "}"),
        L("a() {", "  x();", "  y();", "}"),
        L("a() {", "  x();", "  z();", "}"),
      ),
    );
    expect(r.text).toBe(L("a() {", "  x();", "", "  z();", "}"));
    expect(r.rung).toBe("anchored");
    expect(r.score).toBe(1);
    expect(r.warnings).toContain("The file has 1 more blank line there than old_text.");
  });

  it("an extra blank line in old_text is found too, and nothing is inserted for it", () => {
    const r = ok(
      replace(
        L("a() {", "  x();", "  y();", "}"),
        L("a() {", "  x();", "", "  y();", "}"),
        L("a() {", "  x();", "", "  z();", "}"),
      ),
    );
    expect(r.text).toBe(L("a() {", "  x();", "  z();", "}"));
    expect(r.warnings).toContain("old_text has 1 more blank line than the file there.");
  });

  it("a 600-space line between the anchors is just a blank line", () => {
    const file = L(
      "function f() {",
      " ".repeat(600),
      "  const total = compute(alpha, beta);",
      "  return total;",
      "}",
    );
    const r = ok(
      replace(
        file,
        L("function f() {", "", "  const totl = compute(alpha, beta);", "  return total;", "}"),
        L("function f() {", "", "  const totl = compute(alpha, beta);", "  return total * 2;", "}"),
      ),
    );
    expect(r.text).toBe(
      L(
        "function f() {",
        " ".repeat(600),
        "  const total = compute(alpha, beta);",
        "  return total * 2;",
        "}",
      ),
    );
  });

  it("very long lines between the anchors cost a bounded amount and are judged conservatively", () => {
    const long = "x".repeat(600);
    const near = ok(
      replace(
        L("begin", `${long}1`, "end"),
        L("begin", `${long}2`, "end"),
        L("begin", "new", "end"),
      ),
    );
    expect(near.text).toBe(L("begin", "new", "end"));
    const far = replace(
      L("begin", "a".repeat(5000), "end"),
      L("begin", "b".repeat(5000), "end"),
      L("begin", "c", "end"),
    );
    expect(far).toMatchObject({ ok: false, code: "not_found" });
  });

  it("16,000 repeated anchor lines: refused with a sentence, not a hang", () => {
    const text = L(...new Array<string>(16_000).fill("}"));
    expect(replace(text, "}\n  foo();\n}\n", "}\n  bar();\n}\n")).toEqual({
      ok: false,
      code: "ambiguous",
      message:
        "old_text has no exact match, and its first and last lines occur together in more than 256 places, too many to compare; copy the lines exactly, starting and ending with lines that occur once.",
    });
  });

  it("16,000 repeated lines around a distinctive block still find it", () => {
    const filler = new Array<string>(8000).fill("  item();");
    const text = L(...filler, "begin", "  item();", "end", ...filler);
    const r = ok(replace(text, "begin\n item();\nend\n", "begin\n item2();\nend\n"));
    expect(r.text).toBe(L(...filler, "begin", "  item2();", "end", ...filler));
    expect(r.matchedLines).toEqual([[8001, 8003]]);
  });

  it("two regions above the threshold are ambiguous, with their scores", () => {
    const text = L("go() {", "  value = compute(1);", "}", "go() {", "  value = compute(2);", "}");
    const r = replace(text, "go() {\n  value = compute(3);\n}", "go() {\n  value = 4;\n}");
    expect(r).toMatchObject({ ok: false, code: "ambiguous", lines: [1, 4] });
    expect(!r.ok && r.message).toBe(
      "old_text has no exact match, and by its first and last lines with similar lines between it matches 2 places (lines 1..3 at 0.94, 4..6 at 0.94); copy the exact lines of the one you mean into old_text, with a line above or below that makes it unique.",
    );
  });

  it("needs at least 3 lines and non-blank first and last lines", () => {
    expect(replace(L("a", "b2"), "a\nb1", "x")).toMatchObject({ ok: false, code: "not_found" });
    expect(findMatch(L("", "a", "b", ""), "\nq\nb\n\n")).toMatchObject({ ok: false });
  });

  it("tolerates 10% more or fewer lines (at least 1, at most 10)", () => {
    expect(lineTolerance(3)).toBe(1);
    expect(lineTolerance(40)).toBe(4);
    expect(lineTolerance(500)).toBe(10);
    expect(anchorPairLimit(40)).toBe(256);
    expect(anchorPairLimit(1000)).toBe(10);
    expect(anchorPairLimit(20_000)).toBe(1);
  });
});

describe("anchored: applying only what changed, safely", () => {
  const withPhantom = [
    "function g() {",
    ...BODY.slice(0, 5),
    "  const phantom = 0;",
    ...BODY.slice(5),
    "}",
  ];

  it("refuses to change a line old_text has but the file does not", () => {
    const r = replace(
      G,
      withPhantom.join("\n"),
      withPhantom.map((l) => l.replace("phantom = 0", "phantom = 1")).join("\n"),
    );
    expect(r).toEqual({
      ok: false,
      code: "not_found",
      message:
        'old_text matched lines 1..12 by its first and last lines, but its line 7 ("  const phantom = 0;"), which new_text changes, is not in the file there. Read lines 1..12 again and copy them exactly into old_text.',
    });
  });

  it("refuses to remove it as well", () => {
    const r = replace(
      G,
      withPhantom.join("\n"),
      withPhantom.filter((l) => !l.includes("phantom")).join("\n"),
    );
    expect(r).toMatchObject({ ok: false, code: "not_found" });
    expect(!r.ok && r.message).toContain("which new_text removes, is not in the file there");
  });

  it("refuses to change a line that reads differently in the file", () => {
    const old = [
      "function g() {",
      ...BODY.slice(0, 4),
      "  const other = 50;",
      ...BODY.slice(5),
      "}",
    ];
    const r = replace(G, old.join("\n"), old.map((l) => l.replace("50", "51")).join("\n"));
    expect(r).toEqual({
      ok: false,
      code: "not_found",
      message: [
        'old_text matched lines 1..12 by its first and last lines, but its line 6 ("  const other = 50;"), which new_text changes, reads differently in the file (similarity 0.55):',
        "6|   const epsilon = 5;",
        "Read lines 1..12 again and copy them exactly into old_text.",
      ].join("\n"),
    });
  });

  it("refuses an insertion next to a file line old_text does not show", () => {
    const old = ["function g() {", ...BODY.slice(0, 4), ...BODY.slice(5), "}"];
    const next = ["function g() {", ...BODY.slice(0, 4), "  inserted();", ...BODY.slice(5), "}"];
    expect(replace(G, old.join("\n"), next.join("\n"))).toEqual({
      ok: false,
      code: "ambiguous",
      message:
        "old_text matched lines 1..12 by its first and last lines, but the file has a line there that old_text lacks (line 6), so where new_text's added lines belong is not certain. Read lines 1..12 again and copy them exactly into old_text.",
      lines: [6],
    });
  });

  it("refuses a rewrite of a stretch that holds a file line old_text does not show", () => {
    const old = ["function g() {", ...BODY.slice(0, 4), ...BODY.slice(5), "}"];
    const next = ["function g() {", "  done();", "}"];
    expect(replace(G, old.join("\n"), next.join("\n"))).toEqual({
      ok: false,
      code: "ambiguous",
      message:
        "old_text matched lines 1..12 by its first and last lines, but among the lines new_text rewrites the file has one that old_text lacks (line 6), so whether it should stay is not certain. Read lines 1..12 again and copy it exactly into old_text.",
      lines: [6],
    });
    // Quoted whole, the same rewrite applies.
    const whole = ["function g() {", ...BODY, "}"];
    expect(ok(replace(G, whole.join("\n"), next.join("\n"))).text).toBe(L(...next));
  });

  it("but changes elsewhere in that block apply, and the unquoted line stays", () => {
    const old = ["function g() {", ...BODY.slice(0, 4), ...BODY.slice(5), "}"];
    const next = old.map((l) => l.replace("kappa = 10", "kappa = 11"));
    const r = ok(replace(G, old.join("\n"), next.join("\n")));
    expect(r.text).toBe(G.replace("kappa = 10", "kappa = 11"));
  });

  it("an insertion beside an unquoted blank line is certain enough", () => {
    const file = L("run() {", "  a();", "", "  b();", "  c();", "}");
    const r = ok(
      replace(
        file,
        L("run() {", "  a();", "  b();", "  c();", "}"),
        L("run() {", "  a();", "  a2();", "  b();", "  c();", "}"),
      ),
    );
    expect(r.text).toBe(L("run() {", "  a();", "  a2();", "", "  b();", "  c();", "}"));
  });

  it("re-indents new lines from the nearest quoted line when no single mapping fits", () => {
    const r = ok(
      replace(L("if a:", "    b()", "c()"), "if a:\n  b()\nc()", "if a:\n  b()\n  b2()\nc()"),
    );
    expect(r.text).toBe(L("if a:", "    b()", "    b2()", "c()"));
  });
});
