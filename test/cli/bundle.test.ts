/**
 * `bin/splice` runs the bundled CLI (dist/cli-bundle/, see
 * scripts/bundle-cli.mjs). A dependency that breaks when bundled fails only
 * when its code runs, so every tool is called once through the command, on
 * real files, with every document format and parser it can load.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { fullTools } from "../../src/toolkit/index.js";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

/** Each call's own check; results that are errors must not be "internal". */
const CALLS: [string, object][] = [
  ["read", { targets: [{ path: "src/a.ts" }] }],
  ["read", { targets: [{ path: "shot.png" }, { path: "nb.ipynb" }] }],
  ["list", { path: ".", depth: 2 }],
  ["search", { pattern: "greet", path: "src" }],
  ["outline", { path: "src/a.ts" }],
  ["write", { targets: [{ path: "notes.txt", text: "hello\n" }] }],
  ["edit", { targets: [{ path: "notes.txt", edits: [{ old_text: "hello", new_text: "hi" }] }] }],
  ["patch", { patch: "*** Begin Patch\n*** Add File: added.txt\n+added\n*** End Patch\n" }],
  ["file", { action: "rename", path: "added.txt", to: "moved.txt" }],
  ["doc", { action: "set", path: "package.json", selector: "version", value: "1.0.1" }],
  [
    "doc",
    { action: "set", path: "tsconfig.json", selector: "compilerOptions.strict", value: true },
  ],
  ["doc", { action: "set", path: "config.yaml", selector: "b", value: 2 }],
  ["doc", { action: "set", path: "Cargo.toml", selector: "package.version", value: "0.2.0" }],
  ["md", { action: "append_to_section", path: "README.md", heading: "Usage", text: "Run it." }],
  ["notebook", { action: "insert_after", path: "nb.ipynb", source: "print(2)" }],
  ["ast_edit", { ops: [{ pat: "greet($A)", out: "welcome($A)" }], paths: ["src"] }],
  ["ast_rename", { name: "greet", new_name: "hello", paths: ["src"] }],
  ["tidy", { paths: ["messy.txt"] }],
  ["run", { command: "echo ran" }],
  [
    "plan",
    { steps: [{ tool: "write", args: { targets: [{ path: "planned.txt", text: "p\n" }] } }] },
  ],
  ["history", { path: "notes.txt" }],
  ["rollback", { path: "notes.txt", hash: "" }],
  ["undo", {}],
  ["checkpoint", { action: "create", name: "pre" }],
  ["lsp_health", {}],
  ["help", { tool: "edit" }],
];

describe("the bundled command", () => {
  it("calls every tool without an internal error", async () => {
    expect(new Set(CALLS.map(([name]) => name))).toEqual(
      new Set(fullTools.map((tool) => tool.name)),
    );
    const p = new Project();
    p.write(
      "src/a.ts",
      'export function greet(name: string) {\n  return "hi " + name;\n}\ngreet("x");\n',
    );
    p.write("package.json", '{\n  "name": "demo",\n  "version": "1.0.0"\n}\n');
    p.write("tsconfig.json", '{\n  // comments are fine here\n  "compilerOptions": {}\n}\n');
    p.write("config.yaml", "a: 1 # kept\n");
    p.write("Cargo.toml", '[package]\nname = "demo"\nversion = "0.1.0"\n');
    p.write("README.md", "# Demo\n\n## Usage\n\nCall it.\n");
    p.write(".editorconfig", "root = true\n[*]\ntrim_trailing_whitespace = true\n");
    p.write("messy.txt", "trailing   \n");
    // sharp's native library must load from the bundle: a real PNG, made by sharp.
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    p.write("shot.png", png);
    p.write(
      "nb.ipynb",
      `${JSON.stringify({ cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`,
    );
    for (const [name, args] of CALLS) {
      const run = spawnSync(BIN, ["call", name, JSON.stringify(args), "--root", p.root], {
        encoding: "utf8",
      });
      const what = `${name} ${JSON.stringify(args)}: ${run.stdout}${run.stderr}`;
      expect(run.stderr, what).not.toMatch(/internal|Cannot find module|not supported/i);
      const result = JSON.parse(run.stdout) as { error?: { code: string } };
      expect(result.error, what).toBeUndefined();
    }
    expect(p.text("package.json")).toContain('"version": "1.0.1"');
    expect(p.text("config.yaml")).toBe("a: 1 # kept\nb: 2\n");
    expect(p.text("Cargo.toml")).toContain('version = "0.2.0"');
    expect(p.text("src/a.ts")).toContain("export function hello(name: string)");
    expect(p.text("messy.txt")).toBe("trailing\n");
  }, 120_000);
});
