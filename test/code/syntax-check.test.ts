import { describe, expect, it } from "vitest";
import { languageOf, parseCode } from "../../src/code/languages.js";
import {
  checkEdit,
  checkEditAsync,
  introducedProblems,
  syntaxProblems,
} from "../../src/code/syntax-check.js";
import { parseDocument } from "../../src/text/document.js";
import { FIXTURES } from "./fixtures.js";

const problems = (file: string, source: string) =>
  syntaxProblems(parseCode(languageOf(file)!, source).root());

describe.each(Object.entries(FIXTURES))("syntax check in %s", (_name, fx) => {
  it("parses the fixture cleanly", () => {
    expect(problems(fx.file, fx.source)).toEqual([]);
  });

  it("warns about an edit that breaks the syntax", () => {
    const after = fx.source.replace(fx.broken.oldText, fx.broken.newText);
    expect(after).not.toBe(fx.source);
    const warning = checkEdit(fx.file, parseDocument(fx.source), parseDocument(after));
    expect(warning).toMatch(
      /^Syntax check \(.+\): the edit introduces parse errors the file did not have — line \d+/,
    );
  });

  it("says nothing about an edit that parses", () => {
    const after = `${fx.source}\n`;
    expect(checkEdit(fx.file, parseDocument(fx.source), parseDocument(after))).toBeUndefined();
  });
});

describe("checkEditAsync", () => {
  // Each fixture, broken and clean, short and long: the pool parse's warning
  // is the one a parse on the main thread gives, word for word.
  it.each(Object.entries(FIXTURES))("warns in %s as checkEdit does", async (_name, fx) => {
    for (const source of [fx.source, `${fx.source}${"\n".repeat(8192)}`]) {
      const before = parseDocument(source);
      for (const after of [source.replace(fx.broken.oldText, fx.broken.newText), `${source}\n`]) {
        const next = parseDocument(after);
        const pool = await checkEditAsync(fx.file, before, next);
        expect(pool).toBe(checkEdit(fx.file, before, next));
        expect(pool === undefined).toBe(after === `${source}\n`);
      }
    }
  });
});

describe("introducedProblems", () => {
  const broken = "function f() {\n  g(;\n}\n";

  it("names a missing token and an unexpected one", () => {
    expect(problems("a.ts", "function f() {\n  if (x) {\n    g();\n}\n")).toEqual([
      { line: 4, column: 2, endLine: 4, kind: "missing", text: "}" },
    ]);
    expect(problems("a.ts", "const x = 1\nconst y = \n")[0]).toMatchObject({
      kind: "error",
      line: 2,
    });
  });

  it("does not blame an edit for an error that was already there, or only moved", () => {
    const before = parseDocument(broken);
    const after = parseDocument(`// header\n\n${broken}const ok = 1;\n`);
    expect(checkEdit("a.ts", before, after)).toBeUndefined();
  });

  it("blames an edit for a new error next to an old one", () => {
    const before = parseDocument(broken);
    const after = parseDocument(`${broken}const y = ;\n`);
    expect(checkEdit("a.ts", before, after)).toMatch(/line 4:\d+: unexpected "="/);
  });

  it("does not blame an edit for an old error the parser now reads differently", () => {
    // Line 1's error node was "const = =" from column 1; after the edit it is "= = ;" from column 7.
    const before = parseDocument("const = = ;\nconsole.log(1)\n");
    expect(checkEdit("a.ts", before, parseDocument("const = = ;\nx\n"))).toBeUndefined();
    // An old error that now reaches into the edited line is the edit's doing.
    expect(checkEdit("a.ts", before, parseDocument("const = = ;\n}\n"))).toMatch(
      /line 1:1: unexpected "const = = ;"/,
    );
  });

  it("does not blame an edit inside an already broken place", () => {
    const a = problems("a.ts", broken);
    const b = problems("a.ts", "function f() {\n  g(1;\n}\n");
    expect(
      introducedProblems(a, b, broken.split("\n"), "function f() {\n  g(1;\n}\n".split("\n")),
    ).toEqual([]);
  });

  it("checks created files, skips unknown languages", () => {
    expect(checkEdit("new.ts", undefined, parseDocument("let = ;\n"))).toMatch(
      /Syntax check \(TypeScript\)/,
    );
    expect(checkEdit("notes.txt", undefined, parseDocument("let = ;\n"))).toBeUndefined();
  });
});
