import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { numbered, Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[], input = "") {
  const r = spawnSync(BIN, [...args, "--root", root], { cwd: root, input, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The command with a pseudo-terminal for stdin, as a person typing it gets. */
function spliceOnTerminal(root: string, args: string[]) {
  const line = [BIN, ...args, "--root", root].map((a) => `'${a.replaceAll("'", "'\\''")}'`);
  const r = spawnSync("script", ["-qec", line.join(" "), "/dev/null"], {
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: r.status, out: r.stdout };
}

describe("exit codes a script can trust", () => {
  it("exits 1 when a file to read is missing, though the others are printed (the error on stderr)", () => {
    const p = new Project();
    p.write("a.txt", numbered(2));
    const r = splice(p.root, ["read", "a.txt", "nonexist.ts"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("1| line 1");
    expect(r.stdout).not.toContain("error");
    expect(r.stderr).toContain(
      "error [not_found]: nonexist.ts does not exist. Check the path, or create it with splice write.",
    );
    // JSON keeps the model's words, and no field the tool's JSON never had.
    const json = JSON.parse(splice(p.root, ["read", "nonexist.ts", "--json"]).stdout);
    expect(json.results[0].error).toEqual({
      code: "not_found",
      message: "nonexist.ts does not exist. Check the path, or create it with the write tool.",
    });
  });

  it("exits 1 when a symbol is not found", () => {
    const p = new Project();
    p.write("a.ts", "export function parse() {}\n");
    const r = splice(p.root, ["read", "a.ts", "--symbol", "nope", "--json"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).results[0].error.code).toBe("not_found");
    expect(splice(p.root, ["read", "a.ts", "--symbol", "parse"]).code).toBe(0);
  });

  it("refuses a missing --ops-file or --file with a coded error, not a stack", () => {
    const p = new Project();
    p.write("a.txt", numbered(2));
    const edit = splice(p.root, ["edit", "a.txt", "--hash", "1A2B", "--ops-file", "nope.ops"]);
    expect(edit.code).toBe(1);
    expect(edit.stderr).toMatch(
      /^error \[not_found\]: Cannot read --ops-file nope\.ops: there is no such file\. It is relative to where you stand/,
    );
    expect(edit.stderr).not.toContain("    at ");
    const write = splice(p.root, ["write", "b.txt", "--file", "missing.txt", "--json"]);
    expect(write.code).toBe(1);
    expect(JSON.parse(write.stdout).error.code).toBe("not_found");
    const patch = splice(p.root, ["patch", "fix.diff"]);
    expect(patch.code).toBe(1);
    expect(patch.stderr).toContain("Cannot read patch fix.diff: there is no such file.");
  });

  it("says how to pass ops instead of waiting on a terminal's stdin", () => {
    const p = new Project();
    p.write("a.txt", numbered(2));
    const r = spliceOnTerminal(p.root, ["edit", "a.txt", "--hash", "1A2B"]);
    expect(r.code).toBe(2);
    expect(r.out).toContain(
      "splice edit: nothing is piped in; pass --ops TEXT or --ops-file FILE, or pipe it in",
    );
    expect(p.text("a.txt")).toBe(numbered(2));
  });

  it("write never empties a file from an empty stdin; --text '' does", () => {
    const p = new Project();
    p.write("f.txt", "keep\n");
    const r = splice(p.root, ["write", "f.txt"], "");
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "splice write: stdin was empty, and f.txt holds 5 bytes; nothing was written. To empty it, pass --text ''\n",
    });
    expect(p.text("f.txt")).toBe("keep\n");
    // A new file may start empty, and --text '' says it on purpose.
    expect(splice(p.root, ["write", "new.txt"], "").code).toBe(0);
    expect(splice(p.root, ["write", "f.txt", "--text", ""]).code).toBe(0);
    expect(p.text("f.txt")).toBe("");
  });

  it("write with stdin on a terminal is a usage error, not a wait", () => {
    const p = new Project();
    p.write("f.txt", "keep\n");
    const r = spliceOnTerminal(p.root, ["write", "f.txt"]);
    expect(r.code).toBe(2);
    expect(r.out).toContain("splice write: nothing is piped in; pass --text TEXT or --file FILE");
    expect(p.text("f.txt")).toBe("keep\n");
  });

  it("lists the exit codes in --help", () => {
    const r = spawnSync(BIN, ["--help"], { encoding: "utf8" });
    expect(r.stdout).toMatch(/Exit codes:\n {2}0 +done[\s\S]*?\n {2}1 +a tool said no/);
  });
});
