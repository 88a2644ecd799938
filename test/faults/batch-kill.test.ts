/**
 * A batch killed between two renames is finished at the next open
 * (change/finish-batch.ts): a real child process applies a patch of several
 * files and SIGKILLs itself after the first rename (SPLICE_TEST_KILL_AFTER_RENAMES,
 * a test-only hook in commit-batch.ts); the next toolkit on the root writes
 * the rest forward, leaves a file someone changed since alone, and says so
 * on its first result. Before, the kill left one file new and the other old.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { startTime } from "../../src/workspace/holder.js";
import { Project } from "../helpers/project.js";

const FIXTURE = join(import.meta.dirname, "fixtures/batch-writer.ts");

/** A unified diff that changes each file's one line `old` to `new`. */
function patchOf(files: Record<string, [string, string]>): string {
  return Object.entries(files)
    .map(([path, [was, now]]) => `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-${was}\n+${now}\n`)
    .join("");
}

/** Runs the patch in a child that kills itself after `renames` renames; returns its signal. */
function killedAfter(p: Project, patch: string, renames: number): NodeJS.Signals | null {
  return callKilledAfter(p, "patch", { patch }, renames);
}

/** Makes one call in a child that kills itself after `renames` renames; returns its signal. */
function callKilledAfter(
  p: Project,
  tool: string,
  args: Record<string, unknown>,
  renames: number,
): NodeJS.Signals | null {
  const argv = ["--import", "tsx", FIXTURE, p.root, tool, JSON.stringify(args)];
  const run = spawnSync(process.execPath, argv, {
    env: { ...process.env, SPLICE_TEST_KILL_AFTER_RENAMES: String(renames) },
    encoding: "utf8",
    timeout: 15_000,
  });
  return run.signal;
}

const journal = (p: Project) => readFileSync(join(p.root, ".splice", "journal.jsonl"), "utf8");

