/**
 * Edit validation against the real TypeScript 7 native server (tsgo), one warm
 * server for the whole file. Each test edits its own files, so they do not
 * depend on one another's order.
 */
import { afterAll, describe, expect, it } from "vitest";
import { clearImporterCache } from "../../src/lsp/dependents.js";
import type { EditResult } from "../../src/tools/edit/index.js";
import type { WriteResult } from "../../src/tools/write/index.js";
import { COLD, health, lspProject, REAL_SERVER_TIMEOUT_MS, source, TSCONFIG } from "./helpers.js";

const { project, registry, splice } = lspProject({
  "tsconfig.json": TSCONFIG,
  "src/math.ts": source(
    "export function add(a: number, b: number): number {",
    "  return a + b;",
    "}",
  ),
  "src/use.ts": source(
    'import { add } from "./math.js";',
    "",
    "export const total: number = add(1, 2);",
  ),
});

afterAll(() => registry.shutdown());

async function replace(path: string, old_text: string, new_text: string, extra = {}) {
  const { results } = await splice.edit({
    targets: [{ path, edits: [{ old_text, new_text }] }],
    ...extra,
  });
  return results[0]! as EditResult;
}

describe("validation with the TypeScript server", COLD, () => {
  it("fails an edit that introduces a type error, naming the error", async () => {
    project.write(
      "src/one.ts",
      source("export const name: string = 'splice';", "export const size = name.length;"),
    );
    const result = await replace(
      "src/one.ts",
      "export const size = name.length;",
      "export const size: string = name.length;",
    );
    expect(result.applied).toBe(true);
    expect(result.validation).toMatchObject({
      status: "failed",
      validation_confidence: "high",
      server: "tsgo",
      strategy: "pull",
      resolved_errors: [],
    });
    expect(result.validation!.introduced_errors).toEqual([
      {
        file: "src/one.ts",
        line: 2,
        column: 14,
        severity: "error",
        code: 2322,
        message: "Type 'number' is not assignable to type 'string'.",
        source: "ts",
      },
    ]);
    expect(result.warnings.at(-1)).toMatch(
      /^Validation failed: 1 new error\(s\) here: src\/one\.ts:2:14 \(2322\) Type 'number' is not assignable to type 'string'\. Fix them, or undo the edit\.$/,
    );
  });

  it("reports the errors an edit fixes as resolved", async () => {
    project.write(
      "src/two.ts",
      source("export const count: number = 'three';", "export const twice = count * 2;"),
    );
    const result = await replace(
      "src/two.ts",
      "export const count: number = 'three';",
      "export const count: number = 3;",
    );
    expect(result.validation).toMatchObject({ status: "passed", introduced_errors: [] });
    expect(result.validation!.resolved_errors).toMatchObject([
      {
        file: "src/two.ts",
        line: 1,
        code: 2322,
        message: "Type 'string' is not assignable to type 'number'.",
      },
    ]);
    expect(result.warnings).toEqual([]);
  });

  it("counts an existing error moved down by 10 lines as neither introduced nor resolved", async () => {
    project.write(
      "src/three.ts",
      source("// header", "export const flag: boolean = 'yes';", "export const other = 1;"),
    );
    const comments = Array.from({ length: 10 }, (_, i) => `// note ${i + 1}`).join("\n");
    const result = await replace("src/three.ts", "// header", `// header\n${comments}`);
    expect(result.validation).toMatchObject({
      status: "passed",
      validation_confidence: "high",
      introduced_errors: [],
      resolved_errors: [],
    });
  });

  it("validates in memory with validate_only and writes nothing", async () => {
    const text = source("export const ok: number = 1;");
    project.write("src/four.ts", text);
    const tried = await replace("src/four.ts", "= 1;", "= 'one';", { mode: "validate_only" });
    expect(tried).toMatchObject({ applied: false, changed: true });
    expect(tried.validation).toMatchObject({ status: "failed" });
    expect(tried.validation!.introduced_errors).toMatchObject([{ line: 1, code: 2322 }]);
    expect(project.text("src/four.ts")).toBe(text);
    // The server got the old text back: a real edit now is judged against it.
    const applied = await replace("src/four.ts", "= 1;", "= 2;");
    expect(applied.validation).toMatchObject({
      status: "passed",
      introduced_errors: [],
      resolved_errors: [],
    });
  });

  it("skips validation with validate: false", async () => {
    project.write("src/five.ts", source("export const v: number = 1;"));
    const result = await replace("src/five.ts", "= 1;", "= 'x';", { validate: false });
    expect(result.applied).toBe(true);
    expect(result.validation).toBeUndefined();
  });

  it("validates write and rollback too", async () => {
    const { results } = await splice.write({
      targets: [{ path: "src/six.ts", text: source("export const six: string = 6;") }],
    });
    const written = results[0]! as WriteResult;
    expect(written.validation).toMatchObject({ status: "failed" });
    expect(written.validation!.introduced_errors).toMatchObject([{ line: 1, code: 2322 }]);
    await splice.write({
      targets: [{ path: "src/six.ts", text: source("export const six = 6;") }],
    });
    const back = await splice.rollback({ path: "src/six.ts", hash: "" });
    expect(back.validation).toMatchObject({ status: "failed" });
  });

  it("validates what undo restores", async () => {
    await splice.write({
      targets: [{ path: "src/undone.ts", text: source("export const undone: string = 7;") }],
    });
    await splice.write({
      targets: [{ path: "src/undone.ts", text: source("export const undone = 7;") }],
    });
    const undone = await splice.undo({});
    const file = "files" in undone ? undone.files[0] : undefined;
    expect(file).toMatchObject({ path: "src/undone.ts", action: "restore" });
    expect(file!.validation).toMatchObject({ status: "failed" });
    expect(file!.warnings.join(" ")).toMatch(/Validation failed/);
  });

  it("reports errors the edit causes in files that import the edited one, separately", async () => {
    clearImporterCache();
    project.write(
      "src/shape.ts",
      source("export function area(side: number): number {", "  return side * side;", "}"),
    );
    project.write(
      "src/plot.ts",
      source('import { area } from "./shape.js";', "", "export const a: number = area(2);"),
    );
    const result = await replace(
      "src/shape.ts",
      "export function area(side: number): number {",
      "export function area(side: number, scale: number): number {",
    );
    expect(result.validation).toMatchObject({ status: "failed", introduced_errors: [] });
    expect(result.validation!.other_files).toMatchObject({
      checked: ["src/plot.ts"],
      introduced_errors: [{ file: "src/plot.ts", line: 3, code: 2554 }],
      resolved_errors: [],
    });
    expect(result.warnings.at(-1)).toContain("and 1 in other files: src/plot.ts:3:");
  });

  it("lists importers it had no time for as unchecked, without failing the edit", async () => {
    clearImporterCache();
    project.write("src/unit.ts", source("export const unit = 1;"));
    project.write(
      "src/user.ts",
      source('import { unit } from "./unit.js";', "export const u = unit;"),
    );
    const hurried = project.splice({
      lsp: { registry, timeoutMs: REAL_SERVER_TIMEOUT_MS, otherFilesMs: 0 },
    });
    const { results } = await hurried.edit({
      targets: [{ path: "src/unit.ts", edits: [{ old_text: "= 1;", new_text: "= 2;" }] }],
    });
    const validation = (results[0] as EditResult).validation!;
    expect(validation).toMatchObject({
      status: "passed",
      validation_confidence: "low", // nothing at all reported for unit.ts, before or after
      other_files: { checked: [], unchecked: ["src/user.ts"], introduced_errors: [] },
    });
    expect(validation.recovery_action).toBe(
      "tsgo reported nothing before or after the edit: the file is clean, or the server had not loaded the project. src/user.ts import the edited file and were not checked in time. Run npx tsc --noEmit to be sure.",
    );
  });

  it("restarts a server that was killed and validates the next edit correctly", async () => {
    project.write("src/seven.ts", source("export const seven: number = 7;"));
    await replace("src/seven.ts", "= 7;", "= 70;");
    const before = (await health(splice, "typescript")).servers[0]!;
    expect(before).toMatchObject({ status: "ready", strategy: "pull", restarts: 0 });
    process.kill(before.pid!, "SIGKILL");
    await expect
      .poll(async () => (await health(splice, "typescript")).servers[0]!.status)
      .toBe("crashed");
    const result = await replace("src/seven.ts", "= 70;", "= '70';");
    expect(result.validation).toMatchObject({ status: "failed", validation_confidence: "high" });
    expect(result.validation!.introduced_errors).toMatchObject([{ line: 1, code: 2322 }]);
    const after = (await health(splice, "typescript")).servers[0]!;
    expect(after).toMatchObject({ status: "ready", restarts: 1 });
    expect(after.pid).not.toBe(before.pid);
  });

  it("reports health and restarts a server on request", async () => {
    const status = await health(splice);
    expect(status.validation_default).toBe(true);
    expect(status.servers.map((s) => s.language)).toEqual([
      "typescript",
      "python",
      "go",
      "rust",
      "cpp",
    ]);
    expect(status.content).toMatch(
      /^Edit validation is on by default\.\ntypescript: tsgo ready; pull diagnostics; up /,
    );
    const python = status.servers.find((s) => s.language === "python")!;
    expect(python).toMatchObject({ server: "pyright", status: "not_started", installed: true });
    const restarted = (await splice.call("lsp_health", {
      language: "typescript",
      action: "restart",
    })) as Awaited<ReturnType<typeof health>>;
    expect(restarted.servers[0]).toMatchObject({ status: "ready" });
    expect(restarted.servers[0]!.restarts).toBeGreaterThan(status.servers[0]!.restarts);
    const edited = await replace("src/use.ts", "add(1, 2)", "add(1, 3)");
    expect(edited.validation).toMatchObject({ status: "passed" });
  });
});
