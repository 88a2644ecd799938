/** `splice history PATH`: one aligned line per version, saying what made it. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[]) {
  const r = spawnSync(BIN, [...args, "--root", root], { cwd: root, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("splice history PATH", () => {
  it("names the tool and session that made each version, in aligned columns", () => {
    const p = new Project();
    p.write("f.txt", "one\n");
    expect(splice(p.root, ["write", "f.txt", "--text", "two\n"]).code).toBe(0);
    expect(splice(p.root, ["edit", "f.txt", "--old", "two", "--new", "three"]).code).toBe(0);
    const r = splice(p.root, ["history", "f.txt"]);
    expect(r.code).toBe(0);
    const [root, head, ...rows] = r.stdout.trimEnd().split("\n");
    expect(root).toMatch(/^root /);
    expect(head).toMatch(/^f\.txt: 3 versions; current [0-9A-F]{4}$/);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(
      /^\* [0-9A-F]{4} {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}edit, cli +6 B {2}\d{8}-\d{6}-\w+$/,
    );
    expect(rows[1]).toMatch(/^ {2}[0-9A-F]{4} {2}\d{4}-.* {2}write, cli +4 B {2}\d{8}-/);
    expect(rows[2]).toMatch(/^ {2}[0-9A-F]{4} +outside splice \(replaced .*\) +4 B$/);
    // Every size sits in one column.
    const at = rows.map((row) => row.search(/\d+ B/));
    expect(new Set(at).size).toBe(1);
  });
});
