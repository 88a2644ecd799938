import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DocError } from "../../src/formats/errors.js";
import { formatSelector, parseSelector } from "../../src/formats/selector.js";

describe("selectors", () => {
  it("reads dotted keys, indexes and quoted keys", () => {
    expect(parseSelector("scripts.test")).toEqual(["scripts", "test"]);
    expect(parseSelector("jobs.build.steps[2]")).toEqual(["jobs", "build", "steps", 2]);
    expect(parseSelector('"a.b".c')).toEqual(["a.b", "c"]);
    expect(parseSelector('exports["./charts"].types')).toEqual(["exports", "./charts", "types"]);
    expect(parseSelector("deps[-1]")).toEqual(["deps", -1]);
    expect(parseSelector("[0].name")).toEqual([0, "name"]);
    expect(parseSelector("'it''s'.x")).toEqual(["it's", "x"]);
    expect(parseSelector("dependencies.@types/node")).toEqual(["dependencies", "@types/node"]);
    expect(parseSelector("runs-on")).toEqual(["runs-on"]);
  });

  it("takes jq and JSONPath habits, and keeps keys that start with $", () => {
    expect(parseSelector("")).toEqual([]);
    expect(parseSelector("$")).toEqual([]);
    expect(parseSelector(".scripts")).toEqual(["scripts"]);
    expect(parseSelector("$.scripts.test")).toEqual(["scripts", "test"]);
    expect(parseSelector("$schema")).toEqual(["$schema"]);
  });

  it("refuses malformed selectors with the column and how to write one", () => {
    for (const [bad, column] of [
      ["a..b", 3],
      ["a.", 2],
      ["a[x]", 3],
      ["a[1", 2],
      ['"a', 1],
      ["a]b", 2],
    ] as const) {
      let error: unknown;
      try {
        parseSelector(bad);
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(DocError);
      expect((error as DocError).code).toBe("invalid_input");
      expect((error as DocError).details.column, bad).toBe(column);
      expect((error as DocError).message).toContain('"a.b".c');
    }
  });

  it("formats a path so that it parses back to the same path", () => {
    const segment = fc.oneof(
      fc.string({ minLength: 1, maxLength: 8 }),
      fc.constantFrom("a.b", "x[0]", "it's", '"q"', "$", " sp ", "0"),
      fc.integer({ min: -5, max: 50 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (path) => {
        expect(parseSelector(formatSelector(path))).toEqual(path);
      }),
    );
  });
});
