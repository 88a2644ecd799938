import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionLines } from "../../src/cli/history-view.js";
import type { SessionSummary } from "../../src/index.js";
import { diffCounts } from "../../src/text/diff-counts.js";
import { numbered, Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[]) {
  const r = spawnSync(BIN, [...args, "--root", root], { cwd: root, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const plain = (_: unknown, text: string) => text;

function session(id: string, files: SessionSummary["files"], extra: Partial<SessionSummary> = {}) {
  return {
    backup_session: id,
    at: "2026-11-30T09:16:50.269Z",
    session: "cli",
    undone: false,
    is_undo: false,
    files,
    ...extra,
  } satisfies SessionSummary;
}

const DIFF = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-one\n+ONE\n+more\n two\n";

describe("history for people", () => {
  it("counts a diff's added and removed lines, not its headers", () => {
    expect(diffCounts(DIFF)).toEqual({ added: 2, removed: 1 });
  });

  it("prints one aligned line per session, cut to the width on a terminal", () => {
    const sessions = [
      session("20261130-091650-aaaaaa", [
        { path: "src/long/path/one.ts", action: "modified", diff: DIFF, undone: false },
        { path: "two.ts", action: "created", diff: "+x\n", undone: false },
      ]),
      session(
        "20261130-091651-bbbbbb",
        [{ path: "f", action: "deleted", diff: "-a\n", undone: true }],
        {
          session: "mcp-1",
          client: "claude-code",
          tool: "edit",
          undone: true,
        },
      ),
    ];
    expect(sessionLines(sessions, plain, Number.POSITIVE_INFINITY).split("\n")).toEqual([
      "20261130-091650-aaaaaa  2026-11-30 09:16:50  cli                       2 files  +3 -1  src/long/path/one.ts, two.ts",
      "20261130-091651-bbbbbb  2026-11-30 09:16:50  mcp-1 (claude-code) edit  1 file   +0 -1  (undone) f",
    ]);
    const cut = sessionLines(sessions, plain, 100).split("\n");
    expect(cut.every((l) => l.length <= 100)).toBe(true);
    expect(cut[0]).toBe(
      "20261130-091650-aaaaaa  2026-11-30 09:16:50  cli                       2 files  +3 -1  src/long/pat…",
    );
  });

  it("lists sessions in one line each, --stat per file, --diff ID one session's diffs", () => {
    const p = new Project();
    p.write("f.txt", numbered(3));
    for (const text of ["a\n", "b\nc\n"]) {
      expect(splice(p.root, ["write", "f.txt", "--text", text]).code).toBe(0);
    }
    const list = splice(p.root, ["undo", "--list"]).stdout.trimEnd().split("\n");
    expect(list).toHaveLength(2);
    expect(list[0]).toMatch(/ cli write {2}1 file {2}\+2 -1 {2}f\.txt$/);
    // The newer write rewrote its line: undoing the older one now would be refused.
    expect(list[1]).toMatch(/ {2}1 file {2}\+1 -3 {2}\(conflicts\) f\.txt$/);
    const stat = splice(p.root, ["undo", "--stat"]).stdout;
    expect(stat).toContain("\n modified  f.txt  | +2 -1\n");
    const id = list[1]!.split(" ")[0]!;
    const diff = splice(p.root, ["undo", "--diff", id]);
    expect(diff.stdout).toContain("-line 1\n-line 2\n-line 3\n+a");
    expect(diff.stdout).not.toContain("+b");
    const missing = splice(p.root, ["undo", "--diff", "20000101-000000-000000"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Run splice undo --list for the ids.");
    expect(p.text("f.txt")).toBe("b\nc\n");
  });
});
