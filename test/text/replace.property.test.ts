import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { trimWs } from "../../src/text/match/normalize.js";
import { whitespaceOnly } from "../../src/text/replace/whitespace.js";
import { replaceText } from "../../src/text/replace.js";

const CODES = ["not_found", "ambiguous", "suspicious", "invalid_input"];

describe("replaceText properties", () => {
  it("an exact unique old_text always applies and changes nothing outside its span", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "c", "d", " ", "\n", "{", "}", "$") });
    fc.assert(
      fc.property(
        text,
        fc.nat(),
        fc.nat(),
        fc.string({ unit: fc.constantFrom("x", "y", "$", "&", "1", "\n", " ") }),
        (t, i, j, newText) => {
          if (t.length === 0) return;
          const a = i % t.length;
          const b = a + 1 + (j % (t.length - a));
          const oldText = t.slice(a, b);
          fc.pre(t.indexOf(oldText) === a && t.indexOf(oldText, a + 1) === -1);
          fc.pre(oldText !== newText);
          const r = replaceText(t, { oldText, newText });
          expect(r).toMatchObject({ ok: true, mode: "exact", rung: "exact", count: 1, score: 1 });
          if (!r.ok) return;
          expect(r.text).toBe(t.slice(0, a) + newText + t.slice(b));
          expect(r.text.startsWith(t.slice(0, a))).toBe(true);
          expect(r.text.endsWith(t.slice(b))).toBe(true);
          expect(r.matchedText).toBe(oldText);
        },
      ),
      { numRuns: 500 },
    );
  });

  // Lines of "code": an indentation level and a statement, or a blank line.
  const WORDS = ["foo();", "bar(x);", "}", "if (y) {", "return z;", "let q = 1;", "// note"];
  const line = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(fc.nat(3), fc.constantFrom(...WORDS)).map(([d, w]) => "  ".repeat(d) + w),
    },
    { weight: 1, arbitrary: fc.constant("") },
  );
  const shift = (lines: string[], by: string) => lines.map((l) => (l === "" ? l : by + l));
  const windowsEqual = (file: string[], s: number, m: number) => {
    let n = 0;
    for (let w = 0; w + m <= file.length; w++) {
      let same = true;
      for (let k = 0; k < m && same; k++) same = trimWs(file[w + k]!) === trimWs(file[s + k]!);
      if (same) n++;
    }
    return n;
  };

  it("a re-indented (uniformly shifted) quote of a unique span applies like the exact edit", () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        fc.array(line, { maxLength: 8 }),
        fc.constantFrom("  ", "    ", "\t", " "),
        (file, i, j, newSpan, by) => {
          const s = i % file.length;
          const m = 1 + (j % Math.min(8, file.length - s));
          const span = file.slice(s, s + m);
          fc.pre(span.some((l) => l !== ""));
          fc.pre(windowsEqual(file, s, m) === 1);
          const text = `${file.join("\n")}\n`;
          const oldText = `${shift(span, by).join("\n")}\n`;
          const newText = newSpan.length === 0 ? "" : `${shift(newSpan, by).join("\n")}\n`;
          fc.pre(!text.includes(oldText));
          fc.pre(newSpan.join("\n") !== span.join("\n"));
          // Whitespace-only edits are for the exact rung alone (replace-whitespace.test.ts).
          fc.pre(!whitespaceOnly(oldText, newText));
          const expected = [...file.slice(0, s), ...newSpan, ...file.slice(s + m)];
          const r = replaceText(text, { oldText, newText });
          expect(r).toMatchObject({ ok: true, rung: "indentation", mode: "fuzzy" });
          if (!r.ok) return;
          expect(r.text).toBe(expected.length === 0 ? "" : `${expected.join("\n")}\n`);
          expect(r.matchedLines).toEqual([[s + 1, s + m]]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("never throws: any strings give a match or a coded refusal", () => {
    const unit = fc.constantFrom(
      "a",
      "b",
      " ",
      "\t",
      "\n",
      "\r",
      "\r\n",
      "\\",
      '"',
      "'",
      "\u201C",
      "\u2014",
      "\u00A0",
      "\uFEFF",
      "{",
      "}",
      "$&",
    );
    const str = fc.oneof(
      fc.string({ unit, maxLength: 60 }),
      fc.string({ maxLength: 30 }),
      fc.string({ unit: "binary", maxLength: 20 }),
    );
    fc.assert(
      fc.property(str, str, str, fc.boolean(), (text, oldText, newText, replaceAll) => {
        const r = replaceText(text, { oldText, newText, replaceAll });
        if (r.ok && r.count === 0) {
          // Already applied (the file holds new_text where old_text differs only in whitespace):
          // nothing changes, and a warning says so.
          expect(r.text).toBe(text);
          expect(r.warnings.join(" ")).toMatch(/nothing was changed/);
        } else if (r.ok) {
          expect(typeof r.text).toBe("string");
          expect(r.count).toBeGreaterThanOrEqual(1);
        } else {
          expect(CODES).toContain(r.code);
          expect(r.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
