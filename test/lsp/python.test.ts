/** Edit validation against the real pyright server (pull diagnostics, registered dynamically). */
import { afterAll, describe, expect, it } from "vitest";
import type { EditResult } from "../../src/tools/edit/index.js";
import { COLD, lspProject, source } from "./helpers.js";

const { project, registry, splice } = lspProject({
  "pyproject.toml": "[project]\nname = 'demo'\n",
  "demo/__init__.py": "",
  "demo/shapes.py": source("def area(side: int) -> int:", "    return side * side"),
  "demo/report.py": source("from demo.shapes import area", "", "total: int = area(3)"),
});

afterAll(() => registry.shutdown());

async function replace(path: string, old_text: string, new_text: string) {
  const { results } = await splice.edit({ targets: [{ path, edits: [{ old_text, new_text }] }] });
  return results[0]! as EditResult;
}

describe("validation with pyright", COLD, () => {
  it("fails an edit that introduces a type error, then resolves it when fixed", async () => {
    project.write("demo/config.py", source("name: str = 'demo'", "size: int = len(name)"));
    const broken = await replace("demo/config.py", "size: int = len(name)", "size: int = name");
    expect(broken.validation).toMatchObject({
      status: "failed",
      validation_confidence: "high",
      server: "pyright",
      strategy: "pull",
    });
    expect(broken.validation!.introduced_errors).toMatchObject([
      {
        file: "demo/config.py",
        line: 2,
        severity: "error",
        code: "reportAssignmentType",
        source: "Pyright",
      },
    ]);
    const fixed = await replace("demo/config.py", "size: int = name", "size: int = len(name)");
    expect(fixed.validation).toMatchObject({ status: "passed", introduced_errors: [] });
    expect(fixed.validation!.resolved_errors).toMatchObject([
      { line: 2, code: "reportAssignmentType" },
    ]);
  });

  it("reports a broken caller in another module", async () => {
    const result = await replace(
      "demo/shapes.py",
      "def area(side: int) -> int:",
      "def area(side: int, scale: int) -> int:",
    );
    expect(result.validation).toMatchObject({ status: "failed", introduced_errors: [] });
    expect(result.validation!.other_files).toMatchObject({
      checked: ["demo/report.py"],
      introduced_errors: [{ file: "demo/report.py", line: 3, code: "reportCallIssue" }],
    });
  });
});
