/**
 * Size and content never break a call after its write: the diff, the
 * result and the backup id of a change to a huge file all reach the caller,
 * and the list of changes shows whatever history holds.
 */
import { createHash } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HistoryResult } from "../../src/tools/history/index.js";
import type { SessionSummary, UndoResult } from "../../src/tools/undo/index.js";
import { Project } from "../helpers/project.js";

const lines = (n: number, prefix = "v") => {
  const parts: string[] = new Array(n);
  for (let i = 0; i < n; i++) parts[i] = `${prefix}${i}`;
  return `${parts.join("\n")}\n`;
};

const hunks = (diff: string) => diff.split("\n").filter((l) => l.startsWith("@@ ")).length;
const sha = (bytes: string | Uint8Array) => createHash("sha256").update(bytes).digest("hex");
type Listed = { sessions: SessionSummary[] };

describe("a 2,000,000-line file", () => {
  it("is edited, previewed, undone and listed", { timeout: 180_000 }, async () => {
    const p = new Project();
    const text = lines(2_000_000);
    p.write("big.txt", text);
    const s = p.splice();
    // A change at each end: the diff's window is the whole file.
    const targets = [
      {
        path: "big.txt",
        edits: [
          { old_text: "v0\nv1\n", new_text: "first\nv1\n" },
          { old_text: "v1999999\n", new_text: "last\n" },
        ],
      },
    ];
    const preview = await s.edit({ targets, mode: "preview" });
    expect(preview.results[0]).toMatchObject({ applied: false, changed: true });
    expect(hunks(preview.results[0]!.diff)).toBe(2);
    expect(p.text("big.txt")).toBe(text);

    const edited = await s.edit({ targets });
    const result = edited.results[0]!;
    expect(result).toMatchObject({ applied: true, changed: true });
    expect(result.backup_session).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(result.diff).toContain(
      "@@ -1999997,4 +1999997,4 @@\n v1999996\n v1999997\n v1999998\n-v1999999\n+last\n",
    );
    expect(p.text("big.txt").startsWith("first\nv1\n")).toBe(true);

    const listed = (await s.undo({ list: true })) as Listed;
    expect(listed.sessions[0]!.backup_session).toBe(result.backup_session);
    expect(listed.sessions[0]!.files[0]!.diff).toBe(result.diff);
    const history = (await s.history({ path: "big.txt" })) as HistoryResult;
    expect(history.versions.map((v) => v.current)).toContain(true);
    expect(history.versions.length).toBeGreaterThanOrEqual(2);

    const undone = (await s.undo({})) as UndoResult;
    expect(undone.undone).toBe(result.backup_session);
    expect(sha(p.bytes("big.txt"))).toBe(sha(text));
    const again = (await s.undo({ list: true })) as Listed;
    expect(again.sessions.map((x) => x.is_undo)).toEqual([true, false]);
  });
});

describe("diffs as large as the file", () => {
  it("a created and a rewritten 200,000-line file keep their diff and backup id", {
    timeout: 120_000,
  }, async () => {
    const p = new Project();
    const s = p.splice();
    const created = await s.write({ targets: [{ path: "new.txt", text: lines(200_000) }] });
    expect(created.results[0]!.backup_session).toBeDefined();
    expect(hunks(created.results[0]!.diff)).toBe(1);
    const rewritten = await s.write({ targets: [{ path: "new.txt", text: lines(200_000, "w") }] });
    expect(rewritten.results[0]!.backup_session).toBeDefined();
    expect(rewritten.results[0]!.diff).toContain("-v199999\n");
    const listed = (await s.undo({ list: true })) as Listed;
    expect(listed.sessions.map((x) => x.files[0]!.action)).toEqual(["modified", "created"]);
    await s.undo({});
    expect(p.text("new.txt")).toBe(lines(200_000));
  });
});

describe("undo --list and history survive what history holds", () => {
  it("versions history lost, and blobs it cannot read", async () => {
    const p = new Project();
    p.write("gone.txt", "old\n");
    p.write("odd.txt", "before\n");
    const s = p.splice();
    await s.write({ targets: [{ path: "gone.txt", text: "new\n" }] });
    await s.write({ targets: [{ path: "odd.txt", text: "after\n" }] });
    const blob = (hex: string) => join(p.root, ".splice/blobs", hex.slice(0, 2), hex.slice(2));
    rmSync(blob(sha("old\n")));
    // A blob that cannot be read at all: its path is a folder.
    rmSync(blob(sha("before\n")));
    mkdirSync(blob(sha("before\n")));

    const listed = (await s.undo({ list: true })) as Listed;
    const diffs = Object.fromEntries(
      listed.sessions.flatMap((x) => x.files.map((f) => [f.path, f.diff] as const)),
    );
    expect(diffs["gone.txt"]).toBe(
      "[the diff of gone.txt is not shown; the old version: history no longer holds it]\n",
    );
    // History treats a blob it cannot read as one it no longer holds (see history/blobs.ts).
    expect(diffs["odd.txt"]).toBe(
      "[the diff of odd.txt is not shown; the old version: history no longer holds it]\n",
    );
    for (const path of ["gone.txt", "odd.txt"]) {
      const h = (await s.history({ path })) as HistoryResult;
      expect(h.versions.length).toBeGreaterThanOrEqual(2);
    }
  });
});

describe("ast_edit over a tree with a 200,000-line file", () => {
  it("previews every file, the big one included", { timeout: 180_000 }, async () => {
    const p = new Project();
    p.write("small.js", "console.log(1);\n");
    const body = lines(200_000, "var x").replaceAll("\n", ";\n");
    p.write("lib/big.js", `console.log(2);\n${body}console.log(3);\n`);
    const r = await p.splice().astEdit({
      ops: [{ pat: "console.log($A)", out: "logger.debug($A)" }],
      paths: ["."],
      mode: "preview",
    });
    expect(r.files.map((f) => [f.path, f.matches])).toEqual([
      ["lib/big.js", 2],
      ["small.js", 1],
    ]);
    expect(hunks(r.files[0]!.diff)).toBe(2);
  });
});
