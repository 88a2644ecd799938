import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[]) {
  const r = spawnSync(BIN, [...args, "--root", root], { cwd: root, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("splice checkpoint", () => {
  it("creates, diffs, previews and restores across processes; the restore undoes", () => {
    const p = new Project();
    p.write("src/a.ts", "export const a = 1;\n");
    p.write("bin/tool", "#!/bin/sh\necho tool\n", 0o755);
    const git = (...args: string[]) => execFileSync("git", ["-C", p.root, ...args]);
    git("init", "-q");
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "base");
    p.write("src/a.ts", "export const a = 2; // local\n");

    const made = splice(p.root, ["checkpoint", "create", "mine"]);
    expect(made).toMatchObject({ code: 0, stderr: "" });
    expect(made.stdout).toContain("Checkpoint mine taken: 2 files noted");
    git("checkout", ".");
    rmSync(join(p.root, "bin"), { recursive: true });

    const diff = splice(p.root, ["checkpoint", "diff", "mine"]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(/2 files changed \(0 created, 1 changed, 1 deleted\)/);
    expect(diff.stdout).toContain("deleted bin/tool (+0 -2)\nchanged src/a.ts (+1 -1)");

    const preview = splice(p.root, ["checkpoint", "restore", "mine"]);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain("nothing was written");
    expect(preview.stdout).toContain("+export const a = 2; // local");
    expect(existsSync(join(p.root, "bin/tool"))).toBe(false);

    const applied = splice(p.root, ["checkpoint", "restore", "mine", "--apply"]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(
      /^Restored checkpoint mine\. Run splice undo \S+ to put back what was there\./,
    );
    expect(p.text("src/a.ts")).toBe("export const a = 2; // local\n");
    expect(p.text("bin/tool")).toBe("#!/bin/sh\necho tool\n");
    expect(p.mode("bin/tool")).toBe(0o755);

    expect(splice(p.root, ["undo"]).code).toBe(0);
    expect(p.text("src/a.ts")).toBe("export const a = 1;\n");
    expect(existsSync(join(p.root, "bin/tool"))).toBe(false);
  });

  it("says what it needs when the action or name is wrong", () => {
    const p = new Project();
    const bad = splice(p.root, ["checkpoint", "make", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("say create, diff, restore, list");
    const none = splice(p.root, ["checkpoint", "diff", "nope"]);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain('There is no checkpoint "nope"');
    expect(none.stderr).toContain("splice checkpoint");
  });

  it("rm then undo brings a file back with its mode", () => {
    const p = new Project();
    p.write("run.sh", "#!/bin/sh\n", 0o750);
    expect(splice(p.root, ["rm", "run.sh"]).code).toBe(0);
    expect(splice(p.root, ["undo"]).code).toBe(0);
    expect(p.mode("run.sh")).toBe(0o750);
  });
});
