import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { Splice } from "../../src/splice.js";
import { LocalWorkspace } from "../../src/workspace/local.js";
import type { WriteIfOptions } from "../../src/workspace/workspace.js";
import { numbered, Project, rejection } from "../helpers/project.js";

async function tagOf(splice: Splice, path: string): Promise<string> {
  const { results } = await splice.read({ targets: [{ path }] });
  return results[0]!.file_hash!;
}

describe("edit with line ops", () => {
  it("replaces, inserts and deletes against the numbers of the version read", async () => {
    const p = new Project();
    p.write("f.txt", numbered(10));
    const s = p.splice();
    const tag = await tagOf(s, "f.txt");
    const { results } = await s.edit({
      targets: [
        {
          path: "f.txt",
          file_hash: tag,
          ops: "insert head:\n+top\nreplace 2..3:\n+two-three\ndelete 5\ninsert after 10:\n+end",
        },
      ],
    });
    expect(p.text("f.txt")).toBe(
      "top\nline 1\ntwo-three\nline 4\nline 6\nline 7\nline 8\nline 9\nline 10\nend\n",
    );
    expect(results[0]).toMatchObject({
      path: "f.txt",
      applied: true,
      changed: true,
      first_changed_line: 1,
    });
    expect(results[0]!.diff).toContain("-line 5");
    expect(await tagOf(s, "f.txt")).toBe(results[0]!.file_hash);
  });

  it("keeps CRLF, the BOM and a missing final newline", async () => {
    const p = new Project();
    p.write("w.txt", "\uFEFFa\r\nb\r\nc");
    const s = p.splice();
    const tag = await tagOf(s, "w.txt");
    await s.edit({
      targets: [{ path: "w.txt", file_hash: tag, ops: "replace 3:\n+C\ninsert after 1:\n+new" }],
    });
    expect(p.bytes("w.txt").toString()).toBe("\uFEFFa\r\nnew\r\nb\r\nC");
  });

  it("names the DSL line of a malformed op and touches nothing", async () => {
    const p = new Project();
    p.write("f.txt", numbered(3));
    const s = p.splice();
    const tag = await tagOf(s, "f.txt");
    const error = await rejection(
      s.edit({ targets: [{ path: "f.txt", file_hash: tag, ops: "delete 1\nreplace 2..x:\n+y" }] }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.details.dsl_line).toBe(2);
    expect(error.message).toContain("line 2");
    expect(p.text("f.txt")).toBe(numbered(3));
  });

  it("refuses overlapping ops and ranges past the end", async () => {
    const p = new Project();
    p.write("f.txt", numbered(5));
    const s = p.splice();
    const tag = await tagOf(s, "f.txt");
    const overlap = await rejection(
      s.edit({ targets: [{ path: "f.txt", file_hash: tag, ops: "delete 1..3\nreplace 3:\n+x" }] }),
    );
    expect(overlap.details.reason).toBe("overlap");
    const past = await rejection(
      s.edit({ targets: [{ path: "f.txt", file_hash: tag, ops: "delete 9" }] }),
    );
    expect(past.details.reason).toBe("out_of_range");
    expect(p.text("f.txt")).toBe(numbered(5));
  });

  it("refuses a tag that is not 4 hex, and a tag this session never read", async () => {
    const p = new Project();
    p.write("f.txt", numbered(3));
    const s = p.splice();
    const bad = await rejection(
      s.edit({ targets: [{ path: "f.txt", file_hash: "xyz", ops: "delete 1" }] }),
    );
    expect(bad.code).toBe("invalid_input");
    const tag = await tagOf(p.splice({ history: { session: "someone-else" } }), "f.txt");
    const unseen = await rejection(
      s.edit({ targets: [{ path: "f.txt", file_hash: tag, ops: "delete 1" }] }),
    );
    expect(unseen.code).toBe("stale");
    expect(unseen.message).toContain("Read the file first");
    expect(p.text("f.txt")).toBe(numbered(3));
  });

  it("merges an edit made against an older version when the changes do not collide", async () => {
    const p = new Project();
    p.write("f.txt", numbered(30));
    const s = p.splice();
    const old = await tagOf(s, "f.txt");
    writeFileSync(join(p.root, "f.txt"), `header\n${numbered(30)}`);
    const { results } = await s.edit({
      targets: [{ path: "f.txt", file_hash: old, ops: "replace 20:\n+twenty" }],
    });
    const lines = p.text("f.txt").split("\n");
    expect(lines[0]).toBe("header");
    expect(lines[20]).toBe("twenty");
    expect(results[0]!.warnings[0]).toContain("changed since you read it");
    expect(results[0]!.warnings[0]).toContain("starts at line 21");
  });

  it("says only the line endings changed when the tag is the same", async () => {
    const p = new Project();
    p.write("f.txt", "a\nb\nc\n");
    const s = p.splice();
    const tag = await tagOf(s, "f.txt");
    writeFileSync(join(p.root, "f.txt"), "a\r\nb\r\nc\r\n");
    const { results } = await s.edit({
      targets: [{ path: "f.txt", file_hash: tag, ops: "replace 2:\n+B" }],
    });
    expect(results[0]!.warnings).toEqual([
      `f.txt's line endings changed since you read it at ${tag} (its text did not); your edit was applied to the current version and starts at line 2.`,
    ]);
    expect(p.text("f.txt")).toBe("a\r\nB\r\nc\r\n");
  });

  it("fails closed on a conflicting change and shows fresh numbered lines and the fresh tag", async () => {
    const p = new Project();
    p.write("f.txt", numbered(30));
    const s = p.splice();
    const old = await tagOf(s, "f.txt");
    const changed = numbered(30).replace("line 15\n", "line 15 (theirs)\n");
    writeFileSync(join(p.root, "f.txt"), changed);
    const error = await rejection(
      s.edit({ targets: [{ path: "f.txt", file_hash: old, ops: "replace 15:\n+ours" }] }),
    );
    expect(error.code).toBe("conflict");
    expect(error.message).toContain("15| line 15 (theirs)");
    expect(error.message).toContain("12| line 12");
    const fresh = error.details.current_hash as string;
    expect(error.message).toContain(`file_hash "${fresh}"`);
    expect(p.text("f.txt")).toBe(changed);
    await s.edit({ targets: [{ path: "f.txt", file_hash: fresh, ops: "replace 15:\n+ours" }] });
    expect(p.text("f.txt").split("\n")[14]).toBe("ours");
  });

  it("lets a read in one Splice object vouch for an edit in another with the same session", async () => {
    const p = new Project();
    p.write("f.txt", numbered(3));
    const tag = await tagOf(p.splice(), "f.txt");
    await p.splice().edit({ targets: [{ path: "f.txt", file_hash: tag, ops: "delete 2" }] });
    expect(p.text("f.txt")).toBe("line 1\nline 3\n");
  });

  it("chains two edits of one file with the same tag through the merge", async () => {
    const p = new Project();
    p.write("f.txt", numbered(20));
    const s = p.splice();
    const tag = await tagOf(s, "f.txt");
    await s.edit({
      targets: [
        { path: "f.txt", file_hash: tag, ops: "replace 2:\n+TWO" },
        { path: "f.txt", file_hash: tag, ops: "replace 18:\n+EIGHTEEN" },
      ],
    });
    const lines = p.text("f.txt").split("\n");
    expect([lines[1], lines[17]]).toEqual(["TWO", "EIGHTEEN"]);
  });

  it("stops a batch at the first failure with fresh tags of what was applied", async () => {
    const p = new Project();
    p.write("a.txt", numbered(3));
    p.write("b.txt", numbered(3));
    p.write("c.txt", numbered(3));
    const s = p.splice();
    const [a, b, c] = [await tagOf(s, "a.txt"), await tagOf(s, "b.txt"), await tagOf(s, "c.txt")];
    const error = await rejection(
      s.edit({
        targets: [
          { path: "a.txt", file_hash: a, ops: "delete 1" },
          { path: "b.txt", file_hash: b, ops: "delete 7" },
          { path: "c.txt", file_hash: c, ops: "delete 1" },
        ],
      }),
    );
    const applied = error.details.applied as { path: string; file_hash: string }[];
    expect(error.code).toBe("batch_failed");
    expect(error.details).toMatchObject({ failed_path: "b.txt", skipped: ["c.txt"] });
    expect(error.message).toContain(`a.txt#${applied[0]!.file_hash}`);
    expect(p.text("a.txt")).toBe("line 2\nline 3\n");
    expect(p.text("c.txt")).toBe(numbered(3));
  });

  it("applies every target or none when atomic", async () => {
    const p = new Project();
    p.write("a.txt", numbered(3));
    p.write("b.txt", numbered(3));
    const s = p.splice();
    const [a, b] = [await tagOf(s, "a.txt"), await tagOf(s, "b.txt")];
    const error = await rejection(
      s.edit({
        atomic: true,
        targets: [
          { path: "a.txt", file_hash: a, ops: "delete 1" },
          { path: "b.txt", file_hash: b, ops: "delete 9" },
        ],
      }),
    );
    expect(error.message).toContain("Atomic batch: no file was changed.");
    expect(p.text("a.txt")).toBe(numbered(3));
    const ok = await s.edit({
      atomic: true,
      targets: [
        { path: "a.txt", file_hash: a, ops: "delete 1" },
        { path: "b.txt", file_hash: b, ops: "delete 3" },
      ],
    });
    expect(ok.results.map((r) => r.changed)).toEqual([true, true]);
    expect([p.text("a.txt"), p.text("b.txt")]).toEqual(["line 2\nline 3\n", "line 1\nline 2\n"]);
  });

  it("restores files already written when an atomic write fails midway", async () => {
    const p = new Project();
    p.write("a.txt", numbered(3));
    p.write("b.txt", numbered(3));
    // The real disk, with one injected fault: the second file's write fails.
    class FailingDisk extends LocalWorkspace {
      override async writeIf(
        path: string,
        bytes: Uint8Array,
        expected: string | null,
        options?: WriteIfOptions,
      ) {
        if (path.endsWith("b.txt")) throw new Error("disk full");
        return super.writeIf(path, bytes, expected, options);
      }
    }
    const s = p.splice({ workspace: new FailingDisk() });
    const [a, b] = [await tagOf(s, "a.txt"), await tagOf(s, "b.txt")];
    const error = await rejection(
      s.edit({
        atomic: true,
        targets: [
          { path: "a.txt", file_hash: a, ops: "delete 1" },
          { path: "b.txt", file_hash: b, ops: "delete 1" },
        ],
      }),
    );
    expect(error.code).toBe("batch_failed");
    expect(error.message).toContain("disk full");
    expect(p.text("a.txt")).toBe(numbered(3));
    expect(p.text("b.txt")).toBe(numbered(3));
  });

  it("refuses to edit through the guard", async () => {
    const p = new Project();
    const error = await rejection(
      p.splice().edit({ targets: [{ path: "/etc/passwd", file_hash: "1A2B", ops: "delete 1" }] }),
    );
    expect(error.code).toBe("guard");
  });
});

describe("edit modes", () => {
  it("previews the diff without writing, and check fails only when something would change", async () => {
    const p = new Project();
    p.write("f.txt", numbered(3));
    const s = p.splice();
    const tag = await tagOf(s, "f.txt");
    const target = { path: "f.txt", file_hash: tag, ops: "replace 2:\n+TWO" };
    const preview = await s.edit({ mode: "preview", targets: [target] });
    expect(preview.results[0]).toMatchObject({ applied: false, changed: true });
    expect(preview.results[0]!.diff).toContain("-line 2\n+TWO");
    expect(p.text("f.txt")).toBe(numbered(3));

    const check = await rejection(s.edit({ mode: "check", targets: [target] }));
    expect(check.code).toBe("check_failed");
    expect(check.message).toContain("+TWO");
    expect(p.text("f.txt")).toBe(numbered(3));

    const same = { path: "f.txt", file_hash: tag, ops: "replace 2:\n+line 2" };
    const unchanged = await s.edit({ mode: "check", targets: [same] });
    expect(unchanged.results[0]).toMatchObject({ changed: false, diff: "" });
  });
});

describe("edit's path checks", () => {
  it("checks each text edit's target once, for the lock and the plan alike", async () => {
    const p = new Project();
    p.write("a.txt", "one\n");
    p.write("b.txt", "bee\n");
    const s = p.splice();
    const check = vi.spyOn(s.context.guard, "check");
    try {
      await s.edit({
        targets: [
          { path: "a.txt", edits: [{ old_text: "one", new_text: "two" }] },
          { path: "b.txt", edits: [{ old_text: "bee", new_text: "wasp" }] },
        ],
      });
      const writes = check.mock.calls.filter(([, scope]) => scope === "write").map(([p]) => p);
      expect(writes).toEqual(["a.txt", "b.txt"]);
    } finally {
      check.mockRestore();
    }
    expect(p.text("a.txt")).toBe("two\n");
  });

  it("checks line-op targets and an atomic batch's targets once too", async () => {
    const p = new Project();
    p.write("a.txt", "one\n");
    p.write("b.txt", "bee\n");
    const s = p.splice();
    const { results } = await s.read({ targets: [{ path: "a.txt" }] });
    const hash = results[0]!.file_hash!;
    const check = vi.spyOn(s.context.guard, "check");
    try {
      await s.edit({ targets: [{ path: "a.txt", file_hash: hash, ops: "replace 1:\n+two" }] });
      await s.edit({
        atomic: true,
        targets: [
          { path: "a.txt", edits: [{ old_text: "two", new_text: "three" }] },
          { path: "b.txt", edits: [{ old_text: "bee", new_text: "wasp" }] },
        ],
      });
      const writes = check.mock.calls.filter(([, scope]) => scope === "write").map(([p]) => p);
      expect(writes).toEqual(["a.txt", "a.txt", "b.txt"]);
    } finally {
      check.mockRestore();
    }
    expect([p.text("a.txt"), p.text("b.txt")]).toEqual(["three\n", "wasp\n"]);
  });
});
