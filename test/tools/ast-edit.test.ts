import { describe, expect, it } from "vitest";
import { supportedLanguageNames } from "../../src/code/languages.js";
import type { CodeEditResult } from "../../src/codebase/code-edit.js";
import { astEditTool } from "../../src/tools/ast-edit/index.js";
import { FIXTURES } from "../code/fixtures.js";
import { Project, rejection } from "../helpers/project.js";

const astEdit = (p: Project, args: Record<string, unknown>) =>
  p.splice().call("ast_edit", args) as Promise<CodeEditResult>;

describe.each(Object.entries(FIXTURES))("ast_edit in %s", (_name, fx) => {
  it("previews a $$$ rewrite, then applies it", async () => {
    const p = new Project();
    p.write(fx.file, fx.source);
    const ops = [{ pat: fx.astEdit.pat, out: fx.astEdit.out }];
    const preview = await astEdit(p, { ops, paths: ["."], mode: "preview" });
    expect(preview).toMatchObject({
      mode: "preview",
      applied: false,
      files_scanned: 1,
      files_changed: 1,
      matches: fx.astEdit.matches,
    });
    expect(preview.files[0]!.diff).toContain(`+${fx.astEdit.expect}`);
    expect(p.text(fx.file)).toBe(fx.source);

    const applied = await astEdit(p, { ops, paths: [fx.file] });
    expect(applied).toMatchObject({ applied: true, files_changed: 1 });
    expect(applied.backup_session).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(p.text(fx.file).split("\n")).toContain(fx.astEdit.expect);
    expect(applied.files[0]!.warnings).toEqual([]);
  });

  it("finds without out, writing nothing", async () => {
    const p = new Project();
    p.write(fx.file, fx.source);
    const found = await astEdit(p, { ops: [{ pat: fx.astEdit.pat }], paths: ["."] });
    expect(found).toMatchObject({ applied: false, files_changed: 0, matches: fx.astEdit.matches });
    const hits = (found as CodeEditResult & { hits: { path: string; line: number }[] }).hits;
    expect(hits).toHaveLength(fx.astEdit.matches);
    const first = hits[0]!;
    expect(found.content).toContain(`\n${fx.file}:${first.line}:`);
    expect(p.text(fx.file)).toBe(fx.source);
    const approval = astEditTool.needsApproval as (args: unknown) => boolean;
    expect(approval({ ops: [{ pat: "x" }], paths: ["."] })).toBe(false);
    expect(approval({ ops: [{ pat: "x", out: "y" }], paths: ["."] })).toBe(true);
  });
});

