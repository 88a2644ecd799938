import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

describe("createSplice's typed methods", () => {
  it("reach every tool by its camelCase name and return its typed result", async () => {
    const p = new Project();
    p.write("package.json", '{\n  "name": "x",\n  "scripts": {}\n}\n');
    p.write("src/a.ts", "export function greet() {\n  console.log('hi');\n}\n");
    const s = p.splice({ lsp: false });

    const listed = await s.list({ path: "." });
    expect(listed.content).toContain("src/");
    const found = await s.search({ pattern: "greet" });
    expect(found.content).toContain("src/a.ts");
    const outline = await s.outline({ path: "src/a.ts" });
    expect(outline.content).toContain("greet");

    const set = await s.doc({
      path: "package.json",
      action: "set",
      selector: "scripts.test",
      value: "vitest",
    });
    expect(set.changed).toBe(true);
    expect(p.text("package.json")).toContain('"test": "vitest"');

    const rewritten = await s.astEdit({
      ops: [{ pat: "console.log($$$A)", out: "logger.info($$$A)" }],
      paths: ["src"],
    });
    expect(rewritten.matches).toBe(1);
    expect(p.text("src/a.ts")).toContain("logger.info('hi')");

    const renamed = await s.astRename({ name: "greet", new_name: "welcome", paths: ["src"] });
    expect(renamed.files_changed).toBe(1);
    const ran = await s.run({ command: "echo ok" });
    expect(ran.exit_code).toBe(0);
    const undone = await s.undo({});
    expect("files" in undone && undone.files.length).toBe(1); // the newest call: the rename
    expect(p.text("src/a.ts")).toContain("logger.info");
    expect(p.text("src/a.ts")).toContain("greet");
  });
});
