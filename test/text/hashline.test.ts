import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDocument } from "../../src/text/document.js";
import {
  bytesTag,
  documentTag,
  header,
  looksLikeHashline,
  parseTag,
  renderHashline,
  stripNumberedPrefixes,
  TAG_PATTERN,
  tagOf,
} from "../../src/text/hashline.js";

const numbered = (count: number) =>
  parseDocument(Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n"));

const docLines = fc.array(
  fc.string().map((s) => s.replace(/[\r\n]/g, "")),
  { maxLength: 20 },
);

describe("tagOf and documentTag", () => {
  it("is 4 uppercase hex characters, the same on every call", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const tag = tagOf(text);
        expect(tag).toMatch(/^[0-9A-F]{4}$/);
        expect(TAG_PATTERN.test(tag)).toBe(true);
        expect(tagOf(text)).toBe(tag);
      }),
    );
  });

  it("is the first 4 hex of the SHA-256 of the normalized text", () => {
    expect(tagOf("")).toBe("E3B0");
    expect(tagOf("a\n")).toBe("8742");
    expect(documentTag(parseDocument("a\nb\n"))).toBe("9111");
    expect(documentTag(parseDocument("a\nb"))).toBe("7E18");
  });

  it("gives CRLF, mixed and BOM versions the tag of the LF version", () => {
    fc.assert(
      fc.property(
        docLines,
        fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
        fc.boolean(),
        fc.boolean(),
        (lines, crlf, bom, finalNewline) => {
          const join = (eol: (i: number) => string) =>
            lines.map((l, i) => l + (i < lines.length - 1 || finalNewline ? eol(i) : "")).join("");
          const lf = join(() => "\n");
          const styled = (bom ? "\uFEFF" : "") + join((i) => (crlf[i] ? "\r\n" : "\n"));
          expect(documentTag(parseDocument(styled))).toBe(documentTag(parseDocument(lf)));
          expect(documentTag(parseDocument(lf))).toBe(tagOf(lf));
        },
      ),
    );
  });

  it("changes with the content, including the final newline", () => {
    expect(documentTag(parseDocument("a\nb"))).not.toBe(documentTag(parseDocument("a\nb\n")));
    expect(documentTag(parseDocument("\uFEFFa\r\nb\r\n"))).toBe("9111");
  });
});

describe("parseTag", () => {
  it("accepts a1b2, #A1B2 and surrounding whitespace, normalized to uppercase", () => {
    expect(parseTag("a1b2")).toBe("A1B2");
    expect(parseTag("#A1B2")).toBe("A1B2");
    expect(parseTag("#a1B2")).toBe("A1B2");
    expect(parseTag("  #ffff \n")).toBe("FFFF");
    expect(parseTag("0000")).toBe("0000");
  });

  it("refuses anything else", () => {
    for (const bad of [
      "",
      "#",
      "a1b",
      "a1b2c",
      "g1b2",
      "##a1b2",
      "a1 b2",
      "#a1b2#",
      "¶a#a1b2",
      "0x12",
    ]) {
      expect(parseTag(bad)).toBeUndefined();
    }
  });

  it("accepts every tag tagOf makes", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const tag = tagOf(text);
        expect(parseTag(tag)).toBe(tag);
        expect(parseTag(`#${tag.toLowerCase()}`)).toBe(tag);
      }),
    );
  });
});

