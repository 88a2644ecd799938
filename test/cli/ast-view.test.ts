/**
 * `splice ast PATTERN` prints as ast-grep does: `path:line:` and the whole
 * line, each line once, PATHS defaulting to the root, and what it skipped
 * on stderr, once per language.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[]) {
  const r = spawnSync(BIN, args, { cwd: root, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("splice ast, as ast-grep prints", () => {
  it("prints path:line: and the whole line once, searching the root by default", () => {
    const p = new Project();
    p.write("src/b.js", "const x = 1;\nfoo(1, 2); foo(3)\n");
    p.write("src/c.js", "function f() {\n  return foo(1,\n    2);\n}\n");
    p.write("a.json", "{}\n");
    p.write("b.json", "[]\n");
    p.write("c.toml", "a = 1\n");
    const r = splice(p.root, ["ast", "foo($$$A)"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      "src/b.js:2:foo(1, 2); foo(3)\nsrc/c.js:2:  return foo(1,\nsrc/c.js:3:    2);\n",
    );
    // One warning per language the pattern does not parse in, on stderr.
    const warnings = r.stderr.split("\n").filter((l) => l.startsWith("warning:"));
    expect(warnings).toHaveLength(2);
    expect(warnings.join("\n")).toMatch(/2 JSON file/);
  });

  it("finds nothing: exit 1 and an empty stdout", () => {
    const p = new Project();
    p.write("b.js", "bar();\n");
    const r = splice(p.root, ["ast", "foo($$$A)", "b.js"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
  });

  it("marks each match when colour is on", () => {
    const p = new Project();
    p.write("b.js", "foo(1); foo(2)\n");
    const line = `'${BIN}' ast 'foo($$$A)' b.js --root '${p.root}'`;
    const r = spawnSync("script", ["-qec", line, "/dev/null"], { encoding: "utf8" });
    const marks = r.stdout.match(/\u001b\[1m\u001b\[31mfoo\(\d\)/g) ?? [];
    expect(marks).toHaveLength(2);
  });
});
