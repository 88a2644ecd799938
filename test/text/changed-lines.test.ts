import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { changedLines } from "../../src/text/changed-lines.js";
import { unifiedDiff } from "../../src/text/diff.js";

const view = (a: string[], b: string[], shown?: number, eol?: [boolean, boolean]) =>
  changedLines(
    unifiedDiff(a, b, {
      path: "p",
      ...(eol ? { oldFinalNewline: eol[0], newFinalNewline: eol[1] } : {}),
    }),
    shown,
  );

/** Rebuilds the new lines from the old ones and the view alone (every added line shown). */
function replay(old: string[], text: string): string[] {
  const out: string[] = [];
  let at = 0; // next old line (0-based) not yet copied
  for (const line of text === "" ? [] : text.split("\n")) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(line);
    if (m) {
      const removed = m[2] === undefined ? 1 : Number(m[2]);
      const start = removed === 0 ? Number(m[1]) : Number(m[1]) - 1;
      while (at < start) out.push(old[at++]!);
      at += removed;
      // The new side's first line is where the copy so far ends.
      const added = m[4] === undefined ? 1 : Number(m[4]);
      expect(added === 0 ? Number(m[3]) : Number(m[3]) - 1).toBe(out.length);
      continue;
    }
    const numbered = /^(\d+)\| (.*)$/s.exec(line);
    if (!numbered) throw new Error(`not a line of the view: ${line}`);
    expect(Number(numbered[1])).toBe(out.length + 1);
    out.push(numbered[2]!);
  }
  while (at < old.length) out.push(old[at++]!);
  return out;
}

describe("changedLines", () => {
  it("shows where each change landed and its new lines numbered, not context or removed lines", () => {
    const old = ["one", "two", "three", "four", "five", "six", "seven", "eight"];
    const now = ["one", "TWO", "TWO2", "three", "four", "six", "seven", "eight", "nine"];
    expect(view(old, now)).toBe(
      ["@@ -2 +2,2 @@", "2| TWO", "3| TWO2", "@@ -5 +5,0 @@", "@@ -8,0 +9 @@", "9| nine"].join(
        "\n",
      ),
    );
  });

  it("is empty for an empty diff", () => {
    expect(view(["a"], ["a"])).toBe("");
  });

  it("shows added lines up to the budget, then only where the later changes landed", () => {
    const now = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    expect(view([], now)).toBe(
      "@@ -0,0 +1,50 @@\n[added lines from line 1 on are not shown: read them to see them numbered]",
    );
    const old = ["a", "b", "c", "d", "e", "f", "g", "h"];
    const changed = ["A", "b", "c", "D1", "D2", "D3", "e", "f", "g", "H"];
    expect(view(old, changed, 2)).toBe(
      [
        "@@ -1 +1 @@",
        "1| A",
        "@@ -4 +4,3 @@",
        "[added lines from line 4 on are not shown: read them to see them numbered]",
        "@@ -8 +10 @@",
      ].join("\n"),
    );
  });

  it("reads a removed line that looks like a file header as a removed line", () => {
    const old = ["keep", "-- a/x", "++ b/x", "end"];
    expect(view(old, ["keep", "end"])).toBe("@@ -2,2 +1,0 @@");
  });

  it("says when only the final newline changed", () => {
    expect(view(["a", "b"], ["a", "b"], undefined, [true, false])).toBe(
      "@@ -2 +2 @@\n2| b\n[the final newline changed]",
    );
    expect(view(["a", "b"], ["a", "c"], undefined, [false, false])).toBe("@@ -2 +2 @@\n2| c");
  });

  it("keeps lines that are not hunks and names a second file", () => {
    const diff =
      "[the replaced content of p is not shown: it is not text]\n--- a/p\n+++ b/p\n@@ -1 +1 @@\n-a\n+b\n--- a/q\n+++ b/q\n@@ -0,0 +1 @@\n+c\n";
    expect(changedLines(diff)).toBe(
      "[the replaced content of p is not shown: it is not text]\n@@ -1 +1 @@\n1| b\n[q]\n@@ -0,0 +1 @@\n1| c",
    );
  });

  it("holds every change: the old lines and the view rebuild the new lines exactly", () => {
    const line = fc.constantFrom("a", "b", "c", "", "-- a/x", "+", " d");
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.array(line, { maxLength: 30 }), (a, b) => {
        expect(replay(a, view(a, b, Number.POSITIVE_INFINITY))).toEqual(b);
      }),
      { numRuns: 500 },
    );
  });
});
