import { describe, expect, it } from "vitest";
import { type ReplaceOutcome, replaceText } from "../../src/text/replace.js";

function ok(outcome: ReplaceOutcome): Extract<ReplaceOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`expected a match, got ${outcome.code}: ${outcome.message}`);
  return outcome;
}

const replace = (text: string, oldText: string, newText: string, replaceAll = false) =>
  replaceText(text, { oldText, newText, replaceAll });

const L = (...lines: string[]) => `${lines.join("\n")}\n`;

describe("rung: trailing whitespace", () => {
  it("matches lines whose trailing spaces differ, and keeps the file's context lines", () => {
    expect(replace("x = 1;   \ny = 2;\n", "x = 1;\ny = 2;", "x = 1;\ny = 3;")).toEqual({
      ok: true,
      text: "x = 1;   \ny = 3;\n",
      mode: "fuzzy",
      rung: "trailing_whitespace",
      score: 1,
      count: 1,
      matchedText: "x = 1;   \ny = 2;",
      matchedLines: [[1, 2]],
      firstChangedLine: 2,
      warnings: ["old_text matched lines 1..2 only after ignoring trailing whitespace."],
    });
  });

  it("trap: two regions equal up to trailing whitespace, old_text exactly neither -> ambiguous", () => {
    const text = L("a();  ", "b();", "mid();", "a(); ", "b();");
    expect(replace(text, "a();\nb();", "c();")).toEqual({
      ok: false,
      code: "ambiguous",
      message:
        "old_text has no exact match, and ignoring trailing whitespace it matches 2 places (lines 1..2, 4..5); include more surrounding lines to make it unique, or set replace_all.",
      lines: [1, 4],
    });
  });

  it("replace_all replaces every region of the rung that found them", () => {
    const text = L("a();  ", "b();", "mid();", "a(); ", "b();");
    const r = ok(replace(text, "a();\nb();", "a();\nc();", true));
    expect(r.text).toBe(L("a();  ", "c();", "mid();", "a(); ", "c();"));
    expect(r.count).toBe(2);
    expect(r.matchedLines).toEqual([
      [1, 2],
      [4, 5],
    ]);
  });

  it("replace_all takes overlapping regions left to right, like exact matching", () => {
    const r = ok(replace(L("a ", "a ", "a "), "a\na", "b", true));
    expect(r.text).toBe(L("b", "a "));
    expect(r.count).toBe(1);
  });

  it("refuses when a rung finds more than 1000 places", () => {
    const text = L(...new Array<string>(1500).fill("x  "));
    expect(replace(text, "x \t", "y")).toEqual({
      ok: false,
      code: "ambiguous",
      message:
        "old_text has no exact match, and ignoring trailing whitespace it matches more than 1000 places; include more surrounding lines to make it unique.",
    });
  });
});

describe("rung: indentation", () => {
  const file = L("class A {", "  run() {", "    start();", "    stop();", "  }", "}");

  it("matches a uniformly shifted block and re-indents new lines by the same shift", () => {
    const r = ok(
      replace(
        file,
        "run() {\n  start();\n  stop();\n}",
        "run() {\n  start();\n  if (ok) {\n    stop();\n  }\n}",
      ),
    );
    expect(r.text).toBe(
      L(
        "class A {",
        "  run() {",
        "    start();",
        "    if (ok) {",
        "      stop();",
        "    }",
        "  }",
        "}",
      ),
    );
    expect(r.rung).toBe("indentation");
    expect(r.mode).toBe("fuzzy");
    expect(r.matchedLines).toEqual([[2, 5]]);
    expect(r.warnings).toEqual([
      "old_text matched lines 2..5 only ignoring indentation; the file is indented 2 spaces deeper, and new_text's lines were re-indented to match.",
    ]);
  });

  it("matches an over-indented quote too (the shift goes the other way)", () => {
    const r = ok(
      replace(file, "        start();\n        stop();\n", "        begin();\n        stop();\n"),
    );
    expect(r.text).toBe(L("class A {", "  run() {", "    begin();", "    stop();", "  }", "}"));
  });

  it("tabs in the file, spaces in old_text: new lines get tabs", () => {
    const tabbed = L("func f() {", "\tif x {", "\t\tgo()", "\t}", "}");
    const r = ok(
      replace(
        tabbed,
        "if x {\n    go()\n}",
        "if x {\n    go()\n    if y {\n        stop()\n    }\n}",
      ),
    );
    expect(r.text).toBe(
      L("func f() {", "\tif x {", "\t\tgo()", "\t\tif y {", "\t\t\tstop()", "\t\t}", "\t}", "}"),
    );
    expect(r.warnings[0]).toBe(
      "old_text matched lines 2..4 only ignoring indentation; the file is indented with tabs where old_text has spaces (4 per tab), and new_text's lines were re-indented to match.",
    );
  });

  it("spaces in the file, tabs in old_text: new lines get the file's spaces", () => {
    const spaced = L("def f():", "    if x:", "        go()", "    return");
    const r = ok(replace(spaced, "\tif x:\n\t\tgo()\n", "\tif x:\n\t\tgo()\n\t\tstop()\n"));
    expect(r.text).toBe(L("def f():", "    if x:", "        go()", "        stop()", "    return"));
  });

  it("a block whose relative indentation differs is not an indentation match", () => {
    const py = L("if a:", "    b()", "c()");
    // Only the anchored rung may take it (3 lines), never the indentation rung.
    const r = replace(py, "if a:\n  b()\nc()", "if a:\n  b()\nd()");
    expect(r).toMatchObject({ ok: true, rung: "anchored" });
    expect(ok(r).text).toBe(L("if a:", "    b()", "d()"));
    expect(replace(L("if a:", "    b()"), "if a:\nb()  ", "x")).toMatchObject({ ok: false });
  });

  it("trap: two regions equal ignoring indentation, old_text exactly neither -> ambiguous", () => {
    const text = L(
      "function a() {",
      "  if (x) {",
      "    run();",
      "  }",
      "}",
      "function b() {",
      "      if (x) {",
      "        run();",
      "      }",
      "}",
    );
    expect(replace(text, "if (x) {\n  run();\n}", "if (x) {\n  stop();\n}")).toEqual({
      ok: false,
      code: "ambiguous",
      message:
        "old_text has no exact match, and ignoring indentation it matches 2 places (lines 2..4, 7..9); include more surrounding lines to make it unique, or set replace_all.",
      lines: [2, 7],
    });
  });

  it("regions whose indentation matches neither consistently are ambiguous at the anchored rung too", () => {
    const text = L("if (x) {", "  a();", "}", "if (x) {", "    a();", "}");
    expect(replace(text, "if (x) {\n a();\n}", "z")).toEqual({
      ok: false,
      code: "ambiguous",
      message:
        "old_text has no exact match, and by its first and last lines with similar lines between it matches 2 places (lines 1..3 at 1.00, 4..6 at 1.00); copy the exact lines of the one you mean into old_text, with a line above or below that makes it unique.",
      lines: [1, 4],
      candidates: [
        { startLine: 1, endLine: 3, score: 1, text: "if (x) {\n  a();\n}" },
        { startLine: 4, endLine: 6, score: 1, text: "if (x) {\n    a();\n}" },
      ],
    });
  });
});

