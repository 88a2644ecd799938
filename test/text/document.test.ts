import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  changedBytes,
  decodeText,
  documentFromBytes,
  documentToBytes,
  lineEndingStyle,
  normalizedText,
  parseDocument,
  renderDocument,
  restyle,
  withLines,
} from "../../src/text/document.js";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("parseDocument", () => {
  it("round-trips LF, CRLF, mixed, BOM and a missing final newline", () => {
    for (const text of ["a\nb\n", "a\r\nb\r\n", "a\r\nb\nc", "\uFEFFx\r\ny", "", "\n", "one"]) {
      expect(renderDocument(parseDocument(text))).toBe(text);
    }
  });

  it("records the dominant line ending and the style", () => {
    const doc = parseDocument("a\r\nb\r\nc\n");
    expect(doc.eol).toBe("\r\n");
    expect(lineEndingStyle(doc)).toBe("mixed");
    expect(lineEndingStyle(parseDocument("a"))).toBe("none");
  });

  it("normalizes BOM and CRLF away for the tag text", () => {
    expect(normalizedText(parseDocument("\uFEFFa\r\nb\r\n"))).toBe("a\nb\n");
    expect(normalizedText(parseDocument("a\r\nb"))).toBe("a\nb");
  });
});

describe("decodeText", () => {
  it("refuses NUL bytes and invalid UTF-8 instead of replacing them", () => {
    expect(decodeText(new Uint8Array([104, 0, 105]))).toMatchObject({ kind: "binary" });
    expect(decodeText(new Uint8Array([0xc3, 0x28]))).toMatchObject({ kind: "binary" });
    expect(decodeText(bytes("héllo"))).toBe("héllo");
  });

  it("keeps bytes exact through a document round trip", () => {
    const raw = bytes("\uFEFFline 1\r\nline 2\nlast");
    const doc = documentFromBytes(raw);
    if ("kind" in doc) throw new Error("expected text");
    expect(documentToBytes(doc)).toEqual(raw);
  });
});

describe("withLines", () => {
  it("gives new lines the dominant ending and keeps a missing final newline missing", () => {
    const original = parseDocument("a\r\nb");
    const next = withLines(original, ["a", "new", "b"], ["\r\n", undefined, ""]);
    expect(renderDocument(next)).toBe("a\r\nnew\r\nb");
  });
});

describe("restyle", () => {
  it("keeps untouched terminators, gives new lines the dominant one, and sets the final newline", () => {
    const original = parseDocument("a\r\nb\nc\r\nd");
    const next = restyle(original, ["a", "B", "new", "c", "d"], false);
    expect(renderDocument(next)).toBe("a\r\nB\r\nnew\r\nc\r\nd");
    expect(renderDocument(restyle(original, ["a", "b", "c", "d"], true))).toBe(
      "a\r\nb\nc\r\nd\r\n",
    );
    expect(renderDocument(restyle(parseDocument(""), ["x"], true))).toBe("x\n");
  });
});

describe("changedBytes (property)", () => {
  it("equals rendering the whole new document", () => {
    const line = fc.string({ unit: fc.constantFrom("a", "é", " ", "\t", "😀"), maxLength: 5 });
    const eol = fc.constantFrom("\n", "\r\n");
    const doc = fc
      .record({
        lines: fc.array(fc.tuple(line, eol), { maxLength: 12 }),
        bom: fc.boolean(),
        last: fc.option(line),
      })
      .map(
        ({ lines, bom, last }) =>
          (bom ? "\uFEFF" : "") + lines.map(([l, e]) => l + e).join("") + (last ?? ""),
      );
    fc.assert(
      fc.property(doc, doc, (a, b) => {
        const prev = parseDocument(a);
        const next = parseDocument(b);
        next.bom = prev.bom;
        const expected = documentToBytes(next);
        expect(Buffer.from(changedBytes(documentToBytes(prev), prev, next))).toEqual(
          Buffer.from(expected),
        );
      }),
      { numRuns: 500 },
    );
  });
});
