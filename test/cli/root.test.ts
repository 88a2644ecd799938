import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findRoot, rootPath, rootPositionals } from "../../src/cli/root.js";
import { numbered, Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

/** The command as a person runs it: no --root, standing in `cwd`. */
function spliceIn(cwd: string, args: string[]) {
  const r = spawnSync(BIN, args, { cwd, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function gitProject(): Project {
  const p = new Project();
  mkdirSync(join(p.root, ".git"));
  p.write("go/main.go", "package main\n");
  p.write("py/x.py", numbered(3));
  return p;
}

describe("the project root", () => {
  it("is the nearest folder up holding .splice/ or .git, else the current folder", () => {
    const p = gitProject();
    expect(findRoot(join(p.root, "go"))).toEqual({ root: p.root, reason: ".git" });
    const bare = new Project();
    mkdirSync(join(bare.root, "a/b"), { recursive: true });
    // A .splice/ in the home folder (or at /) is history left there, not a project.
    mkdirSync(join(bare.root, ".splice"));
    expect(findRoot(join(bare.root, "a/b"), [bare.root, "/"])).toEqual({
      root: join(bare.root, "a/b"),
      reason: "current folder",
    });
    mkdirSync(join(bare.root, "a/.splice"));
    expect(findRoot(join(bare.root, "a/b"))).toEqual({
      root: join(bare.root, "a"),
      reason: ".splice",
    });
  });

  it("turns paths typed below the root into root paths, and leaves others as typed", () => {
    expect(rootPath("/p", "/p/go", "main.go")).toBe("go/main.go");
    expect(rootPath("/p", "/p/go", "../py/x.py")).toBe("py/x.py");
    expect(rootPath("/p", "/p/go", ".")).toBe("go");
    expect(rootPath("/p", "/p/go", "..")).toBe(".");
    expect(rootPath("/p", "/p", "go/main.go")).toBe("go/main.go");
    // A script standing elsewhere with --root names root paths, as before.
    expect(rootPath("/p", "/elsewhere", "go/main.go")).toBe("go/main.go");
    expect(rootPath("/p", "/p/go", "/abs/x")).toBe("/abs/x");
    expect(rootPath("/p", "/p/go", "-")).toBe("-");
    const toRoot = (s: string) => `R/${s}`;
    const args = [{ name: "PATTERN" }, { name: "PATHS", path: true, variadic: true }];
    expect(rootPositionals(args, ["p", "a", "b"], toRoot)).toEqual(["p", "R/a", "R/b"]);
  });

  it("keeps one history at the project's root when run from a subfolder", () => {
    const p = gitProject();
    const go = join(p.root, "go");
    const read = spliceIn(go, ["read", "main.go", "../py/x.py"]);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain("¶go/main.go#");
    expect(read.stdout).toContain("¶py/x.py#");
    expect(existsSync(join(go, ".splice"))).toBe(false);
    expect(existsSync(join(p.root, ".splice"))).toBe(true);
    const tag = /¶py\/x\.py#([0-9A-F]{4})/.exec(read.stdout)![1]!;
    const edit = spliceIn(join(p.root, "py"), ["edit", "x.py", "--hash", tag, "--ops", "delete 1"]);
    expect(edit.code).toBe(0);
    expect(p.text("py/x.py")).toBe("line 2\nline 3\n");
    // The edit made in py/ is in the history seen from go/.
    const list = spliceIn(go, ["undo", "--list", "--json"]);
    expect(JSON.parse(list.stdout).sessions).toHaveLength(1);
  });

  it("says which root it chose, in --verbose and in history's header", () => {
    const p = gitProject();
    const go = join(p.root, "go");
    const read = spliceIn(go, ["read", "main.go", "--verbose"]);
    // (After the line that says whether the engine ran it.)
    expect(read.stderr.split("\n").at(-2)).toBe(
      `splice: root ${p.root} (nearest folder holding .git)`,
    );
    // The read made the root's .splice/, which is now the nearer mark.
    const history = spliceIn(go, ["history", "main.go"]);
    expect(history.stdout.split("\n")[0]).toBe(`root ${p.root} (nearest folder holding .splice)`);
    const flagged = spliceIn(go, ["read", "main.go", "--root", go, "--verbose"]);
    expect(flagged.stderr.split("\n").at(-2)).toBe(`splice: root ${go} (from --root)`);
    expect(flagged.stdout).toContain("¶main.go#");
  });
});
