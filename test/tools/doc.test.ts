import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ToolError } from "../../src/errors.js";
import { type DocResult, docTool } from "../../src/tools/doc/index.js";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { Project, rejection } from "../helpers/project.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../formats/fixtures/${name}`, import.meta.url), "utf8");

function project(): Project {
  const p = new Project();
  p.write("package.json", fixture("package.json"));
  p.write("tsconfig.json", fixture("tsconfig.json"));
  p.write(".github/workflows/ci.yml", fixture("ci.yml"));
  p.write("Cargo.toml", fixture("Cargo.toml"));
  return p;
}

const doc = (p: Project, args: Record<string, unknown>) =>
  p.splice().call("doc", args) as Promise<DocResult>;

describe("doc tool", () => {
  it("sets a value and returns the shared result shape", async () => {
    const p = project();
    const r = await doc(p, {
      action: "set",
      path: "package.json",
      selector: "scripts.test",
      value: "vitest",
    });
    expect(r).toMatchObject({
      action: "doc.set",
      path: "package.json",
      changed: true,
      applied: true,
      warnings: [],
    });
    expect(r.header).toBe(`¶package.json#${r.file_hash}`);
    expect(r.backup_session).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(r.diff).toContain('-    "test": "vitest run",\n+    "test": "vitest",');
    expect(p.text("package.json")).toBe(
      fixture("package.json").replace('"vitest run"', '"vitest"'),
    );
  });

  it("changes every format in place", async () => {
    const p = project();
    await doc(p, {
      action: "append",
      path: ".github/workflows/ci.yml",
      selector: "jobs.release.needs",
      value: "lint",
    });
    expect(p.text(".github/workflows/ci.yml")).toBe(
      fixture("ci.yml").replace("needs: [build]", "needs: [build, lint]"),
    );
    await doc(p, { action: "set", path: "Cargo.toml", selector: "package.edition", value: "2024" });
    expect(p.text("Cargo.toml")).toBe(
      fixture("Cargo.toml").replace('edition = "2021"', 'edition = "2024"'),
    );
    await doc(p, {
      action: "delete",
      path: "tsconfig.json",
      selector: "compilerOptions.sourceMap",
    });
    expect(p.text("tsconfig.json")).toBe(
      fixture("tsconfig.json").replace('    "sourceMap": true,\n', ""),
    );
  });

  it("keeps a BOM and CRLF line endings", async () => {
    const p = new Project();
    p.write("settings.json", '\uFEFF{\r\n  "a": 1,\r\n  "b": [1, 2]\r\n}\r\n');
    await doc(p, {
      action: "merge",
      path: "settings.json",
      selector: "",
      value: { c: { d: true } },
    });
    expect(p.bytes("settings.json").toString()).toBe(
      '\uFEFF{\r\n  "a": 1,\r\n  "b": [1, 2],\r\n  "c": {\r\n    "d": true\r\n  }\r\n}\r\n',
    );
  });

  it("get returns the value and records the read, so line edits can use its tag", async () => {
    const p = project();
    const s = p.splice();
    const r = (await s.call("doc", {
      action: "get",
      path: "package.json",
      selector: "engines",
    })) as DocResult;
    expect(r).toMatchObject({
      action: "doc.get",
      value: { node: ">=18" },
      changed: false,
      diff: "",
    });
    expect(r.content).toBe(`¶package.json#${r.file_hash}\nengines = {\n  "node": ">=18"\n}`);
    await s.edit({
      targets: [
        { path: "package.json", file_hash: r.file_hash, ops: 'replace 3:\n+  "version": "3.0.0",' },
      ],
    });
    expect(p.text("package.json")).toContain('"version": "3.0.0"');
  });

  it("deleting a missing key is a no-op that says so", async () => {
    const p = project();
    const r = await doc(p, {
      action: "delete",
      path: "package.json",
      selector: "dependencies.lodash",
    });
    expect(r).toMatchObject({ action: "doc.delete", changed: false, removed: 0, diff: "" });
    expect(r.backup_session).toBeUndefined();
    expect(r.warnings).toEqual([
      "Nothing to delete: dependencies.lodash does not exist; the file was not written.",
    ]);
    expect(p.text("package.json")).toBe(fixture("package.json"));
  });

  it("delete_where reports how many items it removed", async () => {
    const p = project();
    const r = await doc(p, {
      action: "delete_where",
      path: "package.json",
      selector: "contributors",
      where: { email: "bot@example.com" },
    });
    expect(r).toMatchObject({ action: "doc.delete_where", removed: 1, changed: true });
  });

  it("errors are coded sentences and write nothing", async () => {
    const p = project();
    const scalar = await rejection(
      doc(p, { action: "set", path: "package.json", selector: "name.x", value: 1 }),
    );
    expect(scalar).toMatchObject({ code: "invalid_input", details: { path: "package.json" } });
    expect(scalar.message).toContain("has no keys or items");
    const range = await rejection(
      doc(p, {
        action: "set",
        path: ".github/workflows/ci.yml",
        selector: "jobs.build.steps[7]",
        value: {},
      }),
    );
    expect(range.message).toContain("[7] is out of range");
    p.write("broken.yaml", "a: 1\n  b: 2\n");
    const broken = await rejection(
      doc(p, { action: "set", path: "broken.yaml", selector: "a", value: 2 }),
    );
    expect(broken.code).toBe("invalid_input");
    expect(broken.message).toContain("does not parse as YAML at line 1, column 4: Nested mappings");
    expect(p.text("broken.yaml")).toBe("a: 1\n  b: 2\n");
    const missing = await rejection(
      doc(p, { action: "get", path: "Cargo.toml", selector: "package.homepage" }),
    );
    expect(missing).toBeInstanceOf(ToolError);
    expect(missing).toMatchObject({ code: "not_found", details: { path: "Cargo.toml" } });
    expect(p.text("package.json")).toBe(fixture("package.json"));
  });

  it("knows formats by name, and takes an explicit one", async () => {
    const p = new Project();
    p.write(".babelrc", '{\n  // presets\n  "presets": []\n}\n');
    const unknown = await rejection(
      doc(p, { action: "get", path: ".babelrc", selector: "presets" }),
    );
    expect(unknown.message).toContain('Pass "format"');
    await doc(p, {
      action: "append",
      path: ".babelrc",
      selector: "presets",
      value: "@babel/env",
      format: "jsonc",
    });
    expect(p.text(".babelrc")).toBe('{\n  // presets\n  "presets": [\n    "@babel/env"\n  ]\n}\n');
  });

  it("previews and checks without writing", async () => {
    const p = project();
    const preview = await doc(p, {
      action: "set",
      path: "package.json",
      selector: "version",
      value: "3.0.0",
      mode: "preview",
    });
    expect(preview).toMatchObject({ applied: false, changed: true });
    expect(preview.diff).toContain('+  "version": "3.0.0",');
    expect(p.text("package.json")).toBe(fixture("package.json"));
    const check = await rejection(
      doc(p, {
        action: "set",
        path: "package.json",
        selector: "version",
        value: "3.0.0",
        mode: "check",
      }),
    );
    expect(check.code).toBe("check_failed");
    const same = await doc(p, {
      action: "ensure",
      path: "package.json",
      selector: "version",
      value: "9",
      mode: "check",
    });
    expect(same.changed).toBe(false);
  });

  it("undo restores the file", async () => {
    const p = project();
    const s = p.splice();
    await s.call("doc", { action: "delete", path: "Cargo.toml", selector: "dev-dependencies" });
    expect(p.text("Cargo.toml")).not.toContain("insta");
    const undone = (await s.undo({})) as UndoResult;
    expect(undone.files.map((f) => f.action)).toEqual(["restore"]);
    expect(p.text("Cargo.toml")).toBe(fixture("Cargo.toml"));
  });

  it("is listed, needs approval to write, and names what it writes", () => {
    const s = new Project().splice();
    expect(s.tools.map((t) => t.name)).toContain("doc");
    expect(s.describe("doc", { action: "get", path: "a.json", selector: "x" })).toMatchObject({
      needs_approval: false,
      summary: "doc.get x in a.json",
    });
    expect(
      s.describe("doc", { action: "set", path: "a.json", selector: "x", value: 1 }).needs_approval,
    ).toBe(true);
    expect(
      s.schedule([
        { name: "doc", args: { action: "set", path: "a.json", selector: "x", value: 1 } },
        { name: "doc", args: { action: "get", path: "a.json", selector: "x" } },
      ]),
    ).toEqual([[0], [1]]);
  });
});

describe("doc manual", () => {
  it("quotes the tool's real error sentences", async () => {
    const p = project();
    const messages = await Promise.all([
      rejection(doc(p, { action: "set", path: "package.json", selector: "name.x", value: 1 })),
      rejection(doc(p, { action: "set", path: "package.json", selector: "files[9]", value: 1 })),
      rejection(
        doc(p, {
          action: "set",
          path: ".github/workflows/ci.yml",
          selector: "jobs.build.env.A",
          value: 1,
        }),
      ),
    ]).then((errors) => errors.map((e) => e.message));
    const description = docTool.manual;
    expect(messages[0]).toContain("which has no keys or items");
    expect(description).toContain("which has no keys or items");
    expect(messages[1]).toContain('Use the "append" action');
    expect(description).toContain('Use the "append" action');
    expect(messages[2]).toContain("it lives inside the anchor");
    expect(description).toContain("it lives inside the anchor");
    expect(description).toContain("does not parse as YAML at line");
    for (const action of ["get", "set", "delete", "delete_where", "append", "merge", "ensure"]) {
      expect(description).toContain(`"action": "${action}"`);
    }
  });
});
