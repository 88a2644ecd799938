import { describe, expect, it } from "vitest";
import { MAX_TITLE_LENGTH, titleOf } from "../../../src/hosts/mcp/titles.js";
import { fullTools, minimalTools } from "../../../src/toolkit/index.js";

describe("titleOf", () => {
  it("keeps the whole first sentence, commas included", () => {
    expect(titleOf("Create, extend, rename or delete a whole file. Every change…", "file")).toBe(
      "Create, extend, rename or delete a whole file",
    );
  });

  it("ends at a colon or semicolon, not inside parentheses or code", () => {
    expect(titleOf("Rewrite code by its syntax, across files: each op…", "x")).toBe(
      "Rewrite code by its syntax, across files",
    );
    expect(titleOf("Run a shell command (`sh -c`; quoted) in the project. More.", "x")).toBe(
      "Run a shell command in the project",
    );
    expect(titleOf("Search for `a.b` and 1.5 in files. More.", "x")).toBe(
      "Search for `a.b` and 1.5 in files",
    );
  });

  it("drops asides and cuts a long sentence at its last clause that fits", () => {
    expect(
      titleOf(
        "List what a file defines — functions, classes — with their line ranges (and depth), nested by indentation, and much more text after that so it runs long.",
        "outline",
      ),
    ).toBe("List what a file defines with their line ranges, nested by indentation");
  });

  it("falls back to the name when the description gives no title", () => {
    expect(titleOf("", "read")).toBe("read");
    expect(titleOf("x".repeat(200), "read")).toBe("read");
  });

  it("gives every tool a title of whole words that fits", () => {
    for (const tool of [...fullTools, ...minimalTools]) {
      const title = titleOf(tool.description, tool.name);
      expect(title, tool.name).not.toBe(tool.name);
      expect(title.length, tool.name).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
      expect(tool.description.replace(/\s+/g, " "), tool.name).toContain(title.split(" ")[0]);
      expect(title, tool.name).not.toMatch(/[,(—]$/);
    }
  });
});
