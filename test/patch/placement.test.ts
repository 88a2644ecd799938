import { describe, expect, it } from "vitest";
import { applyHunks } from "../../src/patch/apply.js";
import { HunkError } from "../../src/patch/errors.js";
import { parsePatch } from "../../src/patch/parse.js";
import type { UpdateFile } from "../../src/patch/types.js";

function apply(file: string[], patch: string) {
  const hunks = (parsePatch(patch).files[0] as UpdateFile).hunks;
  return applyHunks({ lines: file, finalNewline: true }, hunks, "t.js");
}

function refusal(fn: () => unknown): HunkError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HunkError) return error;
    throw error;
  }
  throw new Error("expected a HunkError");
}

const TESTS = [
  "test('a', async t => {",
  "\tawait run();",
  "\tt.pass();",
  "});",
  "",
  "test('b', async t => {",
  "\tawait run();",
  "\tt.pass();",
  "});",
];
const TEST_C = ["", "test('c', async t => {", "\tawait run();", "\tt.pass();", "});"];
// What `git diff` prints for appending test('c'): 3 context lines that also end test('a').
const APPEND = `diff --git a/t.js b/t.js
--- a/t.js
+++ b/t.js
@@ -7,3 +7,8 @@ test('b', async t => {
 \tawait run();
 \tt.pass();
 });
${TEST_C.map((l) => `+${l}`).join("\n")}
`;

describe("placing a hunk whose lines repeat, as git apply does", () => {
  it("appends at the end where the header says, and says which place it took", () => {
    const out = apply(TESTS, APPEND);
    expect(out.lines).toEqual([...TESTS, ...TEST_C]);
    expect(out.hunks[0]).toMatchObject({
      line: 7,
      offset: 0,
      match_mode: "exact",
      chosen_by: "end_of_file",
      other_lines: [2],
    });
    expect(out.warnings.join("\n")).toContain("its old lines also match line 2;");
    expect(out.warnings.join("\n")).toContain("applied at line 7");
  });

  it("prefers the end for a hunk with nothing after its change, even when the header drifted", () => {
    const out = apply(["// header", "// added above", ...TESTS], APPEND);
    expect(out.lines).toEqual(["// header", "// added above", ...TESTS, ...TEST_C]);
    expect(out.hunks[0]).toMatchObject({ line: 9, offset: 2 });
    expect(out.warnings.join("\n")).toContain("it ends at the end of the file");
  });

  it("takes the place at the header's line in the middle of a file", () => {
    const file = ["a", "x", "b", "mid", "a", "x", "b", "end"];
    const out = apply(file, "--- a/f\n+++ b/f\n@@ -5,3 +5,3 @@\n a\n-x\n+y\n b\n");
    expect(out.lines).toEqual(["a", "x", "b", "mid", "a", "y", "b", "end"]);
    expect(out.warnings.join("\n")).toContain("applied at line 5, where its header says");
    expect(out.hunks[0]).toMatchObject({ chosen_by: "header", other_lines: [1] });
  });

  it("moves the header's line by the drift of the hunk before", () => {
    const file = ["new 1", "new 2", "one", "two", "three", "a", "x", "b", "a", "x", "b", "z"];
    const patch =
      "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n@@ -7,3 +7,3 @@\n a\n-x\n+y\n b\n";
    const out = apply(file, patch);
    expect(out.lines.slice(8)).toEqual(["a", "y", "b", "z"]);
    expect(out.lines[5]).toBe("a");
    expect(out.lines[6]).toBe("x");
    expect(out.hunks[1]).toMatchObject({ line: 9, offset: 2 });
    expect(out.warnings.join("\n")).toContain("moved +2 like the hunk before");
  });

  it("still refuses when the header names none of the places", () => {
    const file = ["a", "x", "b", "mid", "a", "x", "b", "end", "tail"];
    const e = refusal(() => apply(file, "--- a/f\n+++ b/f\n@@ -3,3 +3,3 @@\n a\n-x\n+y\n b\n"));
    expect(e.code).toBe("ambiguous");
    expect(e.lines).toEqual([1, 5]);
  });

  it("still refuses when a hand-counted header does not fit its lines", () => {
    const file = ["a", "x", "b", "mid", "a", "x", "b", "end"];
    const e = refusal(() => apply(file, "--- a/f\n+++ b/f\n@@ -5,4 +5,3 @@\n a\n-x\n+y\n b\n"));
    expect(e.code).toBe("ambiguous");
  });

  it("still refuses when two places are equally near the header's line and none is at it", () => {
    const file = ["a", "x", "b", "m1", "m2", "m3", "a", "x", "b", "end"];
    const e = refusal(() => apply(file, "--- a/f\n+++ b/f\n@@ -4,3 +4,3 @@\n a\n-x\n+y\n b\n"));
    expect(e.code).toBe("ambiguous");
    expect(e.lines).toEqual([1, 7]);
  });

  it("refuses when other places overlap the header's one (repeating lines)", () => {
    const file = ["}", "}", "}", "}", "}", "x"];
    const e = refusal(() => apply(file, "--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n }\n-}\n+};\n }\n"));
    expect(e.code).toBe("ambiguous");
  });

  it("gives Codex hunks, which carry no line numbers, no tie-break", () => {
    const e = refusal(() =>
      apply(
        TESTS,
        `*** Begin Patch\n*** Update File: t.js\n@@\n \tawait run();\n \tt.pass();\n });\n${TEST_C.map((l) => `+${l}`).join("\n")}\n*** End Patch`,
      ),
    );
    expect(e.code).toBe("ambiguous");
    expect(e.lines).toEqual([2, 7]);
  });
});

