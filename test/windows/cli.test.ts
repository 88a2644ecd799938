/**
 * The tool contract through the `splice` CLI of the Windows build, under
 * Wine, on a real folder of the Wine drive C:. A test that fails today for
 * a real Windows bug is `it.fails` with its reason: the lane stays green,
 * the map of failures is visible, and a fix that lands turns it red until
 * the mark is removed.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { knownBug, splice, type WinProject, wine, winProject } from "./wine.js";

const GREET = 'function greet(name) {\n  return "hi " + name;\n}\n';

let p: WinProject;
beforeAll(() => {
  wine();
  p = winProject();
});

/** `splice ARGS --root C:\…`. */
function at(args: string[], options: { input?: string; engine?: boolean } = {}) {
  return splice([...args, "--root", p.win], options);
}

function text(rel: string): string {
  return readFileSync(join(p.linux, rel), "utf8");
}

/** The version tag a read shows: `¶path#TAG`. */
function tagOf(rel: string): string {
  const ran = at(["read", rel]);
  const tag = /#([0-9A-F]{4})/.exec(ran.stdout)?.[1];
  if (!tag) throw new Error(`no tag in: ${ran.stdout}${ran.stderr}`);
  return tag;
}

describe("the CLI under Wine", () => {
  it("runs as win32", () => {
    const w = wine();
    const ran = splice(["--version"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/\d+\.\d+/);
    expect(w.argv[0]).toMatch(/node\.exe$/);
  });

  it("read", () => {
    p.put("read/greet.js", GREET);
    const ran = at(["read", "read/greet.js"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('2|   return "hi " + name;');
  });

  it("read through the warm engine (the default route)", () => {
    p.put("engine/greet.js", GREET);
    const ran = at(["read", "engine/greet.js"], { engine: true });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toContain("1| function greet(name) {");
    at(["engine", "stop"], { engine: true });
  });

  it("read takes a backslash path, relative and absolute", () => {
    p.put("slash/deep/a.txt", "alpha\n");
    const relative = at(["read", "slash\\deep\\a.txt"]);
    expect(relative.status, relative.stderr).toBe(0);
    expect(relative.stdout).toContain("1| alpha");
    const absolute = at(["read", `${p.win}\\slash\\deep\\a.txt`]);
    expect(absolute.status, absolute.stderr).toBe(0);
    expect(absolute.stdout).toContain("1| alpha");
  });

  it("search", () => {
    p.put("search/needle.txt", "hay\nneedle here\n");
    const ran = at(["search", "needle here", "search"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/needle\.txt:2:needle here/);
  });

  it("list", () => {
    p.put("list/one.txt", "1\n");
    p.put("list/two.txt", "2\n");
    const ran = at(["list", "list"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toContain("one.txt");
    expect(ran.stdout).toContain("two.txt");
  });

  it("outline", () => {
    p.put("outline/greet.js", GREET);
    const ran = at(["outline", "outline/greet.js"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toContain("function greet(name)");
  });

  it("write a new file", () => {
    const ran = at(["write", "write/new.txt", "--text", "fresh\n"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("write/new.txt")).toBe("fresh\n");
  });

  knownBug("write over a file (rename over a target held open: EPERM)", () => {
    p.put("write/old.txt", "old\n");
    const ran = at(["write", "write/old.txt", "--text", "new\n"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("write/old.txt")).toBe("new\n");
  });

  knownBug("edit by quote (rename over a target held open: EPERM)", () => {
    p.put("edit/greet.js", GREET);
    const ran = at(["edit", "edit/greet.js", "--old", '"hi "', "--new", '"hello "']);
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("edit/greet.js")).toContain('"hello "');
  });

  knownBug("edit by line ops against a tag (rename over a target held open: EPERM)", () => {
    p.put("ops/list.txt", "a\nb\nc\n");
    const tag = tagOf("ops/list.txt");
    const ran = at(["edit", "ops/list.txt", "--hash", tag, "--ops", "replace 2..2:\n+B"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("ops/list.txt")).toBe("a\nB\nc\n");
  });

  knownBug("patch, unified diff (rename over a target held open: EPERM)", () => {
    p.put("patch/u.txt", "one\ntwo\nthree\n");
    const diff =
      "--- a/patch/u.txt\n+++ b/patch/u.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n";
    const ran = at(["patch", "-", "--apply"], { input: diff });
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("patch/u.txt")).toBe("one\nTWO\nthree\n");
  });

  knownBug("patch, Codex format (rename over a target held open: EPERM)", () => {
    p.put("patch/c.txt", "one\ntwo\nthree\n");
    const codex =
      "*** Begin Patch\n*** Update File: patch/c.txt\n@@\n one\n-two\n+TWO\n three\n*** End Patch\n";
    const ran = at(["patch", "-", "--apply"], { input: codex });
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("patch/c.txt")).toBe("one\nTWO\nthree\n");
  });

  it("patch adding a file", () => {
    const codex = "*** Begin Patch\n*** Add File: patch/added.txt\n+made\n*** End Patch\n";
    const ran = at(["patch", "-", "--apply"], { input: codex });
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("patch/added.txt")).toBe("made\n");
  });

  knownBug("ast --rewrite --apply (rename over a target held open: EPERM)", () => {
    p.put("ast/log.js", "console.log(1);\nconsole.log(2);\n");
    const ran = at([
      "ast",
      "console.log($A)",
      "ast/log.js",
      "--rewrite",
      "logger.info($A)",
      "--apply",
    ]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("ast/log.js")).toBe("logger.info(1);\nlogger.info(2);\n");
  });

  it("ast finds code in an add-on grammar (Python)", () => {
    p.put("py/app.py", "def greet(name):\n    return name\n");
    const ran = at(["ast", "return $X", "py/app.py"]);
    expect(ran.stderr).not.toMatch(/panicked|OpenLib/);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toContain("return name");
  });

  knownBug("rename an identifier (rename over a target held open: EPERM)", () => {
    p.put("rename/r.js", "const total = 1;\nconsole.log(total);\n");
    const ran = at(["rename", "total", "sum", "rename/r.js", "--apply"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("rename/r.js")).toBe("const sum = 1;\nconsole.log(sum);\n");
  });

  knownBug("doc --set (rename over a target held open: EPERM)", () => {
    p.put("doc/package.json", '{\n  "name": "x",\n  "version": "1.0.0"\n}\n');
    const ran = at(["doc", "doc/package.json", "version", "--set", "1.1.0"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("doc/package.json")).toContain('"version": "1.1.0"');
  });

  knownBug("md --replace (rename over a target held open: EPERM)", () => {
    p.put("md/README.md", "# T\n\n## Install\n\nold\n\n## Use\n\nuse\n");
    const ran = at(["md", "md/README.md", "Install", "--replace", "new"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("md/README.md")).toContain("## Install\n\nnew\n");
  });

  it("mv", () => {
    p.put("mv/from.txt", "moving\n");
    const ran = at(["mv", "mv/from.txt", "mv/to.txt"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(existsSync(join(p.linux, "mv/from.txt"))).toBe(false);
    expect(text("mv/to.txt")).toBe("moving\n");
  });

  it("rm, then undo puts it back", () => {
    p.put("rm/gone.txt", "kept in history\n");
    const removed = at(["rm", "rm/gone.txt"]);
    expect(removed.status, removed.stderr).toBe(0);
    expect(existsSync(join(p.linux, "rm/gone.txt"))).toBe(false);
    const undone = at(["undo"]);
    expect(undone.status, undone.stderr).toBe(0);
    expect(text("rm/gone.txt")).toBe("kept in history\n");
  });

  it("run: cmd.exe runs the command, its status passed through", () => {
    const ran = at(["run", "echo hi"]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toContain("hi");
    const failed = at(["run", "exit 3"]);
    expect(failed.status).toBe(3);
  });

  knownBug("rollback to an earlier version (rename over a target held open: EPERM)", () => {
    p.put("rollback/r.txt", "v1\n");
    const first = tagOf("rollback/r.txt");
    p.put("rollback/r.txt", "v2\n");
    tagOf("rollback/r.txt");
    const ran = at(["rollback", "rollback/r.txt", first]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(text("rollback/r.txt")).toBe("v1\n");
  });

  knownBug(
    "checkpoint create, diff, restore (restore --apply says every file already held its content; cause not found yet)",
    () => {
      const q = winProject();
      q.put("c.txt", "before\n");
      const root = ["--root", q.win];
      expect(splice(["checkpoint", "create", "cp", ...root]).status).toBe(0);
      q.put("c.txt", "after\n");
      const diff = splice(["checkpoint", "diff", "cp", ...root]);
      expect(diff.status, diff.stderr).toBe(0);
      expect(diff.stdout).toContain("c.txt");
      const restore = splice(["checkpoint", "restore", "cp", "--apply", ...root]);
      expect(restore.status, restore.stderr).toBe(0);
      expect(readFileSync(join(q.linux, "c.txt"), "utf8"), restore.stdout + restore.stderr).toBe(
        "before\n",
      );
    },
  );
});
