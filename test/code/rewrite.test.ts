import { describe, expect, it } from "vitest";
import { languageOf, parseCode } from "../../src/code/languages.js";
import {
  patternProblem,
  prepareOps,
  preprocessPattern,
  rewriteText,
} from "../../src/code/rewrite.js";
import { FIXTURES } from "./fixtures.js";

const rewrite = (file: string, text: string, ops: { pat: string; out: string }[]) =>
  rewriteText(languageOf(file)!, text, prepareOps(ops), () => false);

describe.each(Object.entries(FIXTURES))("ast rewrite in %s", (_name, fx) => {
  it("rewrites with $$$ captures", async () => {
    const result = await rewrite(fx.file, fx.source, [
      { pat: fx.astEdit.pat, out: fx.astEdit.out },
    ]);
    expect(result.counts).toEqual([fx.astEdit.matches]);
    expect(result.text.split("\n")).toContain(fx.astEdit.expect);
  });

  it("accepts the pattern in its language", () => {
    expect(patternProblem(languageOf(fx.file)!, fx.astEdit.pat)).toBeUndefined();
  });
});

describe("rewriteText", () => {
  it("applies ops in order, each on the result of the one before", async () => {
    const result = await rewrite("a.ts", "foo(1, 2);\n", [
      { pat: "foo($$$A)", out: "bar($$$A)" },
      { pat: "bar($A, $B)", out: "baz($B, $A)" },
    ]);
    expect(result).toMatchObject({ text: "baz(2, 1);\n", counts: [1, 1] });
  });

  it("matches a metavariable used twice only on identical text", async () => {
    const result = await rewrite("a.js", "a = a || 1;\nb = c || 1;\n", [
      { pat: "$X = $X || $D", out: "$X ??= $D" },
    ]);
    expect(result.text).toBe("a ??= 1;\nb = c || 1;\n");
  });

  it("keeps $$$ separators and rewrites overlapping matches once, outermost first", async () => {
    const result = await rewrite("a.ts", "f(f(1), 2);\n", [{ pat: "f($$$A)", out: "g($$$A)" }]);
    expect(result).toMatchObject({ text: "g(f(1), 2);\n", counts: [1] });
  });

  it("indents a multi-line replacement like the matched line", async () => {
    const source = "function x() {\n  old(1);\n}\n";
    const result = await rewrite("a.ts", source, [
      { pat: "old($A);", out: "if (ok) {\n  fresh($A);\n}" },
    ]);
    expect(result.text).toBe("function x() {\n  if (ok) {\n    fresh(1);\n  }\n}\n");
  });

  it("never touches strings or comments that look like the pattern", async () => {
    const source = 'const s = "foo(1)"; // foo(2)\nfoo(3);\n';
    const result = await rewrite("a.ts", source, [{ pat: "foo($A)", out: "bar($A)" }]);
    expect(result.text).toBe('const s = "foo(1)"; // foo(2)\nbar(3);\n');
  });

  it("does not parse a file that lacks a word of the pattern", async () => {
    const result = await rewrite("a.ts", "const x = 1;\n", [{ pat: "console.log($$$A)", out: "" }]);
    expect(result.counts).toEqual([0]);
    expect(result.root).toBeUndefined();
  });

  it("notes metavariables in out that the pattern does not capture", () => {
    const [op] = prepareOps([{ pat: "foo($A)", out: "bar($A, $B)" }]);
    expect(op!.unknown).toEqual(["B"]);
    expect(op!.words).toEqual(["foo"]);
  });
});

describe("patternProblem", () => {
  it("names a pattern that does not parse", () => {
    expect(patternProblem(languageOf("a.ts")!, "foo(")).toMatch(
      /^it does not parse as TypeScript \(syntax error at column 1/,
    );
    expect(patternProblem(languageOf("a.py")!, "def (")).toMatch(/does not parse as Python/);
  });

  it("refuses two statements and an empty pattern", () => {
    expect(patternProblem(languageOf("a.ts")!, "a; b")).toMatch(/Multiple AST nodes/);
    expect(patternProblem(languageOf("a.ts")!, "  ")).toBe("the pattern is empty");
  });

  it("uses ast-grep's stand-in for $ where $ is no identifier", () => {
    expect(preprocessPattern("f($A, $$$B, $$$)", "µ")).toBe("f(µA, µµµB, µµµ)");
    expect(preprocessPattern("f($A)", "$")).toBe("f($A)");
    expect(patternProblem(languageOf("a.py")!, "print($$$A)")).toBeUndefined();
  });

  it("parses a Go call pattern as a call, not a type conversion", async () => {
    const go = languageOf("a.go")!;
    const source = "package main\n\nfunc main() {\n\tx := fmt.Sprint(1)\n\tfmt.Println(x)\n}\n";
    const result = await rewriteText(
      go,
      source,
      prepareOps([{ pat: "fmt.Println($$$A)", out: "log.Println($$$A)" }]),
      () => false,
    );
    expect(result.text).toContain("\tlog.Println(x)");
    expect(parseCode(go, result.text).root().text()).toBe(result.text);
  });
});
