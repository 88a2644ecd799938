import { describe, expect, it } from "vitest";
import { firstChangedLine, merge3, unifiedDiff } from "../../src/text/diff.js";

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

describe("unifiedDiff", () => {
  it("shows one hunk with three lines of context and real line numbers", () => {
    const before = lines(20);
    const after = [...before];
    after[9] = "changed";
    expect(unifiedDiff(before, after, { path: "f.txt" })).toBe(
      [
        "--- a/f.txt",
        "+++ b/f.txt",
        "@@ -7,7 +7,7 @@",
        " line 7",
        " line 8",
        " line 9",
        "-line 10",
        "+changed",
        " line 11",
        " line 12",
        " line 13",
        "",
      ].join("\n"),
    );
  });

  it("is empty when nothing changed", () => {
    expect(unifiedDiff(lines(5), lines(5), { path: "f" })).toBe("");
  });

  it("splits far-apart changes into separate hunks", () => {
    const after = lines(40);
    after[1] = "x";
    after[35] = "y";
    const diff = unifiedDiff(lines(40), after, { path: "f" });
    expect(diff.match(/^@@/gm)).toHaveLength(2);
    expect(diff).toContain("@@ -33,7 +33,7 @@");
  });

  it("marks a removed final newline git-style", () => {
    const diff = unifiedDiff(["a", "b"], ["a", "b"], {
      path: "f",
      oldFinalNewline: true,
      newFinalNewline: false,
    });
    expect(diff).toContain("-b\n+b\n\\ No newline at end of file\n");
  });

  it("shows insertion into an empty file", () => {
    expect(unifiedDiff([], ["a"], { path: "f" })).toContain("@@ -0,0 +1,1 @@\n+a\n");
  });

  it("is correct on 100k lines with one change", () => {
    const before = lines(100_000);
    const after = [...before];
    after[50_000] = "mid";
    const diff = unifiedDiff(before, after, { path: "big" });
    expect(diff).toContain("-line 50001\n+mid");
  });
});

describe("firstChangedLine", () => {
  it("finds the first differing line", () => {
    expect(firstChangedLine(["a", "b"], ["a", "c"])).toBe(2);
    expect(firstChangedLine(["a"], ["a"])).toBe(0);
    expect(firstChangedLine(["a", "b"], ["a"])).toBe(1);
  });
});

describe("merge3", () => {
  it("merges edits to different places", () => {
    const base = lines(30);
    const ours = [...base];
    ours[2] = "ours";
    const theirs = [...base];
    theirs.splice(20, 0, "inserted by someone else");
    const result = merge3(base, ours, theirs);
    expect(result).toEqual({ clean: true, lines: expect.any(Array) });
    if (!result.clean) return;
    expect(result.lines[2]).toBe("ours");
    expect(result.lines[20]).toBe("inserted by someone else");
    expect(result.lines).toHaveLength(31);
  });

  it("reports a conflict with the range in theirs", () => {
    const base = lines(10);
    const ours = [...base];
    ours[4] = "ours";
    const theirs = [...base];
    theirs[4] = "theirs";
    expect(merge3(base, ours, theirs)).toEqual({ clean: false, conflicts: [[5, 5]] });
  });

  it("treats the same change on both sides as clean", () => {
    const base = lines(5);
    const both = [...base];
    both[1] = "same";
    expect(merge3(base, both, both)).toEqual({ clean: true, lines: both });
  });
});
