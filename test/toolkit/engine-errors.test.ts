/**
 * Every error type an engine throws reaches the caller as a ToolError with
 * a stable code: in process, and on the command line as exit 1 (a tool
 * error), never exit 70 or MCP's `internal` (a bug in splice).
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { UnknownLanguageError } from "../../src/code/languages.js";
import { ToolError } from "../../src/errors.js";
import { DocError } from "../../src/formats/errors.js";
import { MediaError } from "../../src/media/error.js";
import { HunkError, PatchParseError } from "../../src/patch/errors.js";
import { OpsError } from "../../src/text/ops/parse.js";
import { engineToolError } from "../../src/toolkit/engine-errors.js";
import { WorkspaceError } from "../../src/workspace/workspace.js";
import { Project } from "../helpers/project.js";

const SRC = join(import.meta.dirname, "../../src");
const BIN = join(import.meta.dirname, "../../bin/splice");

/** Errors of the command line and the agent's own configuration, not of an engine behind a tool. */
const NOT_ENGINE = new Set(["UsageError", "ConfigError"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

function engineErrorTypes(): string[] {
  const names = sourceFiles(SRC).flatMap((path) =>
    [...readFileSync(path, "utf8").matchAll(/class (\w+Error) extends Error\b/g)].map((m) => m[1]!),
  );
  return names.filter((n) => !NOT_ENGINE.has(n) && n !== "ToolError").sort();
}

interface Case {
  /** The engine error the call makes the engine throw. */
  type: string;
  what: string;
  tool: string;
  /** The arguments; `$TAG` stands for a.txt's tag, from a read made first. */
  args: Record<string, unknown>;
  code: string;
  /** The tool adds the path it was called with. */
  path?: string;
}

const CASES: Case[] = [
  {
    type: "MediaError",
    what: "a notebook whose JSON is broken",
    tool: "notebook",
    args: { action: "delete", path: "broken.ipynb", cell: "1" },
    code: "corrupt",
    path: "broken.ipynb",
  },
  {
    type: "OpsError",
    what: "an op the DSL does not know",
    tool: "edit",
    args: { targets: [{ path: "a.txt", file_hash: "$TAG", ops: "frobnicate 3" }] },
    code: "invalid_input",
    path: "a.txt",
  },
  {
    type: "OpsError",
    what: "an op past the end of the file",
    tool: "edit",
    args: { targets: [{ path: "a.txt", file_hash: "$TAG", ops: "replace 9:\n+x" }] },
    code: "invalid_input",
    path: "a.txt",
  },
  {
    type: "DocError",
    what: "doc get of a missing key",
    tool: "doc",
    args: { action: "get", path: "c.json", selector: "b" },
    code: "not_found",
    path: "c.json",
  },
  {
    type: "DocError",
    what: "doc get in a file that does not parse",
    tool: "doc",
    args: { action: "get", path: "broken.json", selector: "a" },
    code: "invalid_input",
    path: "broken.json",
  },
  {
    type: "DocError",
    what: "doc set under a scalar",
    tool: "doc",
    args: { action: "set", path: "c.json", selector: "a.b", value: 1 },
    code: "invalid_input",
    path: "c.json",
  },
  {
    type: "DocError",
    what: "md on a heading that is not there",
    tool: "md",
    args: { action: "replace_section", path: "r.md", heading: "Nope", text: "x" },
    code: "not_found",
    path: "r.md",
  },
  {
    type: "PatchParseError",
    what: "a Codex patch with an unknown line",
    tool: "patch",
    args: { patch: "*** Begin Patch\n*** Frob File: a.txt\n*** End Patch\n" },
    code: "invalid_input",
  },
  {
    type: "HunkError",
    what: "a hunk whose old lines are not in the file",
    tool: "patch",
    args: { patch: "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n nope\n-two\n+2\n" },
    code: "not_found",
  },
  {
    type: "UnencodableError",
    what: "a write of an emoji into a Shift-JIS file",
    tool: "write",
    args: { targets: [{ path: "sjis.c", text: "/* 😀 */\n" }] },
    code: "unencodable",
    path: "sjis.c",
  },
  {
    type: "UnknownLanguageError",
    what: "ast_edit with a language splice does not parse",
    tool: "ast_edit",
    args: { ops: [{ pat: "a", out: "b" }], paths: ["x.ts"], lang: "cobol" },
    code: "invalid_input",
  },
  {
    type: "UnknownLanguageError",
    what: "outline with a language splice does not parse",
    tool: "outline",
    args: { path: ".", lang: "cobol" },
    code: "invalid_input",
  },
  {
    type: "WorkspaceError",
    what: "an edit of a file that does not exist",
    tool: "edit",
    args: { targets: [{ path: "nope.txt", edits: [{ old_text: "a", new_text: "b" }] }] },
    code: "not_found",
  },
  {
    type: "WorkspaceError",
    what: "a write over a folder",
    tool: "write",
    args: { targets: [{ path: "dir", text: "x\n" }] },
    code: "is_directory",
  },
];

function project(): Project {
  const p = new Project();
  p.write("a.txt", "one\ntwo\nthree\n");
  p.write("c.json", '{"a": 1}\n');
  p.write("broken.json", '{"a": \n');
  p.write("broken.ipynb", '{"cells": [\n');
  p.write("r.md", "# T\n\ntext\n");
  p.write("x.ts", "const a = 1;\n");
  p.write("dir/inner.txt", "x\n");
  p.write("sjis.c", iconv.encode("/* 吾輩は猫である。名前はまだ無い。 */\n", "shift_jis"));
  return p;
}

const withTag = (args: Record<string, unknown>, tag: string) =>
  JSON.parse(JSON.stringify(args).replaceAll("$TAG", tag)) as Record<string, unknown>;

describe("engine errors reach the caller as ToolErrors", () => {
  it("every engine error type has a case here", () => {
    const types = engineErrorTypes();
    expect(types.length).toBeGreaterThanOrEqual(6);
    expect(types).toEqual([...new Set(CASES.map((c) => c.type))].sort());
  });

  it("one that escapes its tool still gets a code from the toolkit", () => {
    const coded = [
      new OpsError("overlap", "ops overlap", 2),
      new DocError("ambiguous", "two keys"),
      new PatchParseError("bad line", 3),
      new HunkError("suspicious", "too far", 1),
      new UnknownLanguageError("cobol"),
      new MediaError("the notebook is not valid JSON"),
      new WorkspaceError("missing", "/r/a", "/r/a does not exist"),
      new WorkspaceError("escape", "/r/a", "/r now resolves outside"),
    ].map((e) => engineToolError(e)?.code);
    expect(coded).toEqual([
      "invalid_input",
      "ambiguous",
      "invalid_input",
      "suspicious",
      "invalid_input",
      "corrupt",
      "not_found",
      "guard",
    ]);
    expect(engineToolError(new RangeError("x"))).toBeUndefined();
  });

  it("an unknown language names it, and one whose grammar is not installed is needs_addon", () => {
    const unknown = engineToolError(new UnknownLanguageError("cobol"));
    expect(unknown?.code).toBe("invalid_input");
    expect(unknown?.details.language).toBe("cobol");
    const missing = new UnknownLanguageError("kotlin");
    Object.defineProperty(missing, "needsAddon", { value: true });
    const addon = engineToolError(missing);
    expect(addon?.code).toBe("needs_addon");
    expect(addon?.message).toBe(missing.message);
    expect(addon?.details.language).toBe("kotlin");
  });

  it.each(CASES)("$type: $what is $code", async (c) => {
    const p = project();
    const s = p.splice();
    const read = (await s.call("read", { targets: [{ path: "a.txt" }] })) as {
      results: { file_hash: string }[];
    };
    const error = await s.call(c.tool, withTag(c.args, read.results[0]!.file_hash)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe(c.code);
    if (c.path) expect((error as ToolError).details.path).toBe(c.path);
  });

  it("on the command line each is exit 1 with the code, not exit 70", () => {
    const p = project();
    const cli = (args: string[]) =>
      spawnSync(BIN, [...args, "--root", p.root], { encoding: "utf8", timeout: 30_000 });
    const read = cli(["call", "read", JSON.stringify({ targets: [{ path: "a.txt" }] })]);
    expect(read.status).toBe(0);
    const tag = JSON.parse(read.stdout).results[0].file_hash as string;
    const seen = CASES.map((c) => {
      const r = cli(["call", c.tool, JSON.stringify(withTag(c.args, tag))]);
      const code = r.status === 1 ? JSON.parse(r.stdout).error.code : r.stderr.slice(0, 200);
      return `${c.type} ${c.what}: exit ${r.status} ${code}`;
    });
    expect(seen).toEqual(CASES.map((c) => `${c.type} ${c.what}: exit 1 ${c.code}`));
  });
});
