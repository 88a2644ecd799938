import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SpliceEvent } from "../../src/events.js";
import type { ListResult, Toolkit } from "../../src/index.js";
import { listTool } from "../../src/tools/list/index.js";
import { Project, rejection } from "../helpers/project.js";

const list = (p: Project, args: unknown, options = {}) =>
  callAs<ListResult>(p.splice(options), "list", args);

function sample(): Project {
  const p = new Project();
  p.write("src/main.ts", "x".repeat(10));
  p.write("src/util/strings.ts", "y".repeat(2048));
  p.write("docs/guide.md", "# guide\n");
  p.write("README.md", "hi\n");
  p.write("package.json", "{}\n");
  return p;
}

const callAs = <T>(toolkit: Toolkit, name: string, args: unknown) =>
  toolkit.call(name, args) as Promise<T>;

describe("list", () => {
  it("shows a folder's names at depth 1, folders first with a slash", async () => {
    const p = sample();
    const result = await list(p, {});
    expect(result.content).toBe("docs/\nsrc/\nREADME.md\npackage.json");
    expect(result.path).toBe(".");
    expect(result.truncated).toBe(false);
    expect(result.entries).toEqual([
      { path: "docs", kind: "directory" },
      { path: "src", kind: "directory" },
      { path: "README.md", kind: "file", size: 3 },
      { path: "package.json", kind: "file", size: 3 },
    ]);
    expect((await list(p, { path: "src" })).content).toBe("util/\nmain.ts");
    expect((await list(p, { path: "" })).content).toBe(result.content);
  });

  it("shows an indented tree with file sizes at depth 2 and more", async () => {
    const p = sample();
    expect((await list(p, { depth: 3 })).content).toBe(
      [
        "docs/",
        "  guide.md (8 bytes)",
        "src/",
        "  util/",
        "    strings.ts (2.0 KiB)",
        "  main.ts (10 bytes)",
        "README.md (3 bytes)",
        "package.json (3 bytes)",
      ].join("\n"),
    );
    const two = await list(p, { path: "src", depth: 2 });
    expect(two.content).toBe("util/\n  strings.ts (2.0 KiB)\nmain.ts (10 bytes)");
    expect(two.entries.map((e) => e.path)).toEqual([
      "src/util",
      "src/util/strings.ts",
      "src/main.ts",
    ]);
  });

  it("respects the root .gitignore and nested ones, negations included", async () => {
    const p = new Project();
    p.write(".gitignore", "*.log\nbuild/\n");
    p.write("app.log", "x");
    p.write("build/out.js", "x");
    p.write("keep.txt", "x");
    p.write("pkg/.gitignore", "*.tmp\n!important.log\n");
    p.write("pkg/a.tmp", "x");
    p.write("pkg/important.log", "x");
    p.write("pkg/other.log", "x");
    p.write("pkg/code.ts", "x");
    const result = await list(p, { depth: 2 });
    expect(result.content).toBe(
      ["pkg/", "  code.ts (1 bytes)", "  important.log (1 bytes)", "keep.txt (1 bytes)"].join("\n"),
    );
    // The root's rules still apply when a sub-folder is listed on its own.
    expect((await list(p, { path: "pkg" })).content).toBe("code.ts\nimportant.log");
  });

  it("lists an ignored folder when named, with a warning", async () => {
    const p = new Project();
    p.write(".gitignore", "build/\n");
    p.write("build/out.js", "x");
    const result = await list(p, { path: "build" });
    expect(result.content).toBe("out.js");
    expect(result.warnings).toEqual([
      "build is ignored by a .gitignore; its entries are listed because you named it.",
    ]);
  });

  it("does not enter dependency and cache folders, and says so", async () => {
    const p = new Project();
    p.write("node_modules/lib/index.js", "x");
    p.write("src/__pycache__/m.pyc", "x");
    p.write(".venv/bin/python", "x");
    p.write("src/m.py", "x");
    const result = await list(p, { depth: 3, include_hidden: true });
    expect(result.content).toBe(
      [
        "src/",
        "  m.py (1 bytes)",
        "[not entered: .venv/, node_modules/, src/__pycache__/ (dependency and cache folders); list one by its path to see inside]",
      ].join("\n"),
    );
    expect((await list(p, { path: "node_modules", depth: 2 })).content).toBe(
      "lib/\n  index.js (1 bytes)",
    );
  });

  it("hides names starting with a dot unless include_hidden, and never shows secrets or .git", async () => {
    const p = new Project();
    p.write(".eslintrc.json", "{}");
    p.write(".env", "TOKEN=1");
    p.write("server.pem", "key");
    p.write(".git/HEAD", "ref");
    p.write("a.txt", "x");
    expect((await list(p, {})).content).toBe("a.txt");
    expect((await list(p, { include_hidden: true })).content).toBe(".eslintrc.json\na.txt");

    const q = new Project();
    q.write(".hidden", "x");
    expect((await list(q, {})).content).toBe(
      '[no entries shown: 1 hidden (names starting with "."; pass include_hidden: true to see them)]',
    );
    const empty = new Project();
    mkdirSync(join(empty.root, "void"));
    expect((await list(empty, { path: "void" })).content).toBe("[empty folder]");
  });

  it("caps the listing with a notice that says how to see more", async () => {
    const p = new Project();
    for (let i = 1; i <= 5; i++) p.write(`f${i}.txt`, "x");
    const flat = await list(p, { limit: 3 });
    expect(flat.truncated).toBe(true);
    expect(flat.content).toBe(
      "f1.txt\nf2.txt\nf3.txt\n[showing 3 of 5 entries; to see more, raise limit (now 3, at most 5000)]",
    );

    const tree = new Project();
    for (let i = 1; i <= 4; i++) tree.write(`big/b${i}.txt`, "x");
    tree.write("small/s.txt", "x");
    tree.write("top.txt", "x");
    const capped = await list(tree, { depth: 2, limit: 5 });
    // Breadth first: every top-level name is shown before the deeper ones.
    expect(capped.content).toBe(
      [
        "big/",
        "  b1.txt (1 bytes)",
        "  b2.txt (1 bytes)",
        "  [2 more entries in big/ not shown]",
        "small/",
        "  [1 more entries in small/ not shown]",
        "top.txt (1 bytes)",
        '[showing 5 of 8 entries; to see more, list a deeper path such as "big", or raise limit (now 5, at most 5000)]',
      ].join("\n"),
    );
  });

  it("shows links inside the root as name -> target (loops as loops), hides links out of it, follows none", async () => {
    const p = new Project();
    const outside = mkdtempSync(join(tmpdir(), "splice-outside-"));
    writeFileSync(join(outside, "stolen.txt"), "secret");
    p.write("src/real.ts", "x");
    p.write("notes.txt", "x");
    symlinkSync(outside, join(p.root, "escape"));
    symlinkSync(join(outside, "stolen.txt"), join(p.root, "escape-file.txt"));
    symlinkSync("src", join(p.root, "alias"));
    symlinkSync("notes.txt", join(p.root, "notes-link.txt"));
    symlinkSync("gone.txt", join(p.root, "dangling.txt"));
    symlinkSync("loop-b", join(p.root, "loop-a"));
    symlinkSync("loop-a", join(p.root, "loop-b"));
    const result = await list(p, { depth: 3 });
    expect(result.content).toBe(
      [
        "src/",
        "  real.ts (1 bytes)",
        "alias -> src/",
        "dangling.txt -> gone.txt (missing)",
        "loop-a -> (a loop of links; it leads nowhere)",
        "loop-b -> (a loop of links; it leads nowhere)",
        "notes-link.txt -> notes.txt",
        "notes.txt (1 bytes)",
      ].join("\n"),
    );
    expect(result.content).not.toContain("stolen");
    expect(result.entries.find((e) => e.path === "alias")).toEqual({
      path: "alias",
      kind: "symlink",
      target: "src",
    });
  });

  it("shows a name with control characters escaped, in list, search and read alike", async () => {
    const p = new Project();
    const name = "notes.txt (5 bytes)\nmain.ts";
    p.write(name, "TODO\n");
    const s = p.splice();
    expect((await list(p, {})).content).toBe("notes.txt (5 bytes)\\nmain.ts");
    expect(((await s.call("search", { pattern: "TODO" })) as { content: string }).content).toBe(
      "notes.txt (5 bytes)\\nmain.ts:1: TODO",
    );
    const read = (await s.read({ targets: [{ path: name }] })).results[0]!;
    expect(read.content.split("\n")).toEqual([
      `¶notes.txt (5 bytes)\\nmain.ts#${read.file_hash}`,
      "1| TODO",
    ]);
  });

  it("refuses paths outside the root, files and missing folders with what to do next", async () => {
    const p = sample();
    const outside = await rejection(list(p, { path: "../" }));
    expect(outside.code).toBe("guard");
    expect(outside.message).toContain("resolves outside the project root");
    const file = await rejection(list(p, { path: "README.md" }));
    expect(file.code).toBe("invalid_input");
    expect(file.message).toBe(
      "README.md is a file, not a folder. Read it with the read tool, or list the folder that holds it.",
    );
    const missing = await rejection(list(p, { path: "nope" }));
    expect(missing.code).toBe("not_found");
    expect(missing.message).toContain("List its parent folder");
    const git = await rejection(list(p, { path: ".git" }));
    expect(git.code).toBe("guard");
    const bad = await rejection(list(p, { depth: 0 }));
    expect(bad.code).toBe("invalid_input");
  });

  it("publishes a files_listed event", async () => {
    const p = sample();
    const splice = p.splice();
    const events: SpliceEvent[] = [];
    splice.events.on((e) => events.push(e));
    await callAs<ListResult>(splice, "list", { path: "src", limit: 1 });
    expect(events).toEqual([{ type: "files_listed", path: "src", entries: 1, truncated: true }]);
  });

  it("has a manual that quotes its real notices and errors", () => {
    expect(listTool.manual).toContain("is a file, not a folder");
    expect(listTool.manual).toContain("does not exist");
    expect(listTool.manual).toContain(
      "[showing 500 of 1,840 entries; to see more, list a deeper path",
    );
    for (const field of ["depth", "include_hidden", "limit", "path"]) {
      expect(listTool.manual).toContain(`"${field}"`);
    }
  });
});
