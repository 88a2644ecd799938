import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Document,
  decodeText,
  documentFromBytes,
  documentToBytes,
  isCanonical,
  lineEndingStyle,
  normalizedText,
  parseDocument,
  renderDocument,
  restyle,
  withLines,
} from "../../src/text/document.js";
import { changedBytes, reparseDocument } from "../../src/text/document-bytes.js";

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

  it("gives the same normalized text whether it kept the parsed text or joins the lines", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab\r\n\uFEFF]{0,12}$/), (text) => {
        const doc = parseDocument(text);
        const rebuilt = { ...doc }; // a new object: nothing kept, so the lines are joined
        expect(normalizedText(doc)).toBe(normalizedText(rebuilt));
      }),
    );
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

  it("keeps a changed line's own terminator when it replaces one line", () => {
    const crlf = parseDocument("a\r\nb\r\nx = 1\nc\r\nd\r\n");
    expect(renderDocument(restyle(crlf, ["a", "b", "x = 2", "c", "d"], true))).toBe(
      "a\r\nb\r\nx = 2\nc\r\nd\r\n",
    );
    const lf = parseDocument("a\nb\nx = 1\r\ny = 1\nc\n");
    expect(renderDocument(restyle(lf, ["a", "b", "x = 2", "y = 2", "c"], true))).toBe(
      "a\nb\nx = 2\r\ny = 2\nc\n",
    );
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

describe("reparseDocument", () => {
  const text = fc.stringMatching(/^(a|é|日|x\r|\r\n|\n|\uFEFF|\u0000)*$/, { maxLength: 40 });
  /** A new version: `prev` with a random slice replaced, as an outside change would. */
  const change = fc.tuple(text, text, fc.nat(), fc.nat()).map(([prev, insert, a, b]) => {
    const from = a % (prev.length + 1);
    const to = from + (b % (prev.length - from + 1));
    return [prev, prev.slice(0, from) + insert + prev.slice(to)] as const;
  });

  it("gives exactly what a full parse gives", () => {
    fc.assert(
      fc.property(change, ([prevText, nextText]) => {
        const prevBytes = bytes(prevText);
        const prev = documentFromBytes(prevBytes);
        fc.pre(!("kind" in prev));
        const next = bytes(nextText);
        expect(reparseDocument(prevBytes, prev as Document, next)).toEqual(documentFromBytes(next));
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps the unchanged lines as the same strings and refuses a change that makes it binary", () => {
    const prevBytes = bytes(`${"line one\n".repeat(3)}middle\n${"tail\n".repeat(3)}`);
    const prev = documentFromBytes(prevBytes) as Document;
    const next = reparseDocument(
      prevBytes,
      prev,
      bytes(`${"line one\n".repeat(3)}MIDDLE\r\n${"tail\n".repeat(3)}`),
    ) as Document;
    expect(next.lines).toEqual([...prev.lines.slice(0, 3), "MIDDLE", ...prev.lines.slice(4)]);
    expect(next.eols[3]).toBe("\r\n");
    expect(next.lines[6]).toBe(prev.lines[6]);
    expect(reparseDocument(prevBytes, prev, new Uint8Array([...prevBytes, 0]))).toMatchObject({
      kind: "binary",
    });
  });
});

describe("isCanonical", () => {
  it("is true exactly when parsing the document's text gives it back", () => {
    const line = fc.stringMatching(/^(a|\r|\uFEFF|é|\uD83D\uDE00|\uD800)*$/, { maxLength: 4 });
    const doc = fc
      .array(fc.tuple(line, fc.constantFrom("\n", "\r\n", "")), { maxLength: 5 })
      .chain((rows) =>
        fc.record({
          bom: fc.boolean(),
          eol: fc.constantFrom("\n" as const, "\r\n" as const),
          lines: fc.constant(rows.map(([l]) => l)),
          eols: fc.constant(rows.map(([, e]) => e)),
        }),
      );
    fc.assert(
      fc.property(doc, (d) => {
        const again = documentFromBytes(documentToBytes(d)) as Document;
        const fields = (x: Document) => JSON.stringify([x.bom, x.eol, x.lines, x.eols]);
        const same = fields(again) === fields(d);
        expect(isCanonical(d)).toBe(same);
      }),
      { numRuns: 5000 },
    );
  });
});
