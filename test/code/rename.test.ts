import { describe, expect, it } from "vitest";
import { languageOf, parseCode } from "../../src/code/languages.js";
import { isIdentifier, renameReplacements } from "../../src/code/rename.js";
import { applyReplacements } from "../../src/code/rewrite.js";
import { FIXTURES } from "./fixtures.js";

function rename(file: string, source: string, from: string, to: string): string {
  const root = parseCode(languageOf(file)!, source).root();
  return applyReplacements(source, renameReplacements(root, from, to));
}

describe.each(Object.entries(FIXTURES))("rename in %s", (_name, fx) => {
  const result = rename(fx.file, fx.source, fx.rename.from, fx.rename.to);
  const lines = result.split("\n");

  it("renames the identifier where it is code", () => {
    for (const line of fx.rename.expect) {
      expect(lines.some((l) => l.includes(line))).toBe(true);
    }
  });

  it("leaves strings, comments and longer names alone", () => {
    for (const text of fx.rename.keep) expect(result).toContain(text);
  });
});

describe("rename", () => {
  it("renames members, JSX and template substitutions, not template text", () => {
    const source = `const n = 1;\nconst s = \`n is \${n}\`;\nobj.n = <A n={n} />;\n`;
    expect(rename("a.tsx", source, "n", "count")).toBe(
      `const count = 1;\nconst s = \`n is \${count}\`;\nobj.count = <A count={count} />;\n`,
    );
  });

  it("knows what an identifier is", () => {
    expect(isIdentifier("parse_config2")).toBe(true);
    expect(isIdentifier("$el")).toBe(true);
    expect(isIdentifier("2fast")).toBe(false);
    expect(isIdentifier("a.b")).toBe(false);
    expect(isIdentifier("")).toBe(false);
  });
});
