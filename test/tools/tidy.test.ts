import { describe, expect, it } from "vitest";
import { parseDocument, renderDocument } from "../../src/text/document.js";
import { type TidyOptions, tidyDocument } from "../../src/text/tidy.js";
import type { TidyResult } from "../../src/tools/tidy/index.js";
import { tidyTool } from "../../src/tools/tidy/index.js";
import { Project, rejection } from "../helpers/project.js";

const tidyText = (text: string, options: TidyOptions = {}) =>
  renderDocument(tidyDocument(parseDocument(text), options).doc);

describe("tidyDocument (pure)", () => {
  it("trims trailing whitespace, adds the final newline, and makes mixed endings dominant", () => {
    const out = tidyDocument(parseDocument("a  \r\nb\t\r\nc\nd"));
    expect(renderDocument(out.doc)).toBe("a\r\nb\r\nc\r\nd\r\n");
    expect(out.fixes.map((f) => [f.kind, f.lines])).toEqual([
      ["trailing_whitespace", [1, 2]],
      ["line_endings", [3]],
      ["final_newline", [4]],
    ]);
  });

  it("leaves a tidy file alone, and an empty file empty", () => {
    expect(tidyDocument(parseDocument("a\nb\n")).fixes).toEqual([]);
    expect(tidyText("")).toBe("");
  });

  it("keeps Markdown hard breaks when asked", () => {
    expect(tidyText("line one  \nline two \n", { keepHardBreaks: true })).toBe(
      "line one  \nline two\n",
    );
  });

  it("converts tabs to spaces, and spaces to tabs only in whole levels", () => {
    const spaces: TidyOptions = { indent: { style: "space", size: 2, tabWidth: 2 } };
    expect(tidyText("a\n\tb\n\t\tc\n\t  d\n", spaces)).toBe("a\n  b\n    c\n    d\n");
    const tabs: TidyOptions = { indent: { style: "tab", size: 4, tabWidth: 4 } };
    const out = tidyDocument(
      parseDocument("a\n    b\n        c\n      odd\n\t  aligned\n  \tmixed\n"),
      tabs,
    );
    expect(renderDocument(out.doc)).toBe("a\n\tb\n\t\tc\n      odd\n\t  aligned\n  \tmixed\n");
    expect(out.ambiguousIndent).toEqual([4, 6]);
  });

  it("follows explicit editorconfig choices", () => {
    expect(tidyText("a \nb\n", { trimTrailingWhitespace: false, insertFinalNewline: false })).toBe(
      "a \nb",
    );
    expect(tidyText("a\nb\n", { endOfLine: "\r\n" })).toBe("a\r\nb\r\n");
  });
});

describe("tidy tool", () => {
  const call = (p: Project, args: Record<string, unknown>) =>
    p.splice().call("tidy", args) as Promise<TidyResult>;

  it("tidies files and folders, skips binaries with a warning, and undo restores", async () => {
    const p = new Project();
    p.write("src/a.ts", "const a = 1;   \nconst b = 2;");
    p.write("src/ok.ts", "fine\n");
    p.write("src/blob.bin", Buffer.from([1, 0, 2, 32, 32, 10]));
    p.write("notes.md", "hard break  \nsoft \n");
    const r = await call(p, { paths: ["src", "notes.md"] });
    expect(r).toMatchObject({ action: "tidy", applied: true, changed: true, checked: 4 });
    expect(r.results.map((f) => f.path).sort()).toEqual(["notes.md", "src/a.ts"]);
    expect(p.text("src/a.ts")).toBe("const a = 1;\nconst b = 2;\n");
    expect(p.text("notes.md")).toBe("hard break  \nsoft\n");
    expect(r.skipped).toEqual([
      { path: "src/blob.bin", reason: "not a text file (it contains a NUL byte at offset 1)" },
    ]);
    expect(r.warnings).toContain(
      "Skipped src/blob.bin: not a text file (it contains a NUL byte at offset 1).",
    );
    expect(r.content).toContain(
      "src/a.ts: trailing whitespace removed (1 line); final line break added",
    );
    await p.splice().undo({ backup_session: r.backup_session! });
    expect(p.text("src/a.ts")).toBe("const a = 1;   \nconst b = 2;");
  });

  it("converts indentation per .editorconfig, nearest section winning", async () => {
    const p = new Project();
    p.write(
      ".editorconfig",
      "root = true\n\n[*]\nindent_style = space\nindent_size = 2\n\n[*.go]\nindent_style = tab\nindent_size = 4\n\n[Makefile]\nindent_style = space\n",
    );
    p.write("src/.editorconfig", "[*.ts]\nindent_size = 4\n");
    p.write("src/a.ts", "function f() {\n\treturn 1;\n}\n");
    p.write("b.js", "function f() {\n\treturn 1;\n}\n");
    p.write("main.go", "func f() {\n    return\n   odd\n}\n");
    p.write("Makefile", "all:\n\techo hi\n");
    const r = await call(p, { paths: ["."] });
    expect(p.text("src/a.ts")).toBe("function f() {\n    return 1;\n}\n");
    expect(p.text("b.js")).toBe("function f() {\n  return 1;\n}\n");
    expect(p.text("main.go")).toBe("func f() {\n\treturn\n   odd\n}\n");
    expect(p.text("Makefile")).toBe("all:\n\techo hi\n");
    expect(r.warnings.join("\n")).toContain(
      "main.go: left the indentation of line 3 as it was (it does not convert evenly)",
    );
  });

  it("leaves the whitespace inside multi-line strings alone: it is part of their values", async () => {
    const p = new Project();
    p.write(".editorconfig", "root = true\n\n[*]\nindent_style = space\nindent_size = 4\n");
    p.write("q.js", "function q() {\n\tconst sql = `   \n\tSELECT *   \n\tFROM t\n`;  \n}\n");
    p.write("s.py", 'def f():\n\ts = """\n\tkeep tab   \n"""\n\treturn s\n');
    await call(p, { paths: ["."] });
    // Code lines are tidied; the string's own lines (and the space before its first break) are not.
    expect(p.text("q.js")).toBe(
      "function q() {\n    const sql = `   \n\tSELECT *   \n\tFROM t\n`;\n}\n",
    );
    expect(p.text("s.py")).toBe('def f():\n    s = """\n\tkeep tab   \n"""\n    return s\n');
  });

  it("check mode reports without writing and fails when something would change", async () => {
    const p = new Project();
    p.write("clean.txt", "ok\n");
    const clean = await call(p, { paths: "clean.txt", mode: "check" });
    expect(clean).toMatchObject({ changed: false, checked: 1 });
    expect(clean.content).toBe("tidy: 1 file checked, all tidy.");
    p.write("dirty.txt", "x \n");
    const e = await rejection(call(p, { paths: ["clean.txt", "dirty.txt"], mode: "check" }));
    expect(e.code).toBe("check_failed");
    expect(e.message).toContain("dirty.txt: trailing whitespace removed (1 line)");
    expect(e.details).toMatchObject({ paths: ["dirty.txt"] });
    expect(p.text("dirty.txt")).toBe("x \n");
  });

  it("refuses a path that does not exist", async () => {
    const p = new Project();
    expect((await rejection(call(p, { paths: "nope" }))).code).toBe("not_found");
  });

  it("has a manual that quotes its warnings", () => {
    expect(tidyTool.manual).toContain("does not convert evenly");
    expect(tidyTool.manual).toContain("check_failed");
  });
});
