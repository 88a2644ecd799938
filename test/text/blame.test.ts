import { describe, expect, it } from "vitest";
import { overlappingSteps } from "../../src/text/blame.js";

const L = (s: string) => s.split(" ");

describe("overlappingSteps", () => {
  it("names only the later steps that touched the change's lines", () => {
    // The change: line 1 v0 -> v1. Then line 1 again, line 5, line 3, line 1.
    const steps = [
      { from: L("v1 b c d e"), to: L("v2 b c d e") },
      { from: L("v2 b c d e"), to: L("v2 b c d E") },
      { from: L("v2 b c d E"), to: L("v2 b C d E") },
    ];
    expect(overlappingSteps(L("v0 b c d e"), L("v1 b c d e"), steps)).toEqual([true, false, false]);
  });

  it("follows the change's lines as later insertions above them move them down", () => {
    const steps = [
      { from: L("a X c"), to: L("n1 n2 a X c") },
      { from: L("n1 n2 a X c"), to: L("n1 n2 a Y c") },
    ];
    expect(overlappingSteps(L("a b c"), L("a X c"), steps)).toEqual([false, true]);
  });

  it("counts an insertion at the point where the change deleted a line, and not one beside it", () => {
    const before = L("a b c d");
    const after = L("a c d");
    expect(overlappingSteps(before, after, [{ from: after, to: L("a N c d") }])).toEqual([true]);
    expect(overlappingSteps(before, after, [{ from: after, to: L("a c N d") }])).toEqual([false]);
  });

  it("keeps following a span that a later step grew over", () => {
    const steps = [
      { from: L("a X c d"), to: L("a Y Z c d") },
      { from: L("a Y Z c d"), to: L("a Y W c d") },
      { from: L("a Y W c d"), to: L("a Y W c D") },
    ];
    expect(overlappingSteps(L("a b c d"), L("a X c d"), steps)).toEqual([true, true, false]);
  });
});