describe("identical hunks for identical places", () => {
  const codex = (...hunks: string[]) =>
    `*** Begin Patch\n*** Update File: t.js\n${hunks.join("\n")}\n*** End Patch`;
  const pass = "@@\n \tawait run();\n-\tt.pass();\n+\tt.true(await done());";

  it("applies two identical Codex hunks to the two places their lines match, in file order", () => {
    const out = apply(TESTS, codex(pass, pass));
    expect(out.lines).toEqual(
      TESTS.map((l) => (l === "\tt.pass();" ? "\tt.true(await done());" : l)),
    );
    expect(out.hunks.map((h) => [h.line, h.chosen_by])).toEqual([
      [2, "same_change"],
      [7, undefined],
    ]);
    expect(out.warnings).toEqual([
      "t.js: hunk 1 (@@, patch line 3): its old lines also match line 7, and the patch has 1 more hunk making this same change, one for each place; any order gives the same file, so they were applied in file order (this one at line 2).",
    ]);
  });

  it("applies them with a different hunk between them", () => {
    const name = "@@\n-test('b', async t => {\n+test('b2', async t => {";
    const out = apply(TESTS, codex(pass, name, pass));
    expect(out.lines).toEqual([
      "test('a', async t => {",
      "\tawait run();",
      "\tt.true(await done());",
      "});",
      "",
      "test('b2', async t => {",
      "\tawait run();",
      "\tt.true(await done());",
      "});",
    ]);
  });

  it("refuses one hunk for two places: which is meant is unknown", () => {
    expect(refusal(() => apply(TESTS, codex(pass))).code).toBe("ambiguous");
  });

  it("refuses two identical hunks for three places", () => {
    const three = [...TESTS, "", "test('c', async t => {", "\tawait run();", "\tt.pass();", "});"];
    const e = refusal(() => apply(three, codex(pass, pass)));
    expect(e.code).toBe("ambiguous");
    expect(e.lines).toEqual([2, 7, 12]);
  });

  it("refuses two hunks whose new lines differ: the order decides the result", () => {
    const other = "@@\n \tawait run();\n-\tt.pass();\n+\tt.fail();";
    expect(refusal(() => apply(TESTS, codex(pass, other))).code).toBe("ambiguous");
  });

  it("refuses identical hunks whose places overlap", () => {
    const e = refusal(() =>
      apply(["}", "}", "}", "x"], codex("@@\n }\n-}\n+};", "@@\n }\n-}\n+};")),
    );
    expect(e.code).toBe("ambiguous");
  });

  it("applies two identical unified hunks whose headers no longer help", () => {
    const hunk = "@@ -90,2 +90,2 @@\n \tawait run();\n-\tt.pass();\n+\tt.true(await done());";
    const out = apply(TESTS, `--- a/t.js\n+++ b/t.js\n${hunk}\n${hunk}\n`);
    expect(out.lines.filter((l) => l === "\tt.true(await done());")).toHaveLength(2);
  });
});

describe("Codex context matching, rung by rung", () => {
  const codex = (body: string) => `*** Begin Patch\n*** Update File: f\n${body}\n*** End Patch`;

  it("deletes lines whose whitespace differs per line (trimmed comparison)", () => {
    const out = apply(
      ["start", "    foo   ", "   bar\t", "end"],
      codex("@@\n start\n-foo\n-bar\n end"),
    );
    expect(out.lines).toEqual(["start", "end"]);
    expect(out.hunks[0]).toMatchObject({ match_mode: "fuzzy", rung: "indentation" });
  });

  it("matches Unicode look-alikes after trimming, adding the new lines as written", () => {
    const out = apply(
      ["x", "    say(\u201Chi\u201D)  ", "  go\u2014now", "y"],
      codex('@@\n x\n-say("hi")\n-go-now\n+done\n y'),
    );
    expect(out.lines).toEqual(["x", "done", "y"]);
    expect(out.hunks[0]).toMatchObject({ match_mode: "fuzzy", rung: "unicode" });
  });

  it("deletes lines without context whose whitespace differs per line", () => {
    const out = apply(["    foo   ", "   bar\t", "baz"], codex("@@\n-foo\n-bar"));
    expect(out.lines).toEqual(["baz"]);
  });

  it("refuses when a trimmed comparison finds two places", () => {
    const e = refusal(() =>
      apply(["  foo ", "bar", " foo", "  bar"], codex("@@\n-foo\n-bar\n+baz")),
    );
    expect(e.code).toBe("ambiguous");
  });
});

describe("a header a few lines off", () => {
  const filler = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => `line ${from + i}`);
  const block = ["function close() {", "  stream.end();", "}"];
  const patch = (line: number) =>
    `--- a/t.js\n+++ b/t.js\n@@ -${line},3 +${line},3 @@\n function close() {\n-  stream.end();\n+  stream.destroy();\n }\n`;

  it("takes the one copy near it when every other copy is far away, as git does", () => {
    // The file grew 5 lines above the hunk since the diff was made; another copy sits 400 lines on.
    const file = [...filler(1, 45), ...block, ...filler(49, 400), ...block];
    const out = apply(file, patch(41));
    expect(out.lines[46]).toBe("  stream.destroy();");
    expect(out.lines.at(-2)).toBe("  stream.end();");
    expect(out.hunks[0]).toMatchObject({ line: 46, chosen_by: "header", other_lines: [449] });
  });

  it("refuses when the other copy is not far enough for a few lines to tell them apart", () => {
    const file = [...filler(1, 45), ...block, ...filler(49, 30), ...block];
    const e = refusal(() => apply(file, patch(41)));
    expect(e.code).toBe("ambiguous");
    expect(e.lines).toEqual([46, 79]);
  });
});
