import { describe, expect, it } from "vitest";
import { supportedLanguageNames } from "../../src/code/languages.js";
import { type OutlineResult, outlineTool } from "../../src/tools/outline/index.js";
import { FIXTURES } from "../code/fixtures.js";
import { Project, rejection } from "../helpers/project.js";

const outline = (p: Project, args: Record<string, unknown>) =>
  p.splice().call("outline", args) as Promise<OutlineResult>;

describe("outline", () => {
  it("lists a file's definitions with their lines, nested", async () => {
    const p = new Project();
    p.write(FIXTURES.typescript!.file, FIXTURES.typescript!.source);
    const result = await outline(p, { path: "src/greet.ts" });
    expect(result.content.split("\n").slice(1)).toEqual([
      "4..6 function greet(name: string): string",
      "8..15 class Greeter",
      '  9 greeting = "hi"',
      "  10..14 greet(name: string): string",
      "17 function log(a: string, b: string, c: number): void;",
      "18..20 function log(...args: unknown[]): void",
    ]);
    expect(result.files[0]!.definitions.map((d) => d.qualified_name)).toEqual([
      "greet",
      "Greeter",
      "Greeter.greeting",
      "Greeter.greet",
      "log",
      "log",
    ]);
  });

  it.each(Object.entries(FIXTURES))("outlines %s", async (_name, fx) => {
    const p = new Project();
    p.write(fx.file, fx.source);
    const result = await outline(p, { path: fx.file });
    expect(result.content).toContain(`${fx.member.lines[0]}`);
    expect(result.files[0]!.definitions.map((d) => d.lines)).toContainEqual(fx.member.lines);
  });

  it("outlines a folder in path order, one tagged block per file", async () => {
    const p = new Project();
    p.write(".gitignore", "build/\n");
    p.write("src/b.py", "def b():\n    pass\n");
    p.write("src/a.go", "package a\n\nfunc A() {}\n");
    p.write("src/empty.ts", "\n");
    p.write("build/c.ts", "export function c() {}\n");
    const result = await outline(p, { path: "." });
    const lines = result.content.split("\n");
    expect(lines.filter((l) => l.startsWith("¶")).map((l) => l.replace(/#.*/, ""))).toEqual([
      "¶src/a.go",
      "¶src/b.py",
    ]);
    expect(lines).toContain("3 func A() {}");
    expect(lines.at(-1)).toBe("[1 file(s) with no definitions not shown]");
    expect(result.files_found).toBe(3);
  });

  it("stops at the line cap and says how to go on", async () => {
    const p = new Project();
    for (let i = 0; i < 30; i++) {
      p.write(
        `src/m${String(i).padStart(2, "0")}.ts`,
        "export const a = 1;\nexport const b = 2;\n",
      );
    }
    const result = (await p
      .splice({ max_lines: 20 })
      .call("outline", { path: "src" })) as OutlineResult;
    expect(result.truncated).toBe(true);
    expect(result.content.split("\n")[0]).toBe(
      "[outline cut short; the last line says how to see the rest]",
    );
    expect(result.content.split("\n").at(-1)).toBe(
      "[outline stopped at 20 lines after 6 of 30 files; outline a subfolder or a file for the rest, the next being src/m06.ts]",
    );
  });

  it("shows a file it cannot parse instead of refusing it (see unparsed-read.test.ts)", async () => {
    const p = new Project();
    p.write("notes.txt", "x\n");
    const result = await outline(p, { path: "notes.txt" });
    expect(result.content.split("\n").slice(1)).toEqual([
      "[no outline (not a language splice parses): lines 1..1 of 1]",
      "1| x",
    ]);
    expect(result.content).not.toContain(supportedLanguageNames());
  });

  it("refuses a file that is not text as read does, and names such files in a folder", async () => {
    const p = new Project();
    p.write("src/legacy.py", Buffer.from("def caf\xe9():\n    pass\n", "latin1"));
    p.write("src/blob.ts", Buffer.from([0x63, 0x6f, 0, 0, 1]));
    p.write("src/ok.py", "def ok():\n    pass\n");
    const error = await rejection(outline(p, { path: "src/legacy.py" }));
    expect(error.code).toBe("unknown_encoding");
    expect(error.message).toContain(
      "src/legacy.py is not UTF-8, and its encoding cannot be told for sure: likely windows-1252",
    );
    expect((await rejection(outline(p, { path: "src/blob.ts" }))).code).toBe("binary");
    const folder = await outline(p, { path: "src" });
    expect(folder.content.split("\n").at(-1)).toBe(
      "[skipped 2 file(s) that are not text (binary, or in an encoding that cannot be told for sure): src/blob.ts, src/legacy.py]",
    );
    expect(folder.files.map((f) => f.path)).toEqual(["src/ok.py"]);
  });

  it("says a file is in another language than lang asks for", async () => {
    const p = new Project();
    p.write("main.go", "package main\n\nfunc main() {}\n");
    const error = await rejection(outline(p, { path: "main.go", lang: "python" }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe("main.go is Go, not Python. Leave lang out to outline it as Go.");
  });

  it("warns that a file with a parse error may have an incomplete outline", async () => {
    const p = new Project();
    p.write(
      "svc.py",
      "def load(path):\n    return 1\n\ndef broken(:\n    pass\n\ndef stop():\n    pass\n",
    );
    p.write("ok.py", "def ok():\n    pass\n");
    const result = await outline(p, { path: "svc.py" });
    expect(result.warnings).toEqual([
      'svc.py has parse errors (line 4:12: missing ")"); its outline may be incomplete, definitions around them can be missing. Read the file there, or fix the syntax.',
    ]);
    expect((await outline(p, { path: "ok.py" })).warnings).toEqual([]);
  });

  it("has a manual with its options and real notices", () => {
    expect(outlineTool.manual).toContain('"max_files"');
    expect(outlineTool.manual).toContain('"lang"');
    expect(outlineTool.manual).toContain("outline a subfolder or a file for the rest");
  });
});