describe("a batch killed between two renames", { timeout: 20_000 }, () => {
  it("is finished forward by the next call on the root, which says so; one undo reverts it all", async () => {
    const p = new Project();
    p.write("a.txt", "a1\n");
    p.write("b.txt", "b1\n");
    p.write("c.txt", "c1\n");
    const patch = patchOf({ "a.txt": ["a1", "a2"], "b.txt": ["b1", "b2"], "c.txt": ["c1", "c2"] });
    expect(killedAfter(p, patch, 1)).toBe("SIGKILL");
    // What the kill left: the first file written, the others not; the intent without its done mark.
    expect([p.text("a.txt"), p.text("b.txt"), p.text("c.txt")]).toEqual(["a2\n", "b1\n", "c1\n"]);
    expect(journal(p)).toMatch(/^\{"batch":/m);
    expect(journal(p)).not.toMatch(/^\{"batch_done":/m);

    const s = p.splice();
    const read = (await s.read({ targets: [{ path: "a.txt" }] })) as { warnings?: string[] };
    expect([p.text("a.txt"), p.text("b.txt"), p.text("c.txt")]).toEqual(["a2\n", "b2\n", "c2\n"]);
    expect(read.warnings).toEqual([
      expect.stringMatching(
        /^A batch of 3 files interrupted at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(its process stopped between two of them\) was finished: b\.txt, c\.txt written now; a\.txt had been written before it stopped\. Undo it whole with undo \{"backup_session": "[\w-]+"\}\.$/,
      ),
    ]);
    expect(journal(p)).toMatch(/^\{"batch_done":/m);
    // Told once: the next call has nothing to say, and a new toolkit finds nothing to finish.
    const again = (await s.read({ targets: [{ path: "b.txt" }] })) as { warnings?: string[] };
    expect(again.warnings ?? []).toEqual([]);
    const other = (await p.splice().read({ targets: [{ path: "c.txt" }] })) as {
      warnings?: string[];
    };
    expect(other.warnings ?? []).toEqual([]);

    // The finished files joined the batch's backup session: one undo takes all three back.
    const session = /"backup_session": "([\w-]+)"/.exec(read.warnings![0]!)![1]!;
    const undone = (await s.undo({ backup_session: session })) as UndoResult;
    expect(undone.files.map((f) => f.path).sort()).toEqual(["a.txt", "b.txt", "c.txt"]);
    expect([p.text("a.txt"), p.text("b.txt"), p.text("c.txt")]).toEqual(["a1\n", "b1\n", "c1\n"]);
  });

  it("is finished for an atomic edit of several files, as for a patch", async () => {
    const p = new Project();
    p.write("a.txt", "a1\n");
    p.write("b.txt", "b1\n");
    const targets = [
      { path: "a.txt", old_text: "a1", new_text: "a2" },
      { path: "b.txt", old_text: "b1", new_text: "b2" },
    ];
    expect(callKilledAfter(p, "edit", { targets, atomic: true }, 1)).toBe("SIGKILL");
    // Before the atomic edit journaled an intent, this kill left a.txt new and b.txt old for good.
    expect([p.text("a.txt"), p.text("b.txt")]).toEqual(["a2\n", "b1\n"]);
    const read = (await p.splice().read({ targets: [{ path: "a.txt" }] })) as {
      warnings?: string[];
    };
    expect([p.text("a.txt"), p.text("b.txt")]).toEqual(["a2\n", "b2\n"]);
    expect(read.warnings?.[0]).toMatch(
      /^A batch of 2 files interrupted at .* was finished: b\.txt written now; a\.txt had been written before it stopped\./,
    );
  });

  it("is finished for a Markdown section moved to another file", async () => {
    const p = new Project();
    p.write("README.md", "# Guide\n\n## FAQ\n\nWhy.\n");
    p.write("help.md", "# Help\n");
    const args = { action: "move_section", path: "README.md", heading: "FAQ", to_path: "help.md" };
    expect(callKilledAfter(p, "md", args, 1)).toBe("SIGKILL");
    // The section was added to help.md and is still in README.md: a copy, until the next open.
    expect(p.text("help.md")).toContain("## FAQ");
    expect(p.text("README.md")).toContain("## FAQ");
    await p.splice().read({ targets: [{ path: "help.md" }] });
    expect(p.text("README.md")).toBe("# Guide\n");
    expect(p.text("help.md")).toBe("# Help\n\n## FAQ\n\nWhy.\n");
  });

  it("is finished for a file moved, whose old path is removed at the next open", async () => {
    const p = new Project();
    p.write("old.txt", "moved\n");
    const args = { action: "rename", path: "old.txt", to: "new.txt" };
    expect(callKilledAfter(p, "file", args, 1)).toBe("SIGKILL");
    // The new path was written and the old one not yet removed: two copies, until the next open.
    expect([existsSync(join(p.root, "old.txt")), p.text("new.txt")]).toEqual([true, "moved\n"]);
    const read = (await p.splice().read({ targets: [{ path: "new.txt" }] })) as {
      warnings?: string[];
    };
    expect(existsSync(join(p.root, "old.txt"))).toBe(false);
    expect(p.text("new.txt")).toBe("moved\n");
    expect(read.warnings?.[0]).toMatch(
      /was finished: old\.txt removed now; new\.txt had been written before it stopped\./,
    );
  });

  it("is finished for a patch that deletes a file, and for the undo of a session", async () => {
    const p = new Project();
    p.write("a.txt", "a1\n");
    p.write("gone.txt", "g\n");
    const patch = `${patchOf({ "a.txt": ["a1", "a2"] })}--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-g\n`;
    expect(callKilledAfter(p, "patch", { patch }, 1)).toBe("SIGKILL");
    expect([p.text("a.txt"), existsSync(join(p.root, "gone.txt"))]).toEqual(["a2\n", true]);
    await p.splice().read({ targets: [{ path: "a.txt" }] });
    expect([p.text("a.txt"), existsSync(join(p.root, "gone.txt"))]).toEqual(["a2\n", false]);

    // Undoing that patch's session is a batch too (a write and a re-creation): killed after one.
    const session = JSON.parse(
      journal(p)
        .split("\n")
        .find((l) => l.startsWith('{"batch":'))!,
    ).backup as string;
    expect(callKilledAfter(p, "undo", { backup_session: session }, 1)).toBe("SIGKILL");
    const undone = [p.text("a.txt") === "a1\n", existsSync(join(p.root, "gone.txt"))];
    expect(undone.filter(Boolean)).toHaveLength(1);
    await p.splice().read({ targets: [{ path: "a.txt" }] });
    expect([p.text("a.txt"), p.text("gone.txt")]).toEqual(["a1\n", "g\n"]);
  });

  it("leaves a file someone changed since alone, and names it", async () => {
    const p = new Project();
    p.write("a.txt", "a1\n");
    p.write("b.txt", "b1\n");
    p.write("c.txt", "c1\n");
    const patch = patchOf({ "a.txt": ["a1", "a2"], "b.txt": ["b1", "b2"], "c.txt": ["c1", "c2"] });
    expect(killedAfter(p, patch, 1)).toBe("SIGKILL");
    p.write("c.txt", "someone else\n");
    const read = (await p.splice().read({ targets: [{ path: "a.txt" }] })) as {
      warnings?: string[];
    };
    expect([p.text("a.txt"), p.text("b.txt"), p.text("c.txt")]).toEqual([
      "a2\n",
      "b2\n",
      "someone else\n",
    ]);
    expect(read.warnings?.[0]).toMatch(
      /was finished: b\.txt written now; a\.txt had been written before it stopped\. Undo it whole with undo \{"backup_session": "[\w-]+"\}\. Left as they are, changed by someone else since: c\.txt\.$/,
    );
  });

  it("is rolled back when a new version is missing from history", async () => {
    const p = new Project();
    p.write("a.txt", "a1\n");
    p.write("b.txt", "b1\n");
    expect(killedAfter(p, patchOf({ "a.txt": ["a1", "a2"], "b.txt": ["b1", "b2"] }), 1)).toBe(
      "SIGKILL",
    );
    // A power loss can take a blob that was never synced: b.txt's new version is gone.
    const intent = JSON.parse(
      journal(p)
        .split("\n")
        .find((l) => l.startsWith('{"batch":'))!,
    );
    const after = intent.files.find((f: { path: string }) => f.path === "b.txt").after as string;
    spawnSync("rm", ["-f", join(p.root, ".splice", "blobs", after.slice(0, 2), after.slice(2))]);
    const read = (await p.splice().read({ targets: [{ path: "a.txt" }] })) as {
      warnings?: string[];
    };
    expect([p.text("a.txt"), p.text("b.txt")]).toEqual(["a1\n", "b1\n"]);
    expect(read.warnings?.[0]).toMatch(
      /was rolled back, since the new version of b\.txt is not in history: a\.txt put back\.$/,
    );
  });

  it("with no file at its new version is closed quietly", async () => {
    const p = new Project();
    p.write("a.txt", "a1\n");
    p.write("b.txt", "b1\n");
    expect(killedAfter(p, patchOf({ "a.txt": ["a1", "a2"], "b.txt": ["b1", "b2"] }), 1)).toBe(
      "SIGKILL",
    );
    // Put back by hand: nothing of the batch is on disk, as when it stopped before its first rename.
    p.write("a.txt", "a1\n");
    const read = (await p.splice().read({ targets: [{ path: "b.txt" }] })) as {
      warnings?: string[];
    };
    expect(read.warnings ?? []).toEqual([]);
    expect([p.text("a.txt"), p.text("b.txt")]).toEqual(["a1\n", "b1\n"]);
    expect(journal(p)).toMatch(/^\{"batch_done":/m);
  });

  it("is left to its process while that process lives", async () => {
    const p = new Project();
    p.write("a.txt", "a1\n");
    p.write("b.txt", "b1\n");
    expect(killedAfter(p, patchOf({ "a.txt": ["a1", "a2"], "b.txt": ["b1", "b2"] }), 1)).toBe(
      "SIGKILL",
    );
    // The same intent, as if a process that still runs had written it (a batch under way).
    const living = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      const start = startTime(living.pid!)!;
      const path = join(p.root, ".splice", "journal.jsonl");
      const lines = journal(p).split("\n");
      const at = lines.findIndex((l) => l.startsWith('{"batch":'));
      const intent = JSON.parse(lines[at]!);
      const [, , host, token] = intent.holder.split(".");
      intent.holder = `${living.pid}.${start}.${host}.${token}`;
      lines[at] = JSON.stringify(intent);
      writeFileSync(path, lines.join("\n"));
      const read = (await p.splice().read({ targets: [{ path: "b.txt" }] })) as {
        warnings?: string[];
      };
      expect(read.warnings ?? []).toEqual([]);
      expect([p.text("a.txt"), p.text("b.txt")]).toEqual(["a2\n", "b1\n"]);
    } finally {
      living.kill("SIGKILL");
    }
    await new Promise((resolve) => living.once("exit", resolve));
    // Gone now: the next open finishes it.
    await p.splice().read({ targets: [{ path: "b.txt" }] });
    expect([p.text("a.txt"), p.text("b.txt")]).toEqual(["a2\n", "b2\n"]);
  });
});
