/**
 * When validation runs, and what it says when it cannot run well: missing,
 * dying and silent servers, files no server knows, projects without project
 * files. No real language server starts in this file.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ServerRegistry } from "../../src/lsp/registry.js";
import type { EditResult } from "../../src/tools/edit/index.js";
import type { WriteResult } from "../../src/tools/write/index.js";
import { Project } from "../helpers/project.js";
import { health, source } from "./helpers.js";

const SILENT = join(import.meta.dirname, "fixtures/silent-server.mjs");
const registry = new ServerRegistry({ startTimeoutMs: 5000 });
afterAll(() => registry.shutdown());

async function write(
  splice: ReturnType<Project["splice"]>,
  path: string,
  text: string,
  extra = {},
) {
  const { results } = await splice.write({ targets: [{ path, text }], ...extra });
  return results[0]! as WriteResult;
}

describe("when validation runs", () => {
  it("starts no server for a file outside any project of its language, and says why", async () => {
    const p = new Project();
    const splice = p.splice({ lsp: { registry } });
    const result = await write(splice, "src/a.ts", "export const a: string = 1;\n");
    expect(result.validation).toEqual({
      status: "skipped",
      validation_confidence: "none",
      introduced_errors: [],
      resolved_errors: [],
      reason:
        "No tsconfig.json, jsconfig.json, package.json (or similar) between src/a.ts and the root, so no TypeScript/JavaScript server was started.",
      recovery_action: 'Pass "validate": true to validate src/a.ts anyway.',
    });
    expect(result.warnings).toEqual([]);
    const status = await health(splice, "typescript");
    expect(status.servers[0]!.status).toBe("not_started");
  });

  it("adds nothing for a file no language server knows, unless asked", async () => {
    const p = new Project();
    p.write("package.json", "{}\n");
    const splice = p.splice({ lsp: { registry } });
    expect((await write(splice, "notes.md", "# notes\n")).validation).toBeUndefined();
    const asked = await write(splice, "notes.md", "# more notes\n", { validate: true });
    expect(asked.validation).toMatchObject({
      status: "skipped",
      validation_confidence: "none",
      reason: "No language server is known for notes.md.",
    });
  });

  it("skips a language whose server is missing, with the install hint as the recovery action", async () => {
    const p = new Project();
    p.write("go.mod", "module example.com/x\n");
    const splice = p.splice({
      lsp: { registry, servers: { go: { command: "splice-test-no-such-gopls" } } },
    });
    const result = await write(splice, "main.go", "package main\n");
    expect(result.applied).toBe(true);
    expect(result.validation).toMatchObject({
      status: "skipped",
      validation_confidence: "none",
      introduced_errors: [],
      reason: "splice-test-no-such-gopls was not found.",
      recovery_action:
        "No server for Go: install gopls (go install golang.org/x/tools/gopls@latest) or run go vet ./...",
    });
    expect(result.warnings).toEqual([
      "Not validated: splice-test-no-such-gopls was not found. No server for Go: install gopls (go install golang.org/x/tools/gopls@latest) or run go vet ./...",
    ]);
    const go = (await health(splice, "go")).servers[0]!;
    expect(go).toMatchObject({ status: "unavailable", installed: false });
  });

  it("skips a server that dies before answering, and says how to retry", async () => {
    const p = new Project();
    p.write("Cargo.toml", "[package]\nname = 'x'\n");
    const die = [
      "-e",
      "process.stderr.write('error: toolchain has no rust-analyzer'); process.exit(1)",
    ];
    const splice = p.splice({
      lsp: { registry, servers: { rust: { command: process.execPath, args: die } } },
    });
    const result = await write(splice, "src/main.rs", "fn main() {}\n");
    expect(result.validation).toMatchObject({ status: "skipped", validation_confidence: "none" });
    expect(result.validation!.reason).toMatch(
      /^rust-analyzer failed to start: the language server exited \(code 1: error: toolchain has no rust-analyzer\)$/,
    );
    expect(result.validation!.recovery_action).toBe(
      'No server for Rust: install rust-analyzer (rustup component add rust-analyzer) or run cargo check. Then call lsp_health with action "restart".',
    );
  });

  it("turns a server that never answers into a quick uncertain result, and stays usable", async () => {
    const p = new Project();
    p.write("pyproject.toml", "[project]\nname = 'x'\n");
    const splice = p.splice({
      lsp: {
        registry,
        timeout_ms: 1500,
        servers: { python: { command: process.execPath, args: [SILENT] } },
      },
    });
    for (const text of ["x = 1\n", "x = 2\n"]) {
      const started = Date.now();
      const result = await write(splice, "app.py", text);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(result.applied).toBe(true);
      expect(result.validation).toMatchObject({
        status: "uncertain",
        validation_confidence: "low",
        server: "pyright",
        introduced_errors: [],
        resolved_errors: [],
      });
      expect(result.validation!.reason).toMatch(
        /^pyright did not answer in time \(timed out after \d+ ms\)\.$/,
      );
      expect(result.validation!.recovery_action).toMatch(
        /^Call lsp_health, or lsp_health with action "restart"/,
      );
      expect(result.warnings.at(-1)).toMatch(
        /^Validation uncertain: pyright did not answer in time/,
      );
    }
  });

  it("validates only when asked in a toolkit whose default is off", async () => {
    const p = new Project();
    p.write("go.mod", "module example.com/x\n");
    const splice = p.splice({
      validate: false,
      lsp: { registry, servers: { go: { command: "splice-test-no-such-gopls" } } },
    });
    expect((await write(splice, "a.go", "package a\n")).validation).toBeUndefined();
    const asked = await write(splice, "a.go", "package b\n", { validate: true });
    expect(asked.validation?.status).toBe("skipped");
    expect((await health(splice)).validation_default).toBe(false);
  });

  it("writes nothing in validate_only mode, not even a new file", async () => {
    const p = new Project();
    p.write("go.mod", "module example.com/x\n");
    const splice = p.splice({
      lsp: { registry, servers: { go: { command: "splice-test-no-such-gopls" } } },
    });
    const created = await write(splice, "new.go", "package x\n", { mode: "validate_only" });
    expect(created).toMatchObject({ applied: false, changed: true, action: "create" });
    expect(created.validation?.status).toBe("skipped");
    expect(() => p.text("new.go")).toThrow();
    p.write("old.go", source("package x"));
    const { results } = await splice.edit({
      targets: [{ path: "old.go", edits: [{ old_text: "package x", new_text: "package y" }] }],
      mode: "validate_only",
    });
    expect((results[0] as EditResult).applied).toBe(false);
    expect(p.text("old.go")).toBe(source("package x"));
  });

  it("has no validator at all with lsp: false", async () => {
    const p = new Project();
    p.write("package.json", "{}\n");
    const splice = p.splice({ lsp: false });
    const result = await write(splice, "a.ts", "export const a = 1;\n", { validate: true });
    expect(result.validation).toBeUndefined();
    const status = await health(splice);
    expect(status).toMatchObject({ validation_default: false, servers: [] });
    expect(status.content).toMatch(/^Edit validation is not available/);
  });

  it("refuses an unknown language in lsp_health with the known ones", async () => {
    const splice = new Project().splice({ lsp: { registry } });
    await expect(splice.call("lsp_health", { language: "cobol" })).rejects.toMatchObject({
      code: "invalid_input",
      message:
        'The language servers could not be checked: unknown language "cobol"; the languages are typescript, python, go, rust, cpp.',
    });
  });
});
