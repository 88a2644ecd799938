import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliMessage } from "../../src/cli/advice.js";
import type { ToolError } from "../../src/errors.js";
import type { SpliceEvent } from "../../src/events.js";
import type { SearchResult, Toolkit } from "../../src/index.js";
import { searchTool } from "../../src/tools/search/index.js";
import { Project, rejection } from "../helpers/project.js";

const search = (p: Project, args: unknown, options = {}) =>
  callAs<SearchResult>(p.splice(options), "search", args);

const callAs = <T>(toolkit: Toolkit, name: string, args: unknown) =>
  toolkit.call(name, args) as Promise<T>;

describe("search", () => {
  it("searches literally by default, so regex characters match themselves", async () => {
    const p = new Project();
    p.write("a.ts", "call(a.b)\ncall(axb)\n");
    const literal = await search(p, { pattern: "(a.b)" });
    expect(literal.content).toBe("a.ts:1: call(a.b)");
    expect(literal.hits).toEqual([{ path: "a.ts", line: 1, text: "call(a.b)" }]);
    expect(literal.matches).toBe(1);
    expect(literal.files).toBe(1);
    const regex = await search(p, { pattern: "\\(a.b\\)", regex: true });
    expect(regex.content).toBe("a.ts:1: call(a.b)\na.ts:2: call(axb)");
    const lookaround = await search(p, { pattern: "(?<=call\\()axb", regex: true });
    expect(lookaround.matches).toBe(1);
  });

  it("refuses a pattern too long for one ripgrep argument, saying the limit", async () => {
    const p = new Project();
    p.write("a.ts", `${"x".repeat(16_384)}\n`);
    expect((await search(p, { pattern: "x".repeat(16_384) })).matches).toBe(1);
    const error = await rejection(search(p, { pattern: "x".repeat(140_000) }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/a pattern may have at most 16,384 characters/);
  });

  it("matches regardless of case with ignore_case", async () => {
    const p = new Project();
    p.write("r.md", "Hello\nHELLO\nhello\n");
    expect((await search(p, { pattern: "hello" })).matches).toBe(1);
    expect((await search(p, { pattern: "hello", ignore_case: true })).matches).toBe(3);
  });

  it("narrows by glob, one or several, negations included", async () => {
    const p = new Project();
    p.write("src/a.ts", "needle\n");
    p.write("src/a.test.ts", "needle\n");
    p.write("src/b.js", "needle\n");
    expect((await search(p, { pattern: "needle", glob: "*.ts" })).content).toBe(
      "src/a.test.ts:1: needle\n\nsrc/a.ts:1: needle",
    );
    const two = await search(p, { pattern: "needle", glob: ["*.ts", "!*.test.ts"] });
    expect(two.content).toBe("src/a.ts:1: needle");
    const inPath = await search(p, { pattern: "needle", path: "src/b.js" });
    expect(inPath.content).toBe("src/b.js:1: needle");
  });

  it("lets a glob only narrow: files .gitignore excludes stay out", async () => {
    const p = new Project();
    p.write(".gitignore", "*.log\nbundle.min.js\ngen/\n");
    p.write("app.log", "needle\n");
    p.write("bundle.min.js", "needle\n");
    p.write("gen/api.ts", "needle\n");
    p.write("src/app.js", "needle\n");
    p.write("src/app.test.js", "needle\n");
    const paths = async (glob: string | string[]) =>
      (await search(p, { pattern: "needle", glob })).hits.map((h) => h.path);
    expect(await paths("*.js")).toEqual(["src/app.js", "src/app.test.js"]);
    expect(await paths("*.log")).toEqual([]);
    expect(await paths(["**/*.js", "!*.test.js"])).toEqual(["src/app.js"]);
    expect(await paths(["!*.test.js", "src/**"])).toEqual(["src/app.js"]);
    expect(await paths("bundle.min.js")).toEqual([]);
    expect(await paths("gen/**")).toEqual([]);
  });

  it("shows context lines as path-line- text, groups by file and marks gaps", async () => {
    const p = new Project();
    p.write("f.txt", "one\ntwo\nhit A\nthree\nfour\nfive\nsix\nhit B\nseven\n");
    p.write("g.txt", "hit C\n");
    const result = await search(p, { pattern: "hit", context: 1 });
    expect(result.content).toBe(
      [
        "f.txt-2- two",
        "f.txt:3: hit A",
        "f.txt-4- three",
        "--",
        "f.txt-7- six",
        "f.txt:8: hit B",
        "f.txt-9- seven",
        "",
        "g.txt:1: hit C",
      ].join("\n"),
    );
    expect(result.hits.map((h) => `${h.path}:${h.line}`)).toEqual([
      "f.txt:3",
      "f.txt:8",
      "g.txt:1",
    ]);
  });

  it("respects .gitignore files without a git repository, and skips binary files", async () => {
    const p = new Project();
    p.write(".gitignore", "dist/\n*.log\n");
    p.write("dist/bundle.js", "needle\n");
    p.write("debug.log", "needle\n");
    p.write("pkg/.gitignore", "gen.ts\n");
    p.write("pkg/gen.ts", "needle\n");
    p.write("pkg/src.ts", "needle\n");
    p.write("image.bin", Buffer.from("\u0000\u0001needle\n"));
    p.write(".config/settings.json", "needle\n");
    // A NUL byte far into the file, after a match rg has already seen.
    p.write(
      "late.bin",
      Buffer.concat([Buffer.from(`needle\n${"text\n".repeat(40_000)}`), Buffer.from([0])]),
    );
    const result = await search(p, { pattern: "needle" });
    expect(result.hits.map((h) => h.path)).toEqual([".config/settings.json", "pkg/src.ts"]);
    expect((await search(p, { pattern: "needle", path: "image.bin" })).matches).toBe(0);
  });

  it("never shows a binary file, even when the limit is reached before its NUL byte", async () => {
    const p = new Project();
    p.write("notes.txt", "needle one\n");
    p.write(
      "blob.bin",
      Buffer.concat([
        Buffer.from("needle\n".repeat(3000)),
        Buffer.from(`${"y".repeat(70_000)}\n`),
        Buffer.from([0, 1]),
      ]),
    );
    for (const limit of [1, 50, 2000]) {
      const result = await search(p, { pattern: "needle", limit });
      expect(result.hits.map((h) => h.path)).toEqual(["notes.txt"]);
      expect(result.truncated).toBe(false);
    }
    const named = await search(p, { pattern: "needle", path: "blob.bin", limit: 10 });
    expect(named.matches).toBe(0);
    expect(named.truncated).toBe(false);
  });

  it("skips dependency folders unless one is named as the path", async () => {
    const p = new Project();
    p.write("node_modules/lib/index.js", "needle\n");
    p.write("src/x.js", "needle\n");
    expect((await search(p, { pattern: "needle" })).hits.map((h) => h.path)).toEqual(["src/x.js"]);
    const named = await search(p, { pattern: "needle", path: "node_modules" });
    expect(named.hits.map((h) => h.path)).toEqual(["node_modules/lib/index.js"]);
  });

  it("never follows a link out of the root", async () => {
    const p = new Project();
    const outside = mkdtempSync(join(tmpdir(), "splice-outside-"));
    writeFileSync(join(outside, "secret.txt"), "needle from outside\n");
    p.write("inside.txt", "needle inside\n");
    symlinkSync(outside, join(p.root, "linked-dir"));
    symlinkSync(join(outside, "secret.txt"), join(p.root, "linked-file.txt"));
    const result = await search(p, { pattern: "needle" });
    expect(result.content).toBe("inside.txt:1: needle inside");
    expect(result.content).not.toContain("outside");
    const named = await rejection(search(p, { pattern: "needle", path: "linked-dir" }));
    expect(named.code).toBe("guard");
    expect(named.message).toContain("splice does not follow links out of the root");
  });

  it("never shows secret files or .splice, but finds templates such as .env.example", async () => {
    const p = new Project();
    p.write(".env", "API_KEY=needle-secret\n");
    p.write("config/.env.local", "needle-secret\n");
    p.write("certs/server.pem", "needle-secret\n");
    p.write(".splice/notes.txt", "needle-secret\n");
    p.write(".env.example", "API_KEY=needle-template\n");
    p.write("app.ts", "needle\n");
    const result = await search(p, { pattern: "needle" });
    expect(result.hits.map((h) => h.path)).toEqual([".env.example", "app.ts"]);
    expect(result.content).not.toContain("secret");
    const named = await rejection(search(p, { pattern: "needle", path: ".env" }));
    expect(named.code).toBe("guard");
    // With its own block list a project may read .env, and search finds it.
    const opened = await search(p, { pattern: "needle-secret" }, { read_blocklist: ["**/*.pem"] });
    expect(opened.hits.map((h) => h.path)).toEqual([".env", "config/.env.local"]);
  });

  it("caps the matches with a notice that says how to narrow", async () => {
    const p = new Project();
    p.write("a.txt", "x\nx\nx\n");
    p.write("b.txt", "x\nx\n");
    const result = await search(p, { pattern: "x", limit: 3 });
    expect(result.truncated).toBe(true);
    expect(result.matches).toBe(3);
    expect(result.content.split("\n").at(-1)).toMatch(
      /^\[showing 3 matches in [12] files; there are more, and which are shown can change between calls \(ripgrep searches files in parallel\)\. Narrow the search to a folder or file, with "glob" \(e\.g\. "\*\.ts"\) or with a more specific pattern, or raise "limit" \(now 3, at most 2000\)\]$/,
    );
    const exact = await search(p, { pattern: "x", limit: 5 });
    expect(exact.truncated).toBe(false);
    expect(exact.matches).toBe(5);
  });

  it("says so when nothing matches, with a hint for regex-looking patterns", async () => {
    const p = new Project();
    p.write("a.txt", "foo\n");
    const none = await search(p, { pattern: "fo+" });
    expect(none.content).toBe(
      '[no matches for "fo+" in .; the pattern was searched as literal text, pass "regex": true for a regular expression]',
    );
    expect(none.truncated).toBe(false);
  });

  it("says when nothing is shown because the files that match are binary or gitignored", async () => {
    const p = new Project();
    p.write(".gitignore", "gen/**\n");
    p.write("gen/api.ts", "export const Needle = 1;\n");
    p.write("data.bin", Buffer.concat([Buffer.from("Needle\n"), Buffer.from([0, 1])]));
    expect((await search(p, { pattern: "Needle", path: "data.bin" })).content).toBe(
      '[no matches for "Needle" in data.bin; data.bin is a binary file (it has a NUL byte), and search never shows binary files]',
    );
    expect((await search(p, { pattern: "Needle", glob: "*.bin" })).content).toBe(
      '[no matches for "Needle" in .; it matches only in binary files, which search never shows: data.bin]',
    );
    expect((await search(p, { pattern: "Needle", path: "gen" })).content).toBe(
      '[no matches for "Needle" in gen; it matches in files .gitignore excludes, which search skips, such as gen/api.ts. Name one as the path to search it, or read it]',
    );
    expect((await search(p, { pattern: "Needle", path: "gen/api.ts" })).matches).toBe(1);
  });

  it("cuts very long lines around the match", async () => {
    const p = new Project();
    p.write("min.js", `${"a".repeat(5000)}needle${"b".repeat(5000)}\n`);
    const { hits } = await search(p, { pattern: "needle" });
    expect(hits[0]!.text.length).toBeLessThanOrEqual(302);
    expect(hits[0]!.text).toContain("needle");
    expect(hits[0]!.text.startsWith("…")).toBe(true);
  });

  it("reports an invalid regex with ripgrep's explanation", async () => {
    const p = new Project();
    p.write("a.txt", "x\n");
    const error = await rejection(search(p, { pattern: "(unclosed", regex: true }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain('The pattern "(unclosed" is not valid: regex parse error');
    expect(error.message).toContain("unclosed group");
    expect(error.message).toContain('search the text literally ("regex": false).');
    expect(cliMessage(error as unknown as ToolError)).toContain(
      "search the text literally (without --regex).",
    );
    const glob = await rejection(search(p, { pattern: "x", glob: "[" }));
    expect(glob.code).toBe("invalid_input");
    expect(glob.message).toContain("A glob is not valid");
  });

  it("refuses paths outside the root and missing paths", async () => {
    const p = new Project();
    const outside = await rejection(search(p, { pattern: "x", path: "../" }));
    expect(outside.code).toBe("guard");
    const missing = await rejection(search(p, { pattern: "x", path: "nope" }));
    expect(missing.code).toBe("not_found");
    expect(missing.message).toContain("does not exist");
    const empty = await rejection(search(p, { pattern: "" }));
    expect(empty.code).toBe("invalid_input");
  });

  it("publishes a search_hits event and honours an aborted signal", async () => {
    const p = new Project();
    p.write("a.txt", "needle\n");
    const splice = p.splice();
    const events: SpliceEvent[] = [];
    splice.events.on((e) => events.push(e));
    await callAs<SearchResult>(splice, "search", { pattern: "needle" });
    expect(events).toEqual([
      { type: "search_hits", pattern: "needle", path: ".", matches: 1, files: ["a.txt"] },
    ]);
    const controller = new AbortController();
    controller.abort();
    const aborted = splice.call(
      "search",
      { pattern: "needle" },
      { signal: controller.signal },
    ) as Promise<SearchResult>;
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
  });

  it("has a manual with an example for every optional field and its real errors", () => {
    for (const field of ["path", "glob", "regex", "ignore_case", "context", "limit"]) {
      expect(searchTool.manual).toContain(`"${field}"`);
    }
    expect(searchTool.manual).toContain("is not valid");
    expect(searchTool.manual).toContain("does not exist");
    expect(searchTool.manual).toContain(
      "[showing 200 matches in 31 files; there are more, and which are shown can change",
    );
  });
});