describe("renderHashline", () => {
  it("renders the header and 1-based numbered lines", () => {
    const doc = parseDocument("first\n\n  indented\r\nlast");
    const rendered = renderHashline(doc, "src/a.ts", "AB12");
    expect(header("src/a.ts", "AB12")).toBe("¶src/a.ts#AB12");
    expect(rendered.content).toBe("¶src/a.ts#AB12\n1| first\n2| \n3|   indented\n4| last");
    expect(rendered.shown).toEqual([1, 4]);
    expect(rendered.notices).toEqual([]);
    expect(rendered.truncatedLines).toEqual([]);
  });

  it("shows a start/end range and says so", () => {
    const rendered = renderHashline(numbered(10), "f", "0000", { start: 3, end: 5 });
    expect(rendered.content).toBe(
      "¶f#0000\n3| line 3\n4| line 4\n5| line 5\n[showing lines 3..5 of 10]",
    );
    expect(rendered.shown).toEqual([3, 5]);
    expect(renderHashline(numbered(10), "f", "0000", { start: 8 }).notices).toEqual([
      "[showing lines 8..10 of 10]",
    ]);
    expect(renderHashline(numbered(10), "f", "0000", { end: 50 }).shown).toEqual([1, 10]);
  });

  it("caps output at 2,000 lines and names the exact line_range to read next", () => {
    const doc = numbered(2500);
    const first = renderHashline(doc, "big.txt", "ABCD");
    expect(first.shown).toEqual([1, 2000]);
    expect(first.content.split("\n")).toHaveLength(1 + 1 + 2000 + 1);
    expect(first.content.split("\n")[1]).toBe(
      "[lines 1..2000 of 2500 shown; the last line says how to read on]",
    );
    expect(first.content.split("\n")[2001]).toBe("2000| line 2000");
    expect(first.notices).toEqual([
      '[showing lines 1..2000 of 2500; read the rest with line_range "2001..2500"]',
    ]);
    const rest = renderHashline(doc, "big.txt", "ABCD", { start: 2001 });
    expect(rest.shown).toEqual([2001, 2500]);
    expect(rest.notices).toEqual(["[showing lines 2001..2500 of 2500]"]);
  });

  it("names only the next 2,000 lines when more remain", () => {
    expect(renderHashline(numbered(5000), "f", "0000").notices).toEqual([
      '[showing lines 1..2000 of 5000; read the rest with line_range "2001..4000"]',
    ]);
    expect(
      renderHashline(numbered(100), "f", "0000", { start: 5, end: 40, maxLines: 10 }).notices,
    ).toEqual(['[showing lines 5..14 of 100; read the rest with line_range "15..24"]']);
    expect(
      renderHashline(numbered(100), "f", "0000", { start: 5, end: 18, maxLines: 10 }).notices,
    ).toEqual(['[showing lines 5..14 of 100; read the rest with line_range "15..18"]']);
  });

  it("cuts long lines and says which ones", () => {
    const doc = parseDocument(`short\n${"x".repeat(25)}\nok\n${"y".repeat(11)}`);
    const rendered = renderHashline(doc, "f", "0000", { maxLineLength: 10 });
    expect(rendered.content.split("\n")).toEqual([
      "¶f#0000",
      "1| short",
      `2| ${"x".repeat(10)}`,
      "3| ok",
      `4| ${"y".repeat(10)}`,
      "[lines 2, 4 cut at 10 characters; search the file to see their full text]",
    ]);
    expect(rendered.truncatedLines).toEqual([2, 4]);
  });

  it("lists at most ten cut lines", () => {
    const doc = parseDocument(Array.from({ length: 13 }, () => "z".repeat(5)).join("\n"));
    expect(renderHashline(doc, "f", "0000", { maxLineLength: 3 }).notices).toEqual([
      "[lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 3 more cut at 3 characters; search the file to see their full text]",
    ]);
  });

  it("says when the file is empty", () => {
    const rendered = renderHashline(parseDocument(""), "empty.txt", "E3B0");
    expect(rendered.content).toBe("¶empty.txt#E3B0\n[empty file]");
    expect(rendered.shown).toEqual([0, 0]);
    expect(rendered.notices).toEqual(["[empty file]"]);
    expect(renderHashline(parseDocument("\uFEFF"), "bom.txt", "E3B0").notices).toEqual([
      "[empty file]",
    ]);
  });

  it("every line after the header is a numbered line or a bracketed notice, and stripping gives the file back", () => {
    fc.assert(
      fc.property(docLines, fc.integer({ min: 1, max: 25 }), (lines, maxLines) => {
        const doc = parseDocument(lines.join("\n"));
        const rendered = renderHashline(doc, "p", "0000", { maxLines });
        const [head, ...rest] = rendered.content.split("\n");
        expect(head).toBe("¶p#0000");
        const body = rest.filter((l) => !/^\[.*\]$/.test(l));
        // A read cut short says so first too, beside its notices.
        const cut = rendered.shown[1] < doc.lines.length ? 1 : 0;
        expect(rest.length - body.length).toBe(rendered.notices.length + cut);
        const [from, to] = rendered.shown;
        if (body.length > 0)
          expect(stripNumberedPrefixes(body)).toEqual(doc.lines.slice(from - 1, to));
        expect(looksLikeHashline(rendered.content)).toBe(true);
      }),
    );
  });
});

