import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fullTools } from "../../src/toolkit/index.js";
import { numbered, Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[], input?: string) {
  const r = spawnSync(BIN, [...args, "--root", root], { input, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const json = (stdout: string) => JSON.parse(stdout);

describe("the splice command", () => {
  it("reads, edits against the tag, and rolls back across separate processes", () => {
    const p = new Project();
    p.write("src/a.txt", numbered(5));
    const read = splice(p.root, ["read", "src/a.txt"]);
    expect(read.code).toBe(0);
    const tag = /^¶src\/a\.txt#([0-9A-F]{4})$/m.exec(read.stdout)![1]!;
    expect(read.stdout).toContain("3| line 3");

    const edit = splice(p.root, [
      "edit",
      "src/a.txt",
      "--hash",
      tag,
      "--ops",
      "replace 3:\n+THREE",
    ]);
    expect(edit.code).toBe(0);
    expect(edit.stdout).toContain("-line 3\n+THREE");
    expect(p.text("src/a.txt")).toContain("THREE");

    const history = splice(p.root, ["history", "src/a.txt"]);
    expect(history.stdout).toContain("2 versions");

    expect(splice(p.root, ["rollback", "src/a.txt"]).code).toBe(0);
    expect(p.text("src/a.txt")).toBe(numbered(5));
  });

  it("reads a range with path:range and prints JSON with --json", () => {
    const p = new Project();
    p.write("f.txt", numbered(10));
    const out = splice(p.root, ["read", "f.txt:4..5", "--json"]);
    const result = json(out.stdout);
    expect(result.results[0].content.split("\n").slice(1, 3)).toEqual(["4| line 4", "5| line 5"]);
  });

  it("takes ops and text from stdin", () => {
    const p = new Project();
    const write = splice(p.root, ["write", "new.txt", "--json"], "hello\nworld\n");
    const tag = json(write.stdout).results[0].file_hash;
    expect(p.text("new.txt")).toBe("hello\nworld\n");
    expect(splice(p.root, ["edit", "new.txt", "--hash", tag], "delete 1\n").code).toBe(0);
    expect(p.text("new.txt")).toBe("world\n");
  });

  it("runs any tool with call and prints its JSON result", () => {
    const p = new Project();
    p.write("f.txt", "x\n");
    const out = splice(p.root, ["call", "read", '{"targets":[{"path":"f.txt"}]}']);
    expect(out.code).toBe(0);
    expect(json(out.stdout).results[0].content).toMatch(/^¶f\.txt#[0-9A-F]{4}\n1\| x$/);
  });

  it("answers bad calls with a JSON error and exit 1", () => {
    const p = new Project();
    const badJson = splice(p.root, ["call", "read", "{targets:"]);
    expect(badJson.code).toBe(1);
    expect(json(badJson.stdout).error.code).toBe("invalid_input");
    const unknown = splice(p.root, ["call", "frobnicate", "{}"]);
    expect(json(unknown.stdout).error).toMatchObject({ code: "unknown_tool" });
    expect(json(unknown.stdout).error.message).toContain(fullTools.map((t) => t.name).join(", "));
    const badArgs = splice(p.root, ["call", "edit", '{"targets":[{"path":"f.txt","ops":3}]}']);
    expect(json(badArgs.stdout).error.message).toContain("targets[0].ops");
    const missing = splice(p.root, ["call", "rollback", '{"path":"nope.txt","hash":""}']);
    expect(missing.code).toBe(1);
    expect(json(missing.stdout).error.code).toBe("not_found");
  });

  it("prints a human error with its code and exits 1", () => {
    const p = new Project();
    const out = splice(p.root, ["edit", "../x.txt", "--hash", "1A2B", "--ops", "delete 1"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^error \[guard\]: /);
  });

  it("explains itself with --help", () => {
    expect(execFileSync(BIN, ["--help"], { encoding: "utf8" })).toContain(
      "Usage: splice <command>",
    );
    expect(execFileSync(BIN, ["edit", "--help"], { encoding: "utf8" })).toContain("--hash TAG");
    expect(spawnSync(BIN, ["bogus"], { encoding: "utf8" }).status).toBe(2);
  });
});

describe("splice undo", () => {
  it("lists backup sessions and undoes the newest", () => {
    const p = new Project();
    p.write("f.txt", "one\n");
    expect(splice(p.root, ["write", "f.txt", "--text", "two\n"]).code).toBe(0);
    const list = splice(p.root, ["undo", "--list"]);
    expect(list.stdout).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6} {2}.* {2}1 file {2}\+1 -1 {2}f\.txt\n$/);
    const undo = splice(p.root, ["undo"]);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(/^Undid \d{8}-\d{6}-[0-9a-f]{6} \(undo it with: splice undo /);
    expect(p.text("f.txt")).toBe("one\n");
  });
});
