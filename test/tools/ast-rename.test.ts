import { describe, expect, it } from "vitest";
import type { CodeEditResult } from "../../src/codebase/code-edit.js";
import { astRenameTool } from "../../src/tools/ast-rename/index.js";
import { FIXTURES } from "../code/fixtures.js";
import { Project, rejection } from "../helpers/project.js";

const rename = (p: Project, args: Record<string, unknown>) =>
  p.splice().call("ast_rename", args) as Promise<CodeEditResult>;

describe.each(Object.entries(FIXTURES))("ast_rename in %s", (_name, fx) => {
  it("renames the identifier, not strings, comments or longer names", async () => {
    const p = new Project();
    p.write(fx.file, fx.source);
    const result = await rename(p, { name: fx.rename.from, new_name: fx.rename.to, paths: ["."] });
    expect(result).toMatchObject({ applied: true, files_changed: 1 });
    const text = p.text(fx.file);
    const lines = text.split("\n");
    for (const line of fx.rename.expect) expect(lines.some((l) => l.includes(line))).toBe(true);
    for (const keep of fx.rename.keep) expect(text).toContain(keep);
    expect(result.files[0]!.warnings).toEqual([]);
  });
});

describe("ast_rename", () => {
  it("previews by mode, across files, and warns about a clash", async () => {
    const p = new Project();
    p.write("src/a.ts", "export function total(xs: number[]) {\n  return xs.length;\n}\n");
    p.write(
      "src/b.ts",
      'import { total } from "./a";\nconst sum = 1;\nexport const t = total([sum]);\n',
    );
    const result = await rename(p, {
      name: "total",
      new_name: "sum",
      paths: ["src"],
      mode: "preview",
    });
    expect(result.files.map((f) => [f.path, f.matches])).toEqual([
      ["src/a.ts", 1],
      ["src/b.ts", 2],
    ]);
    expect(result.files[1]!.warnings).toEqual([
      '"sum" already names something in this file; check the renamed code for clashes.',
    ]);
    expect(p.text("src/a.ts")).toContain("function total");
  });

  it("refuses names that are not identifiers, and a rename to itself", async () => {
    const p = new Project();
    p.write("a.ts", "x;\n");
    const bad = await rejection(rename(p, { name: "a.b", new_name: "c", paths: ["."] }));
    expect(bad.message).toBe(
      'The name "a.b" is not an identifier: a rename renames one name (letters, digits, _ and $, not starting with a digit). To rewrite code, use the ast_edit tool.',
    );
    const same = await rejection(rename(p, { name: "x", new_name: "x", paths: ["."] }));
    expect(same.message).toBe('The name and the new name are both "x": nothing to rename.');
  });

  it("says when the name is not there", async () => {
    const p = new Project();
    p.write("a.ts", 'const s = "missing"; // missing\n');
    const result = await rename(p, { name: "missing", new_name: "found", paths: ["a.ts"] });
    expect(result.files_changed).toBe(0);
    expect(result.files[0]!.warnings).toEqual([
      'No identifier "missing" here (only in strings, comments or longer names, if at all).',
    ]);
    expect(result.warnings).toEqual(['No identifier "missing" in the 1 file(s) covered.']);
  });

  it("has a manual that quotes its real messages", () => {
    for (const text of [
      "already names something in this file",
      "No identifier",
      "is not an identifier",
    ]) {
      expect(astRenameTool.manual).toContain(text);
    }
  });
});
