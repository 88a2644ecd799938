import { diffArrays } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffLines, type LineRun } from "../../src/text/myers.js";

/** Replays `runs` on `a`, taking added lines from `b` in order; throws when they do not fit. */
function replay(a: readonly string[], b: readonly string[], runs: LineRun[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  for (const run of runs) {
    if (!(run.count > 0)) throw new Error(`empty run ${JSON.stringify(run)}`);
    if (run.tag === " ") {
      for (let c = 0; c < run.count; c++) {
        if (a[i] !== b[j]) throw new Error(`kept line ${i} differs from new line ${j}`);
        out.push(a[i++]!);
        j++;
      }
    } else if (run.tag === "-") i += run.count;
    else for (let c = 0; c < run.count; c++) out.push(b[j++]!);
  }
  if (i !== a.length) throw new Error(`runs cover ${i} of ${a.length} old lines`);
  return out;
}

const edits = (runs: LineRun[]) => runs.reduce((sum, r) => sum + (r.tag === " " ? 0 : r.count), 0);

/** Lines from a small alphabet, so that most lines repeat and the diff has choices to make. */
const lines = fc.array(fc.constantFrom("a", "b", "c", "d", "{", "}", ""), { maxLength: 40 });

describe("diffLines", () => {
  it("turns a into b with as few edits as jsdiff finds, and never two changes in a row unmerged", () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const runs = diffLines(a, b, 1000)!;
        expect(replay(a, b, runs)).toEqual(b);
        const theirs = diffArrays(a, b).reduce(
          (s, c) => s + (c.added || c.removed ? c.count! : 0),
          0,
        );
        expect(edits(runs)).toBe(theirs);
        for (let k = 1; k < runs.length; k++) {
          const [p, q] = [runs[k - 1]!.tag, runs[k]!.tag];
          // Neighbours differ, and a stretch of changes is its removals, then its additions.
          expect(p === q || (p === "+" && q === "-")).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("gives up exactly when the shortest diff needs more edits than the limit", () => {
    fc.assert(
      fc.property(lines, lines, fc.integer({ min: 0, max: 30 }), (a, b, limit) => {
        const full = edits(diffLines(a, b, 1000)!);
        const capped = diffLines(a, b, limit);
        if (full <= limit) expect(capped && edits(capped)).toBe(full);
        else expect(capped).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it("diffs a 200,000-line file with a few changes far apart", () => {
    const a = Array.from({ length: 200_000 }, (_, i) => `line ${i}`);
    const b = [...a];
    b[10] = "changed";
    b.splice(150_000, 2);
    b.splice(199_000, 0, "added");
    const runs = diffLines(a, b, 4000)!;
    expect(replay(a, b, runs)).toEqual(b);
    expect(edits(runs)).toBe(5);
  });

  it("keeps removals before additions inside one changed stretch", () => {
    expect(diffLines(["x", "a", "y"], ["x", "b", "y"], 10)).toEqual([
      { tag: " ", count: 1 },
      { tag: "-", count: 1 },
      { tag: "+", count: 1 },
      { tag: " ", count: 1 },
    ]);
    expect(diffLines([], [], 10)).toEqual([]);
    expect(diffLines(["a"], [], 0)).toBeUndefined();
  });
});