describe("rung: unicode", () => {
  it("matches smart quotes against straight ones; context keeps the file's quotes", () => {
    const r = ok(
      replace(
        'const s = "hello";\nlog(s);\n',
        "const s = \u201Chello\u201D;\nlog(s);",
        "const s = \u201Chello\u201D;\nlog(s, 1);",
      ),
    );
    expect(r.text).toBe('const s = "hello";\nlog(s, 1);\n');
    expect(r.rung).toBe("unicode");
    expect(r.mode).toBe("fuzzy");
    expect(r.score).toBeCloseTo((16 / 18 + 1) / 2);
    expect(r.warnings).toEqual([
      "old_text matched lines 1..2 only after normalizing quotes, dashes, spaces and escapes.",
    ]);
  });

  it("matches dashes, non-breaking spaces and ellipses", () => {
    const text = L("// range 1\u20132\u00A0\u2026", "x();");
    const r = ok(replace(text, "// range 1-2 ...\nx();", "// range 1-2 ...\ny();"));
    expect(r.text).toBe(L("// range 1\u20132\u00A0\u2026", "y();"));
  });

  it("un-escapes new_text the way old_text was over-escaped, and says so", () => {
    const r = ok(
      replace(
        'say("hi");\nlog("bye");\n',
        'say(\\"hi\\");\nlog(\\"bye\\");',
        'say(\\"hi\\");\nlog(\\"ciao\\");',
      ),
    );
    expect(r.text).toBe('say("hi");\nlog("ciao");\n');
    expect(r.warnings).toContain(
      'old_text had one level of escaping too many (such as \\" where the file has "); new_text\'s lines were un-escaped the same way before writing.',
    );
  });

  it("treats a doubled backslash (\\\\n for \\n) as over-escaping too", () => {
    const r = ok(
      replace('print("a\\nb")\nend\n', 'print("a\\\\nb")\nend', 'print("a\\\\nc")\nend'),
    );
    expect(r.text).toBe('print("a\\nc")\nend\n');
  });

  it("warns when old_text has fewer backslashes than the file, and writes new_text as given", () => {
    const r = ok(replace('log(\\"a\\");\nx();\n', 'log("a");\nx();', 'log("a");\ny();'));
    expect(r.text).toBe('log(\\"a\\");\ny();\n');
    expect(r.warnings).toContain(
      "old_text's backslashes differ from the file's; new_text's lines were written as given, so check their escapes.",
    );
  });

  it("combines with indentation", () => {
    const r = ok(
      replace('  a = "x";\n  b = 1;\n', "a = \u201Cx\u201D;\nb = 1;", "a = \u201Cx\u201D;\nb = 2;"),
    );
    expect(r.text).toBe('  a = "x";\n  b = 2;\n');
  });
});

describe("stray blank lines at the edges of old_text", () => {
  it("ignores a blank first line that keeps old_text from matching", () => {
    const r = ok(
      replace(L("foo();", "bar();", "baz();"), "\nfoo();\nbar();\n", "\nfoo();\nqux();\n"),
    );
    expect(r.text).toBe(L("foo();", "qux();", "baz();"));
    expect(r.warnings).toEqual(["The blank first line of old_text was ignored."]);
  });

  it("ignores a blank last line that keeps old_text from matching", () => {
    const r = ok(replace("top\nfoo();\nbar();", "foo();\nbar();\n\n", "foo();\nbaz();\n\n"));
    expect(r.text).toBe("top\nfoo();\nbaz();");
    expect(r.warnings).toEqual(["The blank last line of old_text was ignored."]);
  });

  it("a new line replacing the ignored blank line is inserted, not lost", () => {
    const r = ok(replace(L("foo();", "bar();"), "\nfoo();\nbar();", "// note\nfoo();\nbar();"));
    expect(r.text).toBe(L("// note", "foo();", "bar();"));
  });
});
