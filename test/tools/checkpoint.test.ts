import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { Project, rejection } from "../helpers/project.js";

interface Listed {
  path: string;
  kind: string;
  added: number;
  removed: number;
  mode_only?: boolean;
}
interface Diffed {
  changed_files?: Listed[];
  changed_files_more?: number;
  changed_counts: Record<string, number>;
  not_restorable?: { path: string; reason: string }[];
  content: string;
}
interface Restored {
  applied: boolean;
  backup_session?: string;
  files: { path: string; action: string; diff: string; warnings: string[] }[];
  not_restorable?: { path: string; reason: string }[];
  content: string;
}

/** Every file's bytes and mode, so a restore can be compared exactly. */
function tree(p: Project, rels: string[]): Map<string, [string, number]> {
  return new Map(rels.map((rel) => [rel, [p.bytes(rel).toString("base64"), p.mode(rel)]]));
}

function gitRepo(p: Project) {
  const git = (...args: string[]) => execFileSync("git", ["-C", p.root, ...args]);
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "base");
  return git;
}

describe.skipIf(process.env.SPLICE_TEST_REMOTE)("checkpoint tool", () => {
  it("diffs and restores a tree after git checkout . and rm -rf, byte for byte with modes", async () => {
    const p = new Project();
    p.write("a.txt", "committed a\n");
    p.write("b.txt", "committed b\n");
    p.write("tools/run.sh", "#!/bin/sh\necho hi\n", 0o755);
    for (let i = 0; i < 60; i++) p.write(`build/out/n${i}.txt`, `line ${i}\n`.repeat(i + 1), 0o640);
    p.write(".gitignore", "build/\n.splice/\n");
    const git = gitRepo(p);
    p.write("build/out/n3.txt", "local\n", 0o600); // ignored: not in the checkpoint
    p.write("a.txt", "local work on a\n");
    p.write("b.txt", "local work on b\nmore\n");
    const rels = ["a.txt", "b.txt", "tools/run.sh"];
    const before = tree(p, rels);
    const s = p.splice();
    const made = (await s.checkpoint({ action: "create", name: "work" })) as {
      noted: number;
      unwatched?: string[];
      content: string;
    };
    expect(made.noted).toBe(4); // .gitignore, a, b, tools/run.sh
    expect(made.unwatched).toEqual(["build"]);
    expect(made.content).toContain("Checkpoint work taken: 4 files noted");

    git("checkout", ".");
    rmSync(join(p.root, "tools"), { recursive: true });
    p.write("new/made.txt", "one\ntwo\n");
    const diff = (await s.checkpoint({ action: "diff", name: "work" })) as Diffed;
    expect(diff.changed_files).toEqual([
      { path: "a.txt", kind: "changed", added: 1, removed: 1 },
      { path: "b.txt", kind: "changed", added: 1, removed: 2 },
      { path: "new/made.txt", kind: "created", added: 2, removed: 0 },
      { path: "tools/run.sh", kind: "deleted", added: 0, removed: 2 },
    ]);
    expect(diff.changed_counts).toEqual({ created: 1, changed: 2, deleted: 1 });
    expect(diff.not_restorable).toBeUndefined();
    expect(diff.content).toContain("4 files changed (1 created, 2 changed, 1 deleted)");

    // A preview writes nothing and shows the diff it would write.
    const preview = (await s.checkpoint({ action: "restore", name: "work" })) as Restored;
    expect(preview.applied).toBe(false);
    expect(preview.content).toContain("nothing was written");
    expect(preview.files.find((f) => f.path === "a.txt")!.diff).toContain("+local work on a");
    expect(p.text("a.txt")).toBe("committed a\n");
    expect(existsSync(join(p.root, "new/made.txt"))).toBe(true);

    const applied = (await s.checkpoint({
      action: "restore",
      name: "work",
      apply: true,
    })) as Restored;
    expect(applied.applied).toBe(true);
    expect(applied.files.map((f) => [f.path, f.action])).toEqual([
      ["a.txt", "restore"],
      ["b.txt", "restore"],
      ["new/made.txt", "delete"],
      ["tools/run.sh", "restore"],
    ]);
    expect(tree(p, rels)).toEqual(before);
    expect(existsSync(join(p.root, "new/made.txt"))).toBe(false);
    const again = (await s.checkpoint({ action: "diff", name: "work" })) as Diffed;
    expect(again.changed_files).toBeUndefined();
    expect(again.content).toContain("Nothing changed since checkpoint work");

    // The restore is a backup session of its own: undoing it gives back the checked-out state.
    const undone = (await s.undo({ backup_session: applied.backup_session! })) as UndoResult;
    expect(undone.files).toHaveLength(4);
    expect(p.text("a.txt")).toBe("committed a\n");
    expect(p.text("new/made.txt")).toBe("one\ntwo\n");
    expect(existsSync(join(p.root, "tools/run.sh"))).toBe(false);
  });

  it("outlives the process, lists a mode-only change and puts the mode back", async () => {
    const p = new Project();
    p.write("script.sh", "echo hi\n", 0o644);
    p.write("data.txt", "data\n");
    await p.splice().checkpoint({ action: "create", name: "before" });
    chmodSync(join(p.root, "script.sh"), 0o755);
    writeFileSync(join(p.root, "data.txt"), "data\n"); // rewritten, same bytes: no change

    const s = p.splice(); // a new handle: the checkpoint was read back from .splice
    const list = (await s.checkpoint({ action: "list" })) as { checkpoints: { name: string }[] };
    expect(list.checkpoints.map((c) => c.name)).toEqual(["before"]);
    const diff = (await s.checkpoint({ action: "diff", name: "before" })) as Diffed;
    expect(diff.changed_files).toEqual([
      { path: "script.sh", kind: "changed", added: 0, removed: 0, mode_only: true },
    ]);
    expect(diff.content).toContain("changed script.sh (mode only)");
    await s.checkpoint({ action: "restore", name: "before", apply: true });
    expect(p.mode("script.sh")).toBe(0o644);
    expect(p.text("script.sh")).toBe("echo hi\n");
  });

  it("names a large untracked file it could not copy, and restores the rest", async () => {
    const p = new Project();
    p.write("big.bin", "x".repeat(1024 * 1024 + 5));
    p.write("small.txt", "s\n");
    const s = p.splice();
    const made = (await s.checkpoint({ action: "create", name: "c1" })) as {
      uncaptured?: string[];
    };
    expect(made.uncaptured).toEqual(["big.bin"]);
    p.write("big.bin", "y".repeat(1024 * 1024 + 5));
    p.write("small.txt", "t\n");
    const restored = (await s.checkpoint({
      action: "restore",
      name: "c1",
      apply: true,
    })) as Restored;
    expect(restored.not_restorable).toEqual([
      {
        path: "big.bin",
        reason: expect.stringContaining("no copy-on-write clones"),
      },
    ]);
    expect(restored.content).toContain("1 file cannot be restored");
    expect(p.text("small.txt")).toBe("s\n");
    expect(p.text("big.bin")[0]).toBe("y");
  });

  it("restores a tracked file over 1 MiB from git, where it noted only git's blob id", async () => {
    const p = new Project();
    const big = Buffer.alloc(2 * 1024 * 1024 + 3, "z\n");
    p.write("data/big.txt", big);
    gitRepo(p);
    const s = p.splice();
    const made = (await s.checkpoint({ action: "create", name: "g" })) as { uncaptured?: string[] };
    expect(made.uncaptured).toBeUndefined();
    const stored = JSON.parse(p.text(".splice/checkpoints/g.json"));
    expect(stored.files["data/big.txt"]).toMatchObject({
      git: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    expect(stored.files["data/big.txt"].sha).toBeUndefined();
    rmSync(join(p.root, "data/big.txt"));
    const diff = (await s.checkpoint({ action: "diff", name: "g" })) as Diffed;
    expect(diff.changed_files).toEqual([
      { path: "data/big.txt", kind: "deleted", added: 0, removed: 0 },
    ]);
    await s.checkpoint({ action: "restore", name: "g", apply: true });
    expect(p.bytes("data/big.txt").equals(big)).toBe(true);
  });

  it("refuses a bad or unknown name with what to do", async () => {
    const p = new Project();
    const s = p.splice();
    const bad = await rejection(s.checkpoint({ action: "create", name: "../x" }));
    expect(bad.code).toBe("invalid_input");
    expect(bad.message).toContain("cannot name a checkpoint");
    const none = await rejection(s.checkpoint({ action: "diff", name: "nope" }));
    expect(none.code).toBe("not_found");
    expect(none.message).toContain('There is no checkpoint "nope"');
  });
});
