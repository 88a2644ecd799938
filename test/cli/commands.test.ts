import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[], input = "") {
  const r = spawnSync(BIN, [...args, "--root", root], { cwd: root, input, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The JSON `splice call` prints for the same tool call: `--json` must be exactly it. */
function callJson(root: string, tool: string, args: unknown) {
  return JSON.parse(splice(root, ["call", tool, JSON.stringify(args)]).stdout);
}

function project(): Project {
  const p = new Project();
  p.write("src/a.ts", "export function parse(a) {\n  return a;\n}\n");
  p.write("src/b.ts", "const x = parse(1);\n");
  p.write("package.json", '{\n  "name": "x",\n  "scripts": { "test": "vitest" }\n}\n');
  p.write("README.md", "# T\n\n## Install\n\nnpm i\n");
  return p;
}

describe("a command for every tool", () => {
  it("search prints hits like ripgrep, exits 1 on none, and --json is the tool's JSON", () => {
    const p = project();
    const r = splice(p.root, ["search", "parse", "src"]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toBe(
      "src/a.ts:1:export function parse(a) {\nsrc/b.ts:1:const x = parse(1);\n",
    );
    const ctx = splice(p.root, ["search", "return", "-C", "1"]);
    expect(ctx.stdout).toBe(
      "src/a.ts-1-export function parse(a) {\nsrc/a.ts:2:  return a;\nsrc/a.ts-3-}\n",
    );
    expect(splice(p.root, ["search", "nowhere-to-be-found"]).code).toBe(1);
    const json = JSON.parse(splice(p.root, ["search", "parse", "--glob", "b.ts", "--json"]).stdout);
    expect(json).toEqual(callJson(p.root, "search", { pattern: "parse", glob: "b.ts" }));
    expect(json.matches).toBe(1);
  });

  it("search takes -g again and again, comma lists and ! to leave out, as ripgrep does", () => {
    const p = project();
    p.write("src/a.test.ts", "parse();\n");
    p.write("lib/c.js", "parse();\n");
    p.write("lib/d.tsx", "parse();\n");
    const files = (args: string[]) => {
      const r = splice(p.root, ["search", "parse", ...args]);
      expect(r.stderr).toBe("");
      return [
        ...new Set(
          r.stdout
            .split("\n")
            .filter(Boolean)
            .map((l) => l.split(":")[0]),
        ),
      ];
    };
    expect(files(["-g", "*.ts", "-g", "!*.test.ts"])).toEqual(["src/a.ts", "src/b.ts"]);
    expect(files(["--glob", "*.js,*.tsx"])).toEqual(["lib/c.js", "lib/d.tsx"]);
    // A comma inside braces belongs to the glob.
    expect(files(["-g", "*.{js,tsx}", "-g", "!lib/c.js"])).toEqual(["lib/d.tsx"]);
    const json = JSON.parse(
      splice(p.root, ["search", "parse", "-g", "*.ts,!*.test.ts", "--json"]).stdout,
    );
    expect(json).toEqual(
      callJson(p.root, "search", { pattern: "parse", glob: ["*.ts", "!*.test.ts"] }),
    );
    const empty = splice(p.root, ["search", "parse", "-g", ","]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("--glob needs a glob");
  });

  it("list shows a tree with sizes in one column", () => {
    const p = project();
    const r = splice(p.root, ["list", "--depth", "2"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "src/",
        "  a.ts        41 B",
        "  b.ts        20 B",
        "README.md     23 B",
        "package.json  53 B",
        "",
      ].join("\n"),
    );
  });

  it("run prints the output on stdout, how it ended on stderr, and exits with the command's status", () => {
    const p = project();
    const ok = splice(p.root, ["run", "echo hi"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe("hi\n");
    expect(ok.stderr).toMatch(/^\$ echo hi\n\[exit 0 after \d+\.\d s\]\n$/);
    const failed = splice(p.root, ["run", "--", "sh", "-c", "echo 'a b'; exit 3"]);
    expect(failed.code).toBe(3);
    expect(failed.stdout).toBe("a b\n");
    expect(failed.stderr).toMatch(/\[exit 3 after/);
  });

  it("edit takes --old/--new without a tag", () => {
    const p = project();
    const r = splice(p.root, ["edit", "src/a.ts", "--old", "return a;", "--new", "return a + 1;"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("-  return a;\n+  return a + 1;");
    expect(p.text("src/a.ts")).toContain("return a + 1;");
    const alone = splice(p.root, ["edit", "src/a.ts", "--old", "x"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--old and --new go together");
  });

  it("doc gets a value bare and sets one keeping the rest", () => {
    const p = project();
    expect(splice(p.root, ["doc", "package.json", "scripts.test"]).stdout).toBe("vitest\n");
    const set = splice(p.root, ["doc", "package.json", "scripts.lint", "--set", "biome check ."]);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('+  "scripts": { "test": "vitest", "lint": "biome check ." }');
    expect(set.stdout).toMatch(/Undo it with: splice undo \S+/);
    const preview = splice(p.root, ["doc", "package.json", "version", "--set", "1", "--preview"]);
    expect(preview.stdout).toContain("Preview: nothing was written.");
    expect(p.text("package.json")).not.toContain("version");
  });

  it("md changes one section", () => {
    const p = project();
    const r = splice(p.root, ["md", "README.md", "Install", "--append", "Then npm test."]);
    expect(r.code).toBe(0);
    expect(p.text("README.md")).toBe("# T\n\n## Install\n\nnpm i\n\nThen npm test.\n");
    const none = splice(p.root, ["md", "README.md", "Install"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("say what to do with the section: one of --replace");
  });

  it("tidy fixes whitespace, and --check exits 1 when something is untidy", () => {
    const p = project();
    p.write("t.txt", "a  \nb");
    expect(splice(p.root, ["tidy", "t.txt", "--check"]).code).toBe(1);
    expect(p.text("t.txt")).toBe("a  \nb");
    const r = splice(p.root, ["tidy", "t.txt"]);
    expect(r.code).toBe(0);
    expect(p.text("t.txt")).toBe("a\nb\n");
  });

  it("mv and rm move and delete, and undo brings the file back", () => {
    const p = project();
    expect(splice(p.root, ["mv", "src/b.ts", "src/c.ts"]).code).toBe(0);
    expect(existsSync(join(p.root, "src/c.ts"))).toBe(true);
    const rm = splice(p.root, ["rm", "src/c.ts"]);
    expect(rm.code).toBe(0);
    expect(existsSync(join(p.root, "src/c.ts"))).toBe(false);
    expect(splice(p.root, ["undo"]).code).toBe(0);
    expect(p.text("src/c.ts")).toBe("const x = parse(1);\n");
  });

  it("a tool's name points at splice call, with the tool's own example", () => {
    const r = splice(new Project().root, ["ast_edit"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^splice: "ast_edit" is a tool without its own command; run it as splice call ast_edit '\{"ops":/,
    );
  });
});
