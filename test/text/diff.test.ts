import fc from "fast-check";
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

describe("merge3 (property)", () => {
  it("applies both sides' changes when they touch separate places, or refuses; never a wrong merge", () => {
    // Lines repeat on purpose: a diff may then attribute a change to another
    // copy of the same line. That may cost a (safe) conflict, never content.
    const line = fc.constantFrom("}", "", "a", "b", "return x;", "  {");
    const replacement = (side: string) =>
      fc
        .array(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 3 })
        .map((xs) => xs.map((x) => `${side} ${x}`));
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 6, maxLength: 60 }),
        fc.nat(),
        fc.nat(),
        replacement("ours"),
        replacement("theirs"),
        (base, p, q, mine, other) => {
          const i = p % (base.length - 4);
          const j = i + 3 + (q % (base.length - i - 3));
          const ours = [...base.slice(0, i), ...mine, ...base.slice(i + 1)];
          const theirs = [...base.slice(0, j), ...other, ...base.slice(j + 1)];
          const expected = [
            ...base.slice(0, i),
            ...mine,
            ...base.slice(i + 1, j),
            ...other,
            ...base.slice(j + 1),
          ];
          const result = merge3(base, ours, theirs);
          if (result.clean) expect(result.lines).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("merges changes in separate places of distinct lines cleanly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 6, max: 80 }), fc.nat(), fc.nat(), (n, p, q) => {
        const base = Array.from({ length: n }, (_, k) => `line ${k}`);
        const i = p % (n - 4);
        const j = i + 3 + (q % (n - i - 3));
        const ours = [...base.slice(0, i), "ours", ...base.slice(i + 1)];
        const theirs = [...base.slice(0, j), ...base.slice(j + 1)];
        const expected = [
          ...base.slice(0, i),
          "ours",
          ...base.slice(i + 1, j),
          ...base.slice(j + 1),
        ];
        expect(merge3(base, ours, theirs)).toEqual({ clean: true, lines: expected });
      }),
      { numRuns: 300 },
    );
  });

  it("merges edits far apart in a long file of repeated lines", () => {
    const base = Array.from({ length: 40_000 }, (_, i) => (i % 4 === 0 ? "}" : `x${i % 50}`));
    const ours = [...base];
    ours[39_990] = "ours";
    const theirs = [...base];
    theirs[10] = "theirs";
    const result = merge3(base, ours, theirs);
    expect(result.clean && [result.lines[10], result.lines[39_990]]).toEqual(["theirs", "ours"]);
  });
});
