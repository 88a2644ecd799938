/**
 * Random text in each encoding, random line edits: the bytes of the lines an
 * edit leaves alone are the original bytes, and the result decodes to the
 * expected text. Pure: Documents and bytes, no disk.
 */
import fc from "fast-check";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { documentFromBytes, hasFinalNewline, restyle } from "../../src/text/document.js";
import { changedBytes } from "../../src/text/document-bytes.js";
import type { Encoding } from "../../src/text/encoding.js";

/** Characters each encoding holds, with the awkward ones: 0x5C trail bytes, 4-byte GB18030, surrogate pairs. */
const ALPHABETS: Record<Encoding, string> = {
  "windows-1252": "ab é€ŒüßÀç‰\\\t",
  "iso-8859-1": "ab éüßÀçÿ\\\t",
  "iso-8859-15": "ab €éŒŽ\\",
  shift_jis: "ab 日本語ソ表能ｱ\\",
  cp932: "ab 日本①髙ソ\\",
  "euc-jp": "ab 日本語かな\\",
  "euc-kr": "ab 한국어\\",
  gbk: "ab 中文汉字\\",
  gb18030: "ab 中文😀\\",
  big5: "ab 中文國語功\\",
  "utf-16le": "ab é日😀\\\n",
  "utf-16be": "ab é日😀\\",
};

const lineOf = (alphabet: string) =>
  fc
    .array(fc.constantFrom(...Array.from(alphabet).filter((c) => c !== "\n")), { maxLength: 12 })
    .map((chars) => chars.join(""));

const encode = (text: string, encoding: Encoding) =>
  iconv.encode(text, encoding, { addBOM: false });

describe.each(Object.keys(ALPHABETS) as Encoding[])("%s", (encoding) => {
  const bom = encoding.startsWith("utf-16");
  const line = lineOf(ALPHABETS[encoding]);
  const file = fc.record({
    lines: fc.array(line, { minLength: 1, maxLength: 12 }),
    eols: fc.array(fc.constantFrom("\n", "\r\n"), { minLength: 12, maxLength: 12 }),
    finalNewline: fc.boolean(),
  });
  const edit = fc.record({
    at: fc.nat(),
    drop: fc.nat({ max: 3 }),
    add: fc.array(line, { maxLength: 3 }),
  });

  it("keeps the bytes of untouched lines and decodes to the edited text", () => {
    fc.assert(
      fc.property(file, edit, (f, e) => {
        // Each line made unique: with two equal lines, which one an edit "kept" is a matter of choice.
        const lines = f.lines.map((l, i) => `${l}#${i}`);
        const add = e.add.map((l, i) => `${l}+${i}`);
        const { eols, finalNewline } = f;
        const { at, drop } = e;
        const eolOf = (i: number) => (i === lines.length - 1 && !finalNewline ? "" : eols[i]!);
        const chunks = lines.map((l, i) => encode(l + eolOf(i), encoding));
        const head = bom ? encode("\uFEFF", encoding) : Buffer.alloc(0);
        const bytes = Buffer.concat([head, ...chunks]);
        const prev = documentFromBytes(bytes, encoding);
        if ("kind" in prev) throw new Error(prev.reason);
        expect(prev.encoding).toBe(encoding);
        expect(prev.bom).toBe(bom);

        const start = at % (lines.length + 1);
        const end = Math.min(lines.length, start + drop);
        const newLines = [...lines.slice(0, start), ...add, ...lines.slice(end)];
        const next = restyle(prev, newLines, hasFinalNewline(prev) || prev.lines.length === 0);
        const out = Buffer.from(changedBytes(bytes, prev, next));

        // Untouched lines: the very bytes they had (a line that becomes the last
        // one without a final newline loses its terminator, so it is not untouched).
        const lastLoses = end === lines.length && add.length === 0 && !finalNewline;
        const kept = Math.max(0, lastLoses ? start - 1 : start);
        const before = Buffer.concat([head, ...chunks.slice(0, kept)]);
        expect(out.subarray(0, before.length).equals(before)).toBe(true);
        if (end < lines.length) {
          const after = Buffer.concat(chunks.slice(end));
          expect(out.subarray(out.length - after.length).equals(after)).toBe(true);
        }
        // And the whole decodes to the edited text, in the same encoding.
        const text = newLines.map((l, i) => l + next.eols[i]).join("");
        const decoded = iconv.decode(out, encoding, { stripBOM: false });
        expect(decoded).toBe((bom ? "\uFEFF" : "") + text);
        expect(documentFromBytes(out, encoding)).not.toHaveProperty("kind");
      }),
      { numRuns: 150 },
    );
  });
});
