/** The bulk benchmark's project: 120 TypeScript test files with a tsconfig, so tsgo validates. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const BULK_FILES = 120;

/**
 * One test file: a few cases, each with `expect(...).toBe(...)` lines ast_edit
 * rewrites. A `version` above 0 heads it with a comment naming it, so that each
 * run of a benchmark changes versions history has not seen yet (as a real
 * change does), not ones it stored in the previous run.
 */
export function testFile(i: number, version = 0): string {
  const cases: string[] = [];
  for (let c = 0; c < 6; c++) {
    cases.push(`test("case ${i}.${c}", () => {
  const value = compute${i % 7}(${c}, ${i});
  expect(value).toBe(${c + i});
  expect(label(value)).toBe("v${c}");
  expect([value, ${c}].length).toBe(2);
});
`);
  }
  const head = version > 0 ? `// version ${version}\n` : "";
  return `${head}import { compute${i % 7}, label } from "../src/lib";
import { expect, test } from "../src/harness";

${cases.join("\n")}`;
}

/** Writes the project under `root` (its test files at `version`); returns the test paths relative to it. */
export function plantBulkProject(root: string, files = BULK_FILES, version = 0): string[] {
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(join(root, "test"), { recursive: true });
  writeFileSync(
    join(root, "tsconfig.json"),
    `${JSON.stringify({ compilerOptions: { strict: true, target: "es2022", module: "nodenext", noEmit: true }, include: ["src", "test"] }, null, 2)}\n`,
  );
  writeFileSync(join(root, "package.json"), `{"name": "bulk-fixture", "type": "module"}\n`);
  const computes = Array.from(
    { length: 7 },
    (_, k) =>
      `export function compute${k}(a: number, b: number): number {\n  return a + b * ${k};\n}\n`,
  );
  writeFileSync(
    join(root, "src", "lib.ts"),
    `${computes.join("\n")}\nexport function label(n: number): string {\n  return \`v\${n}\`;\n}\n`,
  );
  writeFileSync(
    join(root, "src", "harness.ts"),
    `export interface Matchers<T> {\n  toBe(expected: T): void;\n  toStrictEqual(expected: T): void;\n}\n\nexport function expect<T>(actual: T): Matchers<T> {\n  const fail = (expected: T) => {\n    if (actual !== expected) throw new Error(\`\${String(actual)} is not \${String(expected)}\`);\n  };\n  return { toBe: fail, toStrictEqual: fail };\n}\n\nexport function test(name: string, fn: () => void): void {\n  void name;\n  fn();\n}\n`,
  );
  const paths: string[] = [];
  for (let i = 0; i < files; i++) {
    const rel = `test/case-${String(i).padStart(3, "0")}.test.ts`;
    writeFileSync(join(root, rel), testFile(i, version));
    paths.push(rel);
  }
  return paths;
}
