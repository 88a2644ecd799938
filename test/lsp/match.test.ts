import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  approximateLine,
  compareDiagnostics,
  isChangedLine,
  type LspDiagnostic,
  lineHunks,
  shiftLine,
} from "../../src/lsp/match.js";

const lines = (n: number, prefix = "line") =>
  Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);

const err = (
  line: number,
  message = "Type 'number' is not assignable to type 'string'.",
  code: string | number = 2322,
  column = 7,
): LspDiagnostic => ({
  file: "a.ts",
  line,
  column,
  severity: "error",
  code,
  message,
});

describe("lineHunks", () => {
  it("finds nothing between equal texts", () => {
    expect(lineHunks(lines(5), lines(5))).toEqual([]);
    expect(lineHunks([], [])).toEqual([]);
  });

  it("describes an insertion, a deletion and a replacement", () => {
    const before = lines(6);
    const inserted = [...before.slice(0, 2), "new", ...before.slice(2)];
    expect(lineHunks(before, inserted)).toEqual([
      { oldStart: 2, oldEnd: 2, newStart: 2, newEnd: 3 },
    ]);
    const deleted = [...before.slice(0, 3), ...before.slice(5)];
    expect(lineHunks(before, deleted)).toEqual([
      { oldStart: 3, oldEnd: 5, newStart: 3, newEnd: 3 },
    ]);
    const replaced = before.map((l, i) => (i === 4 ? "changed" : l));
    expect(lineHunks(before, replaced)).toEqual([
      { oldStart: 4, oldEnd: 5, newStart: 4, newEnd: 5 },
    ]);
  });

  it("keeps separate changes apart, in order", () => {
    const before = lines(20);
    const after = [...before];
    after.splice(15, 1, "x", "y");
    after.splice(3, 2);
    expect(lineHunks(before, after)).toEqual([
      { oldStart: 3, oldEnd: 5, newStart: 3, newEnd: 3 },
      { oldStart: 15, oldEnd: 16, newStart: 13, newEnd: 15 },
    ]);
  });

  it("handles a file created from nothing and one emptied", () => {
    expect(lineHunks([], ["a", "b"])).toEqual([{ oldStart: 0, oldEnd: 0, newStart: 0, newEnd: 2 }]);
    expect(lineHunks(["a", "b"], [])).toEqual([{ oldStart: 0, oldEnd: 2, newStart: 0, newEnd: 0 }]);
  });
});

