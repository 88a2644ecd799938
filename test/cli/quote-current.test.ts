/**
 * On the command line the file as it is now is the truth: a person's --old
 * quote applies when it is found exactly once in the current file, even when
 * the CLI session last saw another version (a `git checkout` in between).
 * Line ops against a tag, and every host's calls, keep the seen-version guard.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[]) {
  const r = spawnSync(BIN, args, { cwd: root, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A git repository with f.txt committed, edited through the CLI, then checked out again. */
function checkedOut(): { p: Project; tag: string } {
  const p = new Project();
  const git = (...args: string[]) => {
    execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd: p.root });
  };
  git("init", "-q");
  p.write("f.txt", "a = 1\nb = 2\n");
  git("add", "f.txt");
  git("commit", "-qm", "f");
  const edited = splice(p.root, ["edit", "f.txt", "--old", "a = 1", "--new", "a = 1  # y"]);
  expect(edited.code).toBe(0);
  git("checkout", "--", "f.txt");
  expect(p.text("f.txt")).toBe("a = 1\nb = 2\n");
  return { p, tag: /^¶f\.txt#([0-9A-F]{4})$/m.exec(edited.stdout)![1]! };
}

describe("--old/--new quotes the file as it is now", () => {
  it("applies after a git checkout took the session's last view away", () => {
    const { p } = checkedOut();
    const r = splice(p.root, ["edit", "f.txt", "--old", "a = 1", "--new", "a = 2"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(p.text("f.txt")).toBe("a = 2\nb = 2\n");
  });

  it("a quote found twice now is still refused as ambiguous", () => {
    const { p } = checkedOut();
    p.write("f.txt", "a = 1\nb = 2\na = 1\n");
    const r = splice(p.root, ["edit", "f.txt", "--old", "a = 1", "--new", "a = 2"]);
    expect(r.code).toBe(1);
    expect(p.text("f.txt")).toBe("a = 1\nb = 2\na = 1\n");
  });

  it("line ops against the tag of a version that is gone still merge or refuse", () => {
    // The tag of the version the edit wrote, which the checkout replaced.
    const { p, tag } = checkedOut();
    const r = splice(p.root, ["edit", "f.txt", "--hash", tag, "--ops", "replace 1:\n+a = 3"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error \[conflict\]/);
    expect(p.text("f.txt")).toBe("a = 1\nb = 2\n");
  });

  it("a host's session keeps the seen-version guard", async () => {
    const { p } = checkedOut();
    const s = p.splice();
    await s.read({ targets: [{ path: "f.txt" }] });
    p.write("f.txt", "a = 1  # y\nb = 2\n");
    await s.read({ targets: [{ path: "f.txt" }] });
    p.write("f.txt", "a = 1\nb = 2\n");
    await expect(
      s.edit({ targets: [{ path: "f.txt", edits: [{ old_text: "a = 1", new_text: "a = 2" }] }] }),
    ).rejects.toMatchObject({ code: "conflict" });
  });
});