describe("ast_edit", () => {
  it("refuses ops that mix finding and rewriting", async () => {
    const p = new Project();
    p.write("a.ts", "f(1);\n");
    const ops = [{ pat: "f($A)", out: "g($A)" }, { pat: "h($A)" }];
    const error = await rejection(astEdit(p, { ops, paths: ["a.ts"] }));
    expect(error).toMatchObject({ code: "invalid_input" });
    expect(error.message).toContain("Op 2 has no out while other ops have one");
    expect(p.text("a.ts")).toBe("f(1);\n");
  });

  it("rewrites across a folder in path order, respecting .gitignore, in one backup session", async () => {
    const p = new Project();
    p.write(".gitignore", "dist/\n");
    p.write("src/b.ts", "console.log(1);\n");
    p.write("src/a.ts", "console.log(2, 3);\nconst s = 'console.log(4)';\n");
    p.write("dist/c.js", "console.log(5);\n");
    p.write("src/none.ts", "export {};\n");
    const result = await astEdit(p, {
      ops: [{ pat: "console.log($$$A)", out: "logger.info($$$A)" }],
      paths: ["."],
    });
    expect(result.files.map((f) => [f.path, f.matches, f.changed])).toEqual([
      ["src/a.ts", 1, true],
      ["src/b.ts", 1, true],
    ]);
    expect(result.files_scanned).toBe(3);
    expect(p.text("src/a.ts")).toBe("logger.info(2, 3);\nconst s = 'console.log(4)';\n");
    expect(p.text("dist/c.js")).toBe("console.log(5);\n");
    expect(result.content.split("\n")[0]).toBe(
      `ast_edit (1 op): 2 matches in 2 files, 3 files scanned; wrote 2 files. Undo them all with the undo tool (backup_session "${result.backup_session}").`,
    );

    const undone = (await p.splice().call("undo", { backup_session: result.backup_session })) as {
      files: { path: string }[];
    };
    expect(undone.files.map((f) => f.path).sort()).toEqual(["src/a.ts", "src/b.ts"]);
    expect(p.text("src/b.ts")).toBe("console.log(1);\n");
  });

  it("takes globs, and caps the files at max_files in path order", async () => {
    const p = new Project();
    for (const name of ["c", "a", "d", "b"]) p.write(`src/${name}.ts`, "old();\n");
    p.write("src/skip.py", "old()\n");
    const result = await astEdit(p, {
      ops: [{ pat: "old()", out: "fresh()" }],
      paths: ["src/*.ts"],
      max_files: 2,
      mode: "preview",
    });
    expect(result.files.map((f) => f.path)).toEqual(["src/a.ts", "src/b.ts"]);
    expect(result.capped).toBe(true);
    expect(result.warnings).toContain(
      "Covered the first 2 of 4 files (in path order); narrow the paths or raise max_files to cover the rest.",
    );
  });

  it("refuses an invalid pattern before touching anything", async () => {
    const p = new Project();
    p.write("a.ts", "foo(1);\n");
    const error = await rejection(
      astEdit(p, { ops: [{ pat: "foo(", out: "bar()" }], paths: ["a.ts"] }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      `Op 1's pattern "foo(" is not a valid pattern: it does not parse as TypeScript (syntax error at column 1, near "foo("). Nothing was changed. A pattern is code in the file's language, with $NAME for one node and $$$NAME for any number.`,
    );
    expect(p.text("a.ts")).toBe("foo(1);\n");
  });

  it("warns per language and per named file where a pattern does not parse or matches nothing", async () => {
    const p = new Project();
    p.write("a.ts", "let x = y!;\n");
    p.write("b.py", "x = 1\n");
    const result = await astEdit(p, {
      ops: [
        { pat: "$A!", out: "$A" },
        { pat: "nothing_here($X)", out: "x" },
      ],
      paths: ["a.ts", "b.py"],
      mode: "preview",
    });
    expect(result.files.find((f) => f.path === "a.ts")!.diff).toContain("+let x = y;");
    expect(result.files.find((f) => f.path === "b.py")!.warnings).toEqual([
      'Op 1\'s pattern was not applied here: it does not parse as Python (syntax error at column 1, near "$A!").',
      'Op 2 ("nothing_here($X)") matched nothing here.',
    ]);
    expect(result.warnings).toEqual([
      'Op 1\'s pattern was not applied to 1 Python file: it does not parse as Python (syntax error at column 1, near "$A!").',
      'Op 2 ("nothing_here($X)") matched nothing in 2 files covered.',
    ]);
  });

  it("refuses an unknown language, naming the supported ones", async () => {
    const p = new Project();
    p.write("a.ts", "x;\n");
    const error = await rejection(
      astEdit(p, { ops: [{ pat: "x", out: "y" }], paths: ["."], lang: "cobol" }),
    );
    expect(error).toMatchObject({
      code: "invalid_input",
      message: `"cobol" is not a language splice parses. The supported languages are: ${supportedLanguageNames()}.`,
    });
  });

  it("says when no file is in a language it parses", async () => {
    const p = new Project();
    p.write("notes.txt", "x\n");
    const error = await rejection(
      astEdit(p, { ops: [{ pat: "x", out: "y" }], paths: ["notes.txt"] }),
    );
    expect(error.code).toBe("not_found");
    expect(error.message).toContain("Skipped notes.txt: it is not in a language splice parses.");
  });

  it("warns when the rewrite breaks the syntax, and names where", async () => {
    const p = new Project();
    p.write("a.ts", "function f() {\n  return g(1);\n}\n");
    const result = await astEdit(p, {
      ops: [{ pat: "g($A)", out: "g($A" }],
      paths: ["a.ts"],
      mode: "preview",
    });
    expect(result.files[0]!.warnings).toEqual([
      expect.stringMatching(
        /^Syntax check \(TypeScript\): the edit introduces parse errors the file did not have — line 2:/,
      ),
    ]);
  });

  it("names the broken file's syntax errors in an applied batch, after writing every file", async () => {
    // The check parses while the batch writes: its warning still lands on its own file.
    const p = new Project();
    p.write("a.ts", "const a = g(1);\n");
    p.write("b.ts", "const b = 1;\nconst c = g(2) + 3;\n");
    const result = await astEdit(p, {
      ops: [{ pat: "g($A)", out: "g($A" }],
      paths: ["a.ts", "b.ts"],
    });
    expect(p.text("a.ts")).toBe("const a = g(1;\n");
    expect(p.text("b.ts")).toBe("const b = 1;\nconst c = g(2 + 3;\n");
    const warnings = Object.fromEntries(result.files.map((f) => [f.path, f.warnings]));
    expect(warnings["a.ts"]).toEqual([
      expect.stringMatching(/^Syntax check \(TypeScript\): .* line 1:/),
    ]);
    expect(warnings["b.ts"]).toEqual([
      expect.stringMatching(/^Syntax check \(TypeScript\): .* line 2:/),
    ]);
    expect(result.content).toContain(
      "[Syntax check (TypeScript): the edit introduces parse errors",
    );
  });

  it("re-indents a multi-line capture, and warns about lines it could not move", async () => {
    const p = new Project();
    p.write("a.py", "def m(x):\n    if x:\n        t = [1,\n  2]\n        b()\n    return 1\n");
    const result = await astEdit(p, {
      ops: [{ pat: "if $C:\n    $$$B", out: "$$$B" }],
      paths: ["a.py"],
    });
    expect(p.text("a.py")).toBe("def m(x):\n    t = [1,\n  2]\n    b()\n    return 1\n");
    expect(result.files[0]!.warnings).toEqual([
      `Op 1: moving a multi-line capture, splice kept the indentation of 1 line(s) indented less than the capture's first line (first: "2]"). Check the diff and fix their indentation if it matters.`,
    ]);
  });

  it("fails check mode when something would change", async () => {
    const p = new Project();
    p.write("a.ts", "old();\n");
    const error = await rejection(
      astEdit(p, { ops: [{ pat: "old()", out: "fresh()" }], paths: ["a.ts"], mode: "check" }),
    );
    expect(error.code).toBe("check_failed");
    expect(p.text("a.ts")).toBe("old();\n");
  });

  it("keeps CRLF line endings and a BOM", async () => {
    const p = new Project();
    p.write("a.ts", "\uFEFFold(1);\r\nkeep();\r\n");
    await astEdit(p, { ops: [{ pat: "old($A)", out: "fresh($A)" }], paths: ["a.ts"] });
    expect(p.text("a.ts")).toBe("\uFEFFfresh(1);\r\nkeep();\r\n");
  });

  it("has a manual that quotes its real messages", () => {
    for (const text of [
      "is not a valid pattern: it does not parse as TypeScript",
      "was not applied to 3 Python files",
      "matched nothing in 40 files covered",
      "matched nothing here",
      "kept the indentation of 1 line(s)",
      "Covered the first 1,000 of",
      '"max_files"'.replaceAll('"', "`"),
      '"lang": "python"',
      '"mode": "preview"',
    ]) {
      expect(astEditTool.manual).toContain(text);
    }
  });
});

describe("ast_edit over many files", () => {
  it("finds candidates with ripgrep and rewrites exactly the files that match", async () => {
    const p = new Project();
    for (let i = 0; i < 250; i++) {
      const name = `src/f${String(i).padStart(3, "0")}.ts`;
      p.write(name, i % 50 === 0 ? `oldCall(${i}, "x");\n` : `const v${i} = ${i};\n`);
    }
    p.write("src/only-word.ts", "// oldCall is mentioned, not called\n");
    const result = await astEdit(p, {
      ops: [{ pat: "oldCall($$$A)", out: "newCall($$$A)" }],
      paths: ["src"],
      mode: "preview",
    });
    expect(result.files_scanned).toBe(251);
    expect(result.files.map((f) => f.path)).toEqual([
      "src/f000.ts",
      "src/f050.ts",
      "src/f100.ts",
      "src/f150.ts",
      "src/f200.ts",
    ]);
    expect(result.files[1]!.diff).toContain('+newCall(50, "x");');
  });
});
