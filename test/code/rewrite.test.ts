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

  describe("moves a multi-line capture with the line it lands on", () => {
    const py = "def m(x):\n    if x:\n        a()\n        b()\n    return 1\n";
    const pat = "if $C:\n    $$$B";

    it("wraps and unwraps a Python body without leaving lines behind", async () => {
      const wrapped = await rewrite("a.py", py, [
        { pat, out: "with lock:\n    if $C:\n        $$$B" },
      ]);
      expect(wrapped.text).toBe(
        "def m(x):\n    with lock:\n        if x:\n            a()\n            b()\n    return 1\n",
      );
      const unwrapped = await rewrite("a.py", py, [{ pat, out: "$$$B" }]);
      expect(unwrapped).toMatchObject({
        text: "def m(x):\n    a()\n    b()\n    return 1\n",
        kept: [[]],
      });
    });

    it("keeps tabs", async () => {
      const tabs = "def m(x):\n\tif x:\n\t\ta()\n\t\tb()\n\treturn 1\n";
      const out = "with lock:\n\tif $C:\n\t\t$$$B";
      expect((await rewrite("a.py", tabs, [{ pat, out }])).text).toBe(
        "def m(x):\n\twith lock:\n\t\tif x:\n\t\t\ta()\n\t\t\tb()\n\treturn 1\n",
      );
    });

    it("keeps its inner layout in TypeScript, for $X and $$$", async () => {
      const source =
        "function f() {\n  call({\n    a: 1,\n  });\n  if (ok) {\n    g();\n    h();\n  }\n}\n";
      const result = await rewrite("a.ts", source, [
        { pat: "call($X)", out: "wrap(\n  $X,\n)" },
        { pat: "if (ok) { $$$B }", out: "$$$B" },
      ]);
      expect(result.text).toBe(
        "function f() {\n  wrap(\n    {\n      a: 1,\n    },\n  );\n  g();\n  h();\n}\n",
      );
    });

    it("never moves the inside of a string, but moves comments", async () => {
      const source =
        "function f() {\n  if (ok) {\n    /**\n     * doc\n     */\n    const s = `x\n      y`;\n  }\n}\n";
      const result = await rewrite("a.ts", source, [{ pat: "if (ok) { $$$B }", out: "$$$B" }]);
      expect(result).toMatchObject({
        text: "function f() {\n  /**\n   * doc\n   */\n  const s = `x\n      y`;\n}\n",
        kept: [[]],
      });
      const doc = 'def m(x):\n    if x:\n        s = """a\n          b"""\n        c()\n';
      expect(await rewrite("a.py", doc, [{ pat, out: "$$$B" }])).toMatchObject({
        text: 'def m(x):\n    s = """a\n          b"""\n    c()\n',
        kept: [[]],
      });
    });

    it("keeps lines left of the capture's first line where they are, and names them", async () => {
      const source = "def m(x):\n    if x:\n        t = [1,\n  2]\n# note\n        b()\n";
      const left = await rewrite("a.py", source, [{ pat, out: "$$$B" }]);
      expect(left).toMatchObject({
        text: "def m(x):\n    t = [1,\n  2]\n# note\n    b()\n",
        kept: [["  2]", "# note"]],
      });
      const right = await rewrite("a.py", source, [
        { pat, out: "if $C:\n    with lock:\n        $$$B" },
      ]);
      expect(right).toMatchObject({
        text: "def m(x):\n    if x:\n        with lock:\n            t = [1,\n      2]\n    # note\n            b()\n",
        kept: [[]],
      });
    });
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
