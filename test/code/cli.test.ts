import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";
import { FIXTURES } from "./fixtures.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[]) {
  const r = spawnSync(BIN, [...args, "--root", root], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the syntax commands", () => {
  it("reads by symbol and by line", () => {
    const p = new Project();
    const fx = FIXTURES.python!;
    p.write(fx.file, fx.source);
    const bySymbol = splice(p.root, ["read", fx.file, "--symbol", "Store.save"]);
    expect(bySymbol.code).toBe(0);
    expect(bySymbol.stdout).toContain(
      "[method Store.save: lines 16..17 of 25]\n16|     def save(self, key, value):",
    );
    const inFolder = splice(p.root, ["read", ".", "--symbol", "MAX_SIZE", "--json"]);
    expect(JSON.parse(inFolder.stdout).results[0].definitions[0]).toMatchObject({
      path: fx.file,
      lines: [3, 3],
    });
    const byLine = splice(p.root, ["read", fx.file, "--line", "13"]);
    expect(byLine.stdout).toContain("(around line 13)]\n12|     def load(self, key):");
    const plain = splice(p.root, ["read", `${fx.file}:3`]);
    expect(plain.stdout).toContain("3| MAX_SIZE = 10\n[showing lines 3..3 of 25]");
  });

  it("outlines a folder", () => {
    const p = new Project();
    p.write("src/a.ts", "export class A {\n  m() {}\n}\n");
    const r = splice(p.root, ["outline", "src"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^¶src\/a\.ts#[0-9A-F]{4}\n1\.\.3 class A\n {2}2 m\(\) \{\}\n$/);
  });

  it("previews a rewrite, writes it only with --apply, and renames", () => {
    const p = new Project();
    p.write("src/a.js", "console.log(1, 2);\n");
    const preview = splice(p.root, [
      "ast",
      "console.log($$$A)",
      "--rewrite",
      "logger.info($$$A)",
      "src",
    ]);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain("-console.log(1, 2);\n+logger.info(1, 2);");
    expect(preview.stdout).toContain("(add --apply to write)");
    expect(preview.stderr).toBe(""); // no progress bar when stderr is not a terminal
    expect(p.text("src/a.js")).toBe("console.log(1, 2);\n");
    const applied = splice(p.root, [
      "ast",
      "console.log($$$A)",
      "--rewrite",
      "logger.info($$$A)",
      "src",
      "--apply",
    ]);
    expect(applied.code).toBe(0);
    // The person is told the command, not the tool: one voice with patch's.
    expect(applied.stdout).toMatch(/Undo them all with: splice undo \d{8}-\d{6}-[0-9a-f]{6}\n$/);
    expect(applied.stdout).not.toContain("undo tool");
    expect(p.text("src/a.js")).toBe("logger.info(1, 2);\n");

    const rename = splice(p.root, ["rename", "logger", "log", "src", "--apply"]);
    expect(rename.code).toBe(0);
    expect(p.text("src/a.js")).toBe("log.info(1, 2);\n");
  });

  it("reports bad input with the tool's error and exit code 1", () => {
    const p = new Project();
    p.write("a.ts", "x;\n");
    const r = splice(p.root, ["ast", "foo(", "--rewrite", "x", "a.ts"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'error [invalid_input]: Op 1\'s pattern "foo(" is not a valid pattern',
    );
    const usage = splice(p.root, ["ast", "foo($A)", "a.ts", "--apply"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--apply writes a --rewrite; pass --rewrite OUT too");
  });

  it("searches without --rewrite, like ast-grep run -p", () => {
    const p = new Project();
    p.write(
      "src/a.js",
      "// console.log(0)\nconsole.log(1, 2);\nif (x) {\n  console.log(\n    3,\n  );\n}\n",
    );
    p.write("src/b.js", "const s = 'console.log(4)';\n");
    const found = splice(p.root, ["ast", "console.log($$$A)", "src"]);
    expect(found.code).toBe(0);
    expect(found.stderr).toBe("");
    expect(found.stdout).toBe(
      "src/a.js:2:console.log(1, 2);\nsrc/a.js:4:  console.log(\nsrc/a.js:5:    3,\nsrc/a.js:6:  );\n",
    );
    const json = JSON.parse(splice(p.root, ["ast", "console.log($$$A)", "src", "--json"]).stdout);
    expect(json).toMatchObject({ matches: 2, files_matched: 1, files_changed: 0, applied: false });
    expect(json.hits[0]).toEqual({
      path: "src/a.js",
      line: 2,
      end_line: 2,
      text: "console.log(1, 2)",
      op: 1,
    });
    expect(json.content).toContain("src/a.js:2:console.log(1, 2)");
    expect(p.text("src/a.js")).toContain("console.log(1, 2);");

    const none = splice(p.root, ["ast", "console.warn($$$A)", "src"]);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe("");
    expect(none.stderr).toContain("matched nothing in 2 files covered");
  });
});
