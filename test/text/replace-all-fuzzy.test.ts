import { describe, expect, it } from "vitest";
import { replaceText } from "../../src/text/replace.js";

const L = (...lines: string[]) => `${lines.join("\n")}\n`;

// The payload seen in the issue: the same call at 4 spaces in a method and at 2 in a function.
const FILE = L(
  "class Client {",
  "  async close() {",
  "    if (this.timer) {",
  "      clearTimeout(this.timer);",
  "    }",
  "  }",
  "}",
  "",
  "function stop(state) {",
  "  if (this.timer) {",
  "    clearTimeout(this.timer);",
  "  }",
  "}",
);
const OLD = L("if (this.timer) {", "  clearTimeout(this.timer);", "}");
const NEW = L("if (this.timer) {", "  clearTimeout(this.timer);", "  this.timer = undefined;", "}");

describe("replace_all whose quote matched only fuzzily", () => {
  it("refuses places indented differently, naming each and how", () => {
    const r = replaceText(FILE, { oldText: OLD, newText: NEW, replaceAll: true });
    expect(r).toEqual({
      ok: false,
      code: "ambiguous",
      message:
        "old_text has no exact match, and ignoring indentation it matches 2 places, but not all the same way (lines 3..5 indented 4 spaces deeper, lines 10..12 indented 2 spaces deeper), so one new_text cannot be written at every place. Nothing was changed. Quote each place exactly as the file has it and edit them one at a time, or quote one of them exactly and set replace_all to change only the places that read exactly like it.",
    });
  });

  it("writes every place when all matched the same way, each re-indented alike", () => {
    const both = FILE.replace("function stop(state) {\n  if", "function stop(state) {\n  {\n  if")
      .replace(
        "    clearTimeout(this.timer);\n  }\n}",
        "      clearTimeout(this.timer);\n    }\n  }\n}",
      )
      .replace("  {\n  if (this.timer) {", "  {\n    if (this.timer) {");
    const r = replaceText(both, { oldText: OLD, newText: NEW, replaceAll: true });
    if (!r.ok) throw new Error(r.message);
    expect(r.count).toBe(2);
    expect(r.text.match(/^ {6}this\.timer = undefined;$/gm)).toHaveLength(2);
    expect(r.warnings).toContain("Replaced all 2 places that match ignoring indentation.");
  });

  it("still writes both places exactly when the quote is exact", () => {
    const r = replaceText(FILE, {
      oldText: "clearTimeout(this.timer);",
      newText: "clearTimeout(this.timer!);",
      replaceAll: true,
    });
    expect(r).toMatchObject({ ok: true, count: 2, mode: "exact" });
  });
});
