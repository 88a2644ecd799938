import { describe, expect, it } from "vitest";
import { editDistance, nearest } from "../../src/cli/suggest.js";

describe("editDistance", () => {
  it.each([
    ["list", "list", 0],
    ["lsit", "list", 1], // one swap, not two substitutions
    ["lst", "list", 1],
    ["lisst", "list", 1],
    ["hsitory", "history", 1],
    ["serch", "search", 1],
    ["apply", "check", 5],
    ["", "json", 4],
  ])("%s -> %s is %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe("nearest", () => {
  const flags = ["list", "path", "root", "json", "help"];

  it("names the known word within two edits", () => {
    expect(nearest("lsit", flags)).toBe("list");
    expect(nearest("pth", flags)).toBe("path");
    expect(nearest("jsno", flags)).toBe("json");
  });

  it("names a word the typed one starts", () => {
    expect(nearest("allow", ["apply", "allow-overwrite"])).toBe("allow-overwrite");
    expect(nearest("app", ["apply", "check"])).toBe("apply");
  });

  it("prefers the nearer word, then the one listed first", () => {
    expect(nearest("lis", ["last", "list"])).toBe("list");
    expect(nearest("over", ["oxen", "overwrite"])).toBe("overwrite"); // a prefix beats two edits
    expect(nearest("ab", ["ax", "ay"])).toBe("ax");
  });

  it("names nothing when every word is far, or the typed one is too short to tell", () => {
    expect(nearest("frobnicate", flags)).toBeUndefined();
    expect(nearest("x", flags)).toBeUndefined();
    expect(nearest("zz", ["ab"])).toBeUndefined();
  });
});
