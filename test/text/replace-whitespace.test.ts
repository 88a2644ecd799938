import { describe, expect, it } from "vitest";
import { whitespaceOnly } from "../../src/text/replace/whitespace.js";
import { replaceText } from "../../src/text/replace.js";

const L = (...lines: string[]) => `${lines.join("\n")}\n`;
const FILE = L("function f() {", "  if (x) {", "        return 'ViewTransition';", "  }", "}");
const RET = "return 'ViewTransition';";

describe("whitespace-only edits", () => {
  it("tells whitespace-only edits apart", () => {
    expect(whitespaceOnly("  a b", " a  b")).toBe(true);
    expect(whitespaceOnly("a\nb", "a b")).toBe(true);
    expect(whitespaceOnly("a", "a")).toBe(false);
    expect(whitespaceOnly("a b", "a c")).toBe(false);
  });

  it("the file already holds new_text: unchanged, and it says so (not re-indented to 7 spaces)", () => {
    const r = replaceText(FILE, {
      oldText: ` ${" ".repeat(8)}${RET}`,
      newText: `${" ".repeat(8)}${RET}`,
    });
    expect(r).toEqual({
      ok: true,
      text: FILE,
      mode: "exact",
      rung: "exact",
      score: 1,
      count: 0,
      matchedText: `${" ".repeat(8)}${RET}`,
      matchedLines: [[3, 3]],
      firstChangedLine: 0,
      warnings: [
        "old_text and new_text differ only in whitespace, and the file already has new_text exactly at line 3; nothing was changed.",
      ],
    });
  });

  it("neither version is in the file: refused, naming the file's indentation", () => {
    const r = replaceText(FILE, {
      oldText: `${" ".repeat(9)}${RET}`,
      newText: `${" ".repeat(10)}${RET}`,
    });
    expect(r).toEqual({
      ok: false,
      code: "not_found",
      message:
        "old_text and new_text differ only in whitespace, so only an exact match can place them, and old_text is not in the file exactly: line 3 has 8 spaces of indentation, old_text has 9 spaces. Read those lines again and copy their whitespace exactly into old_text.",
    });
  });

  it("names trailing whitespace the same way", () => {
    const file = L("const a = 1;  ", "const b = 2;");
    const r = replaceText(file, {
      oldText: "const a = 1;\t\nconst b = 2;\n",
      newText: "const a = 1;\nconst b = 2;\n",
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toContain(
      "line 1 ends with 2 spaces of trailing whitespace, old_text with 1 tab",
    );
  });

  it("a whole-block re-indent the file does not have is refused, not shifted", () => {
    const file = L("  if (x) {", "    go();", "  }");
    const r = replaceText(file, {
      oldText: L("    if (x) {", "      go();", "    }"),
      newText: L("      if (x) {", "        go();", "      }"),
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe("not_found");
    expect(r.message).toContain("line 1 has 2 spaces of indentation, old_text has 4 spaces");
  });

  it("an exact whitespace-only edit still applies", () => {
    const r = replaceText(FILE, { oldText: `${" ".repeat(8)}${RET}`, newText: `    ${RET}` });
    expect(r.ok && r.text).toBe(L("function f() {", "  if (x) {", `    ${RET}`, "  }", "}"));
  });

  it("a whitespace-only edit found nowhere is refused with the closest region", () => {
    const r = replaceText(FILE, {
      oldText: "  totally   different();",
      newText: "  totally different();",
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe("not_found");
    expect(r.message).toMatch(/^old_text and new_text differ only in whitespace/);
  });
});
