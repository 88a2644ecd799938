/**
 * `splice undo` as a revert, as a person meets it: what it is about to
 * revert on stderr first, a conflict that says `--force` and writes nothing,
 * `--force` restoring wholesale, and `--list` marking what would conflict.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[]) {
  const r = spawnSync(BIN, [...args, "--root", root], { cwd: root, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("splice undo (a revert)", () => {
  it("names what it reverts, refuses an overlap with --force as the way out, and lists it", () => {
    const p = new Project();
    p.write("gone.txt", "bye\n");
    p.write("v.txt", "v = 0\nkeep\n");
    expect(splice(p.root, ["rm", "gone.txt"]).code).toBe(0);
    expect(splice(p.root, ["edit", "v.txt", "--old", "v = 0", "--new", "v = 1"]).code).toBe(0);
    // A failed edit opens no session: the next undo names the one it reaches before writing.
    expect(splice(p.root, ["edit", "v.txt", "--old", "nowhere", "--new", "x"]).code).not.toBe(0);
    writeFileSync(join(p.root, "v.txt"), "v = 2\nkeep\n");

    // (In the engine the root is watched: the outside write is listed too, as `outside`, newest.)
    const list = splice(p.root, ["undo", "--list"])
      .stdout.trimEnd()
      .split("\n")
      .filter((line) => !/ outside /.test(line));
    expect(list[0]).toMatch(/\(conflicts\) v\.txt$/);
    expect(list[1]).toMatch(/ gone\.txt$/);

    const refused = splice(p.root, ["undo"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("error [conflict]: Nothing was undone");
    expect(refused.stderr).toMatch(/v\.txt: line 1 changed since — outside splice at \d\d:\d\d\./);
    const id = list[0]!.split(" ")[0]!;
    expect(refused.stderr).toContain(`Run splice undo ${id} --force`);
    expect(refused.stderr).not.toContain('"force"');
    expect(p.text("v.txt")).toBe("v = 2\nkeep\n");

    const forced = splice(p.root, ["undo", id, "--force"]);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain(`splice undo: reverting ${id} (1 file, +1 -1): v.txt +1 -1\n`);
    expect(p.text("v.txt")).toBe("v = 0\nkeep\n");
  });
});
