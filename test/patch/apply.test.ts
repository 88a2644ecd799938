import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyHunks } from "../../src/patch/apply.js";
import { HunkError } from "../../src/patch/errors.js";
import { parsePatch } from "../../src/patch/parse.js";
import type { UpdateFile } from "../../src/patch/types.js";
import { unifiedDiff } from "../../src/text/diff.js";

const lines = (n: number, prefix = "line") =>
  Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

function hunksOf(patch: string) {
  return (parsePatch(patch).files[0] as UpdateFile).hunks;
}

function apply(file: string[], patch: string, finalNewline = true) {
  return applyHunks({ lines: file, finalNewline }, hunksOf(patch), "f.txt");
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

describe("applying hunks", () => {
  it("applies at the stated line and keeps where every untouched line came from", () => {
    const out = apply(
      lines(6),
      "--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n line 2\n-line 3\n+LINE 3\n line 4\n",
    );
    expect(out.lines).toEqual(["line 1", "line 2", "LINE 3", "line 4", "line 5", "line 6"]);
    expect(out.origin).toEqual([0, 1, -1, 3, 4, 5]);
    expect(out.hunks[0]).toMatchObject({ old_start: 2, line: 2, offset: 0, match_mode: "exact" });
  });

  it("lands drifted hunks by content and reports the offset", () => {
    const file = ["added 1", "added 2", "added 3", ...lines(20)];
    const out = apply(
      file,
      "--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n line 2\n-line 3\n+LINE 3\n line 4\n@@ -15,3 +15,4 @@\n line 15\n line 16\n+line 16.5\n line 17\n",
    );
    expect(out.hunks.map((h) => [h.old_start, h.line, h.offset])).toEqual([
      [2, 5, 3],
      [15, 18, 3],
    ]);
    expect(out.lines[5]).toBe("LINE 3");
    expect(out.lines[19]).toBe("line 16.5");
  });

  it("matches re-indented code with the fuzzy ladder and says so", () => {
    const file = ["class A {", "    run() {", "      go();", "    }", "}"];
    const out = apply(
      file,
      "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n   run() {\n-    go();\n+    stop();\n   }\n",
    );
    expect(out.lines[2]).toBe("      stop();");
    expect(out.hunks[0]).toMatchObject({ match_mode: "fuzzy", rung: "indentation", line: 2 });
    expect(out.warnings.join("\n")).toContain("ignoring indentation");
  });

  it("places a hunk whose edge context line is misremembered by its changed lines, keeping the file's line", () => {
    // Like GNU patch's fuzz, but only for one clear region whose changed lines match exactly.
    const file = [
      "export function parse(input: string): Node {",
      "  const tokens = tokenize(input);",
      "  return build(tokens);",
      "}",
      ...lines(20),
    ];
    const patch =
      "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n export function parse(inptu: string): Node {\n-  const tokens = tokenize(input);\n+  const tokens = tokenize(input.trim());\n   return build(tokens);\n";
    const out = apply(file, patch);
    expect(out.lines.slice(0, 3)).toEqual([
      "export function parse(input: string): Node {",
      "  const tokens = tokenize(input.trim());",
      "  return build(tokens);",
    ]);
    expect(out.hunks[0]).toMatchObject({ match_mode: "delta", line: 1 });
  });

  it("refuses a misremembered hunk when the line it changes differs from the file", () => {
    // The changed line is at the quote's edge, so no anchored match covers it either.
    const file = [
      "export function compute(a: number): number {",
      "  return a * 2;",
      "}",
      ...lines(5),
    ];
    const e = refusal(() =>
      apply(
        file,
        "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n-export function compute(a: nmber): number {\n+export function compute(a: bigint): bigint {\n   return a * 2;\n }\n",
      ),
    );
    expect(e.code).toBe("not_found");
  });

  it("refuses an ambiguous hunk, naming it and the candidate lines", () => {
    const file = ["a", "x", "b", "a", "x", "b"];
    const e = refusal(() => apply(file, "--- a/f\n+++ b/f\n@@ -10,3 +10,3 @@\n a\n-x\n+y\n b\n"));
    expect(e.code).toBe("ambiguous");
    expect(e.lines).toEqual([1, 4]);
    expect(e.message).toContain(
      "f.txt: hunk 1 (@@ -10,3 +10,3 @@, patch line 3) matches 2 places (lines 1, 4)",
    );
    expect(e.message).toContain("Nothing was applied.");
  });

  it("refuses a hunk that is not there, pointing at the closest lines", () => {
    const e = refusal(() =>
      apply(
        lines(30),
        "--- a/f\n+++ b/f\n@@ -10,3 +10,3 @@\n line 9\n-line ten\n+line X\n line 11\n",
      ),
    );
    expect(e.code).toBe("not_found");
    expect(e.message).toMatch(
      /its old lines are not in the file \(the patch says line 10\)\. The closest lines are 9\.\.11/,
    );
  });

  it("searches after the previous hunk, so a later repeat is not ambiguous", () => {
    const file = ["fn a() {", "  body", "}", "fn b() {", "  body", "}"];
    const out = apply(
      file,
      "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n fn a() {\n-  body\n+  A\n }\n@@ -4,3 +4,3 @@\n fn b() {\n-  body\n+  B\n }\n",
    );
    expect(out.lines).toEqual(["fn a() {", "  A", "}", "fn b() {", "  B", "}"]);
  });

  it("finds a Codex hunk inside its @@ anchor's block", () => {
    const file = [
      "def a():",
      "    x = 1",
      "    return x",
      "",
      "def b():",
      "    x = 1",
      "    return x",
    ];
    const patch =
      "*** Begin Patch\n*** Update File: f.py\n@@ def b():\n-    x = 1\n+    x = 2\n*** End Patch";
    const out = apply(file, patch);
    expect(out.lines[5]).toBe("    x = 2");
    expect(out.lines[1]).toBe("    x = 1");
    const unanchored =
      "*** Begin Patch\n*** Update File: f.py\n@@\n-    x = 1\n+    x = 2\n*** End Patch";
    expect(refusal(() => apply(file, unanchored)).code).toBe("ambiguous");
    const missing =
      "*** Begin Patch\n*** Update File: f.py\n@@ def c():\n-    x = 1\n+    x = 2\n*** End Patch";
    expect(refusal(() => apply(file, missing)).message).toContain('no line reads "def c():"');
  });

  it("appends a Codex pure addition at the end, or after its anchor", () => {
    const end = apply(["a", "b"], "*** Begin Patch\n*** Update File: f\n@@\n+c\n*** End Patch");
    expect(end.lines).toEqual(["a", "b", "c"]);
    const after = apply(
      ["a", "b"],
      "*** Begin Patch\n*** Update File: f\n@@ a\n+a2\n*** End Patch",
    );
    expect(after.lines).toEqual(["a", "a2", "b"]);
  });

  it("places a zero-context unified hunk by its number, with a warning", () => {
    const out = apply(lines(3), "--- a/f\n+++ b/f\n@@ -1,0 +2,1 @@\n+inserted\n");
    expect(out.lines).toEqual(["line 1", "inserted", "line 2", "line 3"]);
    expect(out.hunks[0]).toMatchObject({ match_mode: "position", line: 2, offset: 0 });
    expect(out.warnings[0]).toContain("placed by its line number");
  });

  it("keeps a missing final newline unless the patch's markers change it", () => {
    const kept = apply(["a", "b"], "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n", false);
    expect(kept.finalNewline).toBe(false);
    const added = apply(
      ["a", "b"],
      "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
      false,
    );
    expect(added.finalNewline).toBe(true);
    const removed = apply(
      ["a", "b"],
      "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n",
    );
    expect(removed.finalNewline).toBe(false);
  });

  it("*** End of File pins a hunk to the last lines", () => {
    const out = apply(
      ["x", "end", "x", "end"],
      "*** Begin Patch\n*** Update File: f\n@@\n x\n-end\n+END\n*** End of File\n*** End Patch",
    );
    expect(out.lines).toEqual(["x", "end", "x", "END"]);
  });

  it("refuses a hunk pinned to the end whose lines are only elsewhere, saying where", () => {
    const codex = refusal(() =>
      apply(
        ["x", "y", "z"],
        "*** Begin Patch\n*** Update File: f\n@@\n x\n-y\n+Y\n*** End of File\n*** End Patch",
      ),
    );
    expect(codex.code).toBe("not_found");
    expect(codex.message).toBe(
      'f.txt: hunk 1 (@@, patch line 3) has "*** End of File", but its old lines are not the last lines of the file (they are at line 1 of 3). Nothing was applied. Read the end of the file again and rebuild the hunk from its last lines, or remove that marker if the change is not at the end.',
    );
    const unified = refusal(() =>
      apply(
        ["x", "y", "z"],
        "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+Y\n",
        false,
      ),
    );
    expect(unified.message).toContain(
      'has "\\ No newline at end of file" after its old lines, but its old lines are not the last lines',
    );
    // Tolerant matching still applies at the end.
    const fuzzy = apply(
      ["a", "  end  "],
      "*** Begin Patch\n*** Update File: f\n@@\n-end\n+END\n*** End of File\n*** End Patch",
    );
    expect(fuzzy.lines).toEqual(["a", "  END"]);
  });
});

describe("applying hunks (properties)", () => {
  const line = fc.constantFrom("a", "b", "c", "{", "}", "", "  x = 1;", "return;");
  const file = fc.array(line, { maxLength: 30 });

  it("a diff of two versions applies back exactly, or is refused — never a wrong result", () => {
    fc.assert(
      fc.property(file, file, fc.boolean(), (before, after, drift) => {
        const diff = unifiedDiff(before, after, { path: "f" });
        fc.pre(diff !== "");
        // Into an empty file there is no context: a drifted copy cannot place it.
        fc.pre(!drift || before.length > 0);
        const base = drift ? ["drift 1", "drift 2", ...before] : before;
        const expected = drift ? ["drift 1", "drift 2", ...after] : after;
        try {
          const out = applyHunks({ lines: base, finalNewline: true }, hunksOf(diff), "f");
          expect(out.lines).toEqual(expected);
        } catch (error) {
          if (!(error instanceof HunkError)) throw error;
          expect(["ambiguous"]).toContain(error.code);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("with distinct lines every diff applies, drifted or not", () => {
    const unique = fc
      .uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 25 })
      .map((ns) => ns.map((n) => `line ${n}`));
    fc.assert(
      fc.property(unique, unique, fc.nat(5), (before, after, shift) => {
        const diff = unifiedDiff(before, after, { path: "f" });
        fc.pre(diff !== "");
        fc.pre(shift === 0 || before.length > 0);
        const pad = Array.from({ length: shift }, (_, i) => `pad ${i}`);
        const out = applyHunks(
          { lines: [...pad, ...before], finalNewline: true },
          hunksOf(diff),
          "f",
        );
        expect(out.lines).toEqual([...pad, ...after]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("sizes", () => {
  it("applies a hunk that adds more lines than a call takes arguments", () => {
    const added = lines(300_000, "new").map((l) => `+${l}`);
    const patch = [
      "--- a/f",
      "+++ b/f",
      "@@ -1,2 +1,300002 @@",
      " line 1",
      ...added,
      " line 2",
      "",
    ];
    const out = apply(lines(2), patch.join("\n"));
    expect(out.lines).toHaveLength(300_002);
    expect(out.lines[1]).toBe("new 1");
    expect(out.lines.at(-1)).toBe("line 2");
  });
});