describe("shiftLine", () => {
  it("leaves lines above a change alone and moves lines below it", () => {
    const before = lines(30);
    const after = [...before.slice(0, 10), ...lines(10, "added"), ...before.slice(10)];
    const hunks = lineHunks(before, after);
    expect(shiftLine(hunks, 10)).toBe(10);
    expect(shiftLine(hunks, 11)).toBe(21);
    expect(shiftLine(hunks, 30)).toBe(40);
  });

  it("counts an insertion right before a line as above it", () => {
    const before = lines(5);
    const after = ["head", ...before];
    const hunks = lineHunks(before, after);
    expect(shiftLine(hunks, 1)).toBe(2);
    expect(shiftLine(hunks, 5)).toBe(6);
  });

  it("says undefined for a replaced or deleted line", () => {
    const before = lines(10);
    const after = [...before.slice(0, 4), "rewritten", ...before.slice(7)];
    const hunks = lineHunks(before, after);
    for (const line of [5, 6, 7]) expect(shiftLine(hunks, line)).toBeUndefined();
    expect(shiftLine(hunks, 4)).toBe(4);
    expect(shiftLine(hunks, 8)).toBe(6);
  });

  it("sums the shifts of every change above a line", () => {
    const before = lines(40);
    const after = [...before];
    after.splice(30, 0, "a", "b", "c"); // +3 before old line 31
    after.splice(20, 5); // -5: old lines 21..25
    after.splice(2, 0, "z"); // +1 before old line 3
    const hunks = lineHunks(before, after);
    expect(shiftLine(hunks, 2)).toBe(2);
    expect(shiftLine(hunks, 3)).toBe(4);
    expect(shiftLine(hunks, 20)).toBe(21);
    expect(shiftLine(hunks, 23)).toBeUndefined();
    expect(shiftLine(hunks, 26)).toBe(22);
    expect(shiftLine(hunks, 31)).toBe(30);
    expect(shiftLine(hunks, 40)).toBe(39);
  });

  it("agrees with the lines' real new places for random inserts and deletes", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.array(
          fc.record({
            at: fc.nat(),
            remove: fc.integer({ min: 0, max: 4 }),
            add: fc.integer({ min: 0, max: 4 }),
          }),
          { maxLength: 8 },
        ),
        (n, ops) => {
          // Unique texts make the diff unambiguous; origin[i] is the old line a new line came from.
          const text: string[] = lines(n);
          const origin: (number | undefined)[] = text.map((_, i) => i + 1);
          let fresh = 0;
          for (const op of ops) {
            const at = text.length === 0 ? 0 : op.at % (text.length + 1);
            const added = Array.from({ length: op.add }, () => `new ${fresh++}`);
            text.splice(at, op.remove, ...added);
            origin.splice(at, op.remove, ...added.map(() => undefined));
          }
          const hunks = lineHunks(lines(n), text);
          const expected = new Map<number, number>();
          origin.forEach((old, i) => {
            if (old !== undefined) expected.set(old, i + 1);
          });
          for (let old = 1; old <= n; old++) {
            expect(shiftLine(hunks, old)).toBe(expected.get(old));
          }
          for (let line = 1; line <= text.length; line++) {
            expect(isChangedLine(hunks, line)).toBe(origin[line - 1] === undefined);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("approximateLine", () => {
  it("keeps the offset inside a rewritten block, clipped to the new block", () => {
    const before = lines(10);
    const after = [...before.slice(0, 3), "a", "b", ...before.slice(7)];
    const hunks = lineHunks(before, after);
    expect(approximateLine(hunks, 4)).toBe(4);
    expect(approximateLine(hunks, 5)).toBe(5);
    expect(approximateLine(hunks, 7)).toBe(5);
    expect(approximateLine(hunks, 9)).toBe(7);
  });

  it("points a deleted line at where the deletion was", () => {
    const before = lines(10);
    const after = [...before.slice(0, 3), ...before.slice(6)];
    expect(approximateLine(lineHunks(before, after), 5)).toBe(4);
  });
});

describe("compareDiagnostics", () => {
  it("sees an error that moved down 10 lines as neither introduced nor resolved", () => {
    const before = lines(20);
    const after = [...before.slice(0, 2), ...lines(10, "comment"), ...before.slice(2)];
    const delta = compareDiagnostics([err(15)], [err(25)], lineHunks(before, after));
    expect(delta).toEqual({ introduced: [], resolved: [], kept: 1 });
  });

  it("reports a new error as introduced and a vanished one as resolved", () => {
    const before = lines(10);
    const after = before.map((l, i) => (i === 3 ? "broken" : l));
    const hunks = lineHunks(before, after);
    expect(compareDiagnostics([], [err(4)], hunks).introduced).toEqual([err(4)]);
    expect(compareDiagnostics([err(4)], [], hunks).resolved).toEqual([err(4)]);
  });

  it("does not pair a moved line with an error of another code or message", () => {
    const before = lines(10);
    const after = ["top", ...before];
    const delta = compareDiagnostics(
      [err(5, "Cannot find name 'x'.", 2304)],
      [err(6, "Cannot find name 'y'.", 2304)],
      lineHunks(before, after),
    );
    expect(delta.introduced).toHaveLength(1);
    expect(delta.resolved).toHaveLength(1);
  });

  it("keeps the error of a line the edit rewrote without fixing", () => {
    const before = lines(10);
    const after = before.map((l, i) => (i === 4 ? `${l} // still wrong` : l));
    const delta = compareDiagnostics(
      [err(5)],
      [err(5, undefined, 2322, 9)],
      lineHunks(before, after),
    );
    expect(delta).toEqual({ introduced: [], resolved: [], kept: 1 });
  });

  it("keeps an error whose line was cut and pasted further down", () => {
    const before = lines(40);
    const after = [...before];
    const [moved] = after.splice(9, 1);
    after.splice(29, 0, moved!);
    const delta = compareDiagnostics([err(10)], [err(30)], lineHunks(before, after));
    expect(delta).toEqual({ introduced: [], resolved: [], kept: 1 });
  });

  it("of two equal errors, resolves the one whose line was fixed", () => {
    const before = lines(20);
    const after = before.map((l, i) => (i === 14 ? "fixed" : l));
    const delta = compareDiagnostics([err(5), err(15)], [err(5)], lineHunks(before, after));
    expect(delta.resolved).toEqual([err(15)]);
    expect(delta.introduced).toEqual([]);
  });

  it("introduces the copy on the new line when an equal error stays on its old one", () => {
    const before = lines(20);
    const after = [...before.slice(0, 10), "copy of line 5", ...before.slice(10)];
    const delta = compareDiagnostics([err(5)], [err(5), err(11)], lineHunks(before, after));
    expect(delta.introduced).toEqual([err(11)]);
    expect(delta.resolved).toEqual([]);
  });

  it("resolves an error on an untouched line that an edit elsewhere fixed", () => {
    const before = lines(20);
    const after = before.map((l, i) => (i === 0 ? "declare the missing name" : l));
    const missing = err(12, "Cannot find name 'helper'.", 2304);
    const delta = compareDiagnostics([missing], [], lineHunks(before, after));
    expect(delta.resolved).toEqual([missing]);
  });

  it("counts every error as introduced in a new file", () => {
    const delta = compareDiagnostics([], [err(1), err(2)], lineHunks([], ["a", "b"]));
    expect(delta.introduced).toHaveLength(2);
  });

  it("finds nothing new when unrelated lines move around errors (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 80 }),
        fc.uniqueArray(fc.nat(), { minLength: 1, maxLength: 6 }),
        fc.array(
          fc.record({ at: fc.nat(), add: fc.integer({ min: 0, max: 5 }), remove: fc.boolean() }),
          {
            maxLength: 6,
          },
        ),
        (n, picks, ops) => {
          const errorLines = new Set(picks.map((p) => (p % n) + 1));
          const text = lines(n);
          const origin: (number | undefined)[] = text.map((_, i) => i + 1);
          let fresh = 0;
          for (const op of ops) {
            const at = op.at % (text.length + 1);
            // Remove only lines without an error; add blank-ish lines anywhere.
            const removable = op.remove && at < text.length && !errorLines.has(origin[at] ?? -1);
            const added = Array.from({ length: op.add }, () => `pad ${fresh++}`);
            text.splice(at, removable ? 1 : 0, ...added);
            origin.splice(at, removable ? 1 : 0, ...added.map(() => undefined));
          }
          const before = [...errorLines].map((l) => err(l));
          const after = [...errorLines].map((l) => err(origin.indexOf(l) + 1));
          const delta = compareDiagnostics(before, after, lineHunks(lines(n), text));
          expect(delta.introduced).toEqual([]);
          expect(delta.resolved).toEqual([]);
          expect(delta.kept).toBe(before.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
