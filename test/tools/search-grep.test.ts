/**
 * grep's lines, from a far side without rg, read as rg's messages: with
 * --null (GNU, BSD) and one file at a time without it (busybox), context
 * lines and names that hold colons and dashes.
 */
import { describe, expect, it } from "vitest";
import type { RgMessage } from "../../src/proc/ripgrep.js";
import { searchDecoder } from "../../src/tools/search/remote.js";

const query = { pattern: "needle", fixed: true, ignoreCase: false };

function decode(lines: string[]): RgMessage[] {
  const decoder = searchDecoder(query);
  return [...lines.flatMap((l) => decoder.line(l)), ...decoder.end()];
}

const shape = (messages: RgMessage[]) =>
  messages.map((m) =>
    m.type === "match" || m.type === "context"
      ? `${m.type} ${m.data.path.text}:${m.data.line_number}:${m.data.lines.text}`
      : `${m.type} ${(m.data as { path: { text: string } }).path.text}`,
  );

describe("grep's lines as rg's messages", () => {
  it("reads names ended by NUL, with context lines and group separators", () => {
    const messages = decode([
      "splice-grep null",
      "./a:b-1.ts\u00001-before",
      "./a:b-1.ts\u00002:the needle",
      "--",
      "./c.ts\u00009:needle",
    ]);
    expect(shape(messages)).toEqual([
      "begin ./a:b-1.ts",
      "context ./a:b-1.ts:1:before\n",
      "match ./a:b-1.ts:2:the needle\n",
      "end ./a:b-1.ts",
      "begin ./c.ts",
      "match ./c.ts:9:needle\n",
      "end ./c.ts",
    ]);
    // The match's place, for the window a long line is cut to.
    expect(messages[2]).toMatchObject({ data: { submatches: [{ start: 4, end: 10 }] } });
  });

  it("reads one file at a time, each after its name, without --null", () => {
    const messages = decode([
      "splice-grep each",
      "F./x:12:y-3-z.txt",
      "2-before",
      "3:needle: 4: here",
      "F./z.ts",
      "1:needle",
    ]);
    expect(shape(messages)).toEqual([
      "begin ./x:12:y-3-z.txt",
      "context ./x:12:y-3-z.txt:2:before\n",
      "match ./x:12:y-3-z.txt:3:needle: 4: here\n",
      "end ./x:12:y-3-z.txt",
      "begin ./z.ts",
      "match ./z.ts:1:needle\n",
      "end ./z.ts",
    ]);
  });

  it("passes rg's own JSON lines through when rg ran", () => {
    const begin = { type: "begin", data: { path: { text: "./a" } } };
    expect(decode([JSON.stringify(begin), ""])).toEqual([begin]);
  });
});
