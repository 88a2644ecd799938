import { describe, expect, it } from "vitest";
import { scheduleWaves } from "../../src/toolkit/schedule.js";

const r = (...reads: string[]) => ({ reads, writes: [] });
const w = (...writes: string[]) => ({ reads: [], writes });

describe("scheduleWaves", () => {
  it("runs reads side by side", () => {
    expect(scheduleWaves([r("a"), r("b"), r("a")])).toEqual([[0, 1, 2]]);
  });

  it("runs writes to different files side by side, and the same file in order", () => {
    expect(scheduleWaves([w("a"), w("b"), w("a"), r("a")])).toEqual([[0, 1], [2], [3]]);
  });

  it("orders a read after an earlier write of the same file, but not unrelated calls", () => {
    expect(scheduleWaves([w("src/a.ts"), r("src/a.ts"), r("b.ts")])).toEqual([[0, 2], [1]]);
  });

  it("treats a folder as overlapping everything inside it", () => {
    expect(scheduleWaves([r("src"), w("src/a.ts"), w("srcx/a.ts")])).toEqual([[0, 2], [1]]);
    expect(scheduleWaves([r(""), w("x")])).toEqual([[0], [1]]);
  });

  it("runs a command (which may touch anything) alone, in order", () => {
    expect(scheduleWaves([r("a"), w("*"), r("b")])).toEqual([[0], [1], [2]]);
  });
});
