/**
 * typescript-language-server (TypeScript 5.9's tsserver) offers no pull
 * diagnostics: this file covers the push path and its medium confidence.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { EditResult } from "../../src/tools/edit/index.js";
import { COLD, lspProject, source, TSCONFIG } from "./helpers.js";

const { project, registry, splice } = lspProject(
  { "tsconfig.json": TSCONFIG },
  { typescript: "typescript-language-server" },
);

afterAll(() => registry.shutdown());

async function replace(path: string, old_text: string, new_text: string) {
  const { results } = await splice.edit({ targets: [{ path, edits: [{ old_text, new_text }] }] });
  return results[0]! as EditResult;
}

describe("validation with pushed diagnostics", COLD, () => {
  it("fails an edit that introduces an error, passes one that only moves it, resolves a fix", async () => {
    project.write(
      "src/a.ts",
      source("// top", "export const n: number = 'one';", "export const m = 2;"),
    );
    const broken = await replace("src/a.ts", "export const m = 2;", "export const m: string = 2;");
    expect(broken.validation).toMatchObject({
      status: "failed",
      validation_confidence: "medium",
      server: "typescript-language-server",
      strategy: "push",
    });
    expect(broken.validation!.introduced_errors).toMatchObject([
      { line: 3, code: 2322, source: "typescript" },
    ]);

    const moved = await replace("src/a.ts", "// top", `// top${"\n//".repeat(10)}`);
    expect(moved.validation).toMatchObject({
      status: "passed",
      introduced_errors: [],
      resolved_errors: [],
    });

    const fixed = await replace("src/a.ts", "export const m: string = 2;", "export const m = 2;");
    expect(fixed.validation).toMatchObject({ status: "passed", introduced_errors: [] });
    expect(fixed.validation!.resolved_errors).toMatchObject([{ line: 13, code: 2322 }]);
  });
});