describe("stripNumberedPrefixes", () => {
  it("strips N| prefixes that count up by one", () => {
    expect(stripNumberedPrefixes(["5| a", "6|   b", "7| ", "8|", "9|c"])).toEqual([
      "a",
      "  b",
      "",
      "",
      "c",
    ]);
    expect(stripNumberedPrefixes(["120| x"])).toEqual(["x"]);
  });

  it("keeps the lines when numbers skip, go down, or a line has no prefix", () => {
    expect(stripNumberedPrefixes(["5| a", "7| b"])).toBeUndefined();
    expect(stripNumberedPrefixes(["5| a", "4| b"])).toBeUndefined();
    expect(stripNumberedPrefixes(["5| a", "b"])).toBeUndefined();
    expect(stripNumberedPrefixes([" 5| a"])).toBeUndefined();
    expect(stripNumberedPrefixes(["x5| a"])).toBeUndefined();
    expect(stripNumberedPrefixes(["a | b"])).toBeUndefined();
    expect(stripNumberedPrefixes([])).toBeUndefined();
  });
});

describe("looksLikeHashline", () => {
  it("recognizes read output, also with CRLF and notices", () => {
    const rendered = renderHashline(numbered(3), "src/x.ts", "A1B2").content;
    expect(looksLikeHashline(rendered)).toBe(true);
    expect(looksLikeHashline(rendered.replaceAll("\n", "\r\n"))).toBe(true);
    expect(looksLikeHashline("¶src/x.ts#a1b2")).toBe(true);
    expect(looksLikeHashline("¶a.txt#E3B0\n[empty file]")).toBe(true);
    expect(looksLikeHashline("¶a.txt#E3B0\n4| x\n5| y\n[showing lines 4..5 of 9]\n")).toBe(true);
  });

  it("refuses plain text and broken read output", () => {
    expect(looksLikeHashline("1| a\n2| b")).toBe(false);
    expect(looksLikeHashline("const x = 1;\n")).toBe(false);
    expect(looksLikeHashline("¶src/x.ts\n1| a")).toBe(false);
    expect(looksLikeHashline("¶src/x.ts#A1B\n1| a")).toBe(false);
    expect(looksLikeHashline("¶src/x.ts#A1B2\n1| a\nplain")).toBe(false);
    expect(looksLikeHashline("¶src/x.ts#A1B2\n1| a\n3| c")).toBe(false);
    expect(looksLikeHashline("")).toBe(false);
  });
});

describe("line truncation", () => {
  it("never cuts a surrogate pair in half", () => {
    const doc = parseDocument(`${"a".repeat(9)}😀tail\n`);
    const out = renderHashline(doc, "e.txt", "A1B2", { maxLineLength: 10 }).content;
    expect(out.split("\n")[1]).toBe(`1| ${"a".repeat(9)}`);
  });
});

describe("bytesTag", () => {
  it("equals the tag of the parsed document, for any BOM, CR and LF placement", () => {
    const text = fc.stringMatching(/^(\uFEFF|\r|\n|\r\n|a|é|日)*$/, { maxLength: 30 });
    fc.assert(
      fc.property(text, (t) => {
        expect(bytesTag(Buffer.from(t, "utf8"))).toBe(documentTag(parseDocument(t)));
      }),
      { numRuns: 3000 },
    );
  });
});
