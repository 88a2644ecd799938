/**
 * The one restore path: a batch that fails puts back what it wrote, with a
 * compare-and-swap against what it wrote, so a file another program changed
 * in the meantime keeps that program's version (and is named) instead of
 * being overwritten: no lost update.
 *
 * The other writer is a real process outside splice, started the moment
 * splice reports the first file written, which also changes the second file
 * so that the batch's next write fails its own compare-and-swap.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Splice } from "../../src/index.js";
import { Project, rejection } from "../helpers/project.js";

const WRITE_BOTH = `printf 'theirs\\n' > "$1"; printf 'theirs too\\n' > "$2"`;

/**
 * When splice has written `first`, another process runs `script` with both
 * paths: by default it writes both files.
 */
function raceAfterFirstWrite(
  p: Project,
  splice: Splice,
  first: string,
  second: string,
  script = WRITE_BOTH,
): void {
  let done = false;
  splice.events.on((e) => {
    if (done || e.type !== "files_changed" || !e.changes.some((c) => c.path === first)) return;
    done = true;
    execFileSync("sh", ["-c", script, "sh", join(p.root, first), join(p.root, second)]);
  });
}

function twoFiles(): Project {
  const p = new Project();
  p.write("a.txt", "a\n");
  p.write("b.txt", "b\n");
  return p;
}

describe("restoring after a failed batch keeps another writer's change", () => {
  it("atomic edit", async () => {
    const p = twoFiles();
    const s = p.splice();
    raceAfterFirstWrite(p, s, "a.txt", "b.txt");
    const e = await rejection(
      s.edit({
        atomic: true,
        targets: [
          { path: "a.txt", edits: [{ old_text: "a", new_text: "A" }] },
          { path: "b.txt", edits: [{ old_text: "b", new_text: "B" }] },
        ],
      }),
    );
    expect(e.code).toBe("batch_failed");
    expect(p.text("a.txt")).toBe("theirs\n");
    expect(p.text("b.txt")).toBe("theirs too\n");
    expect(e.message).toContain(
      "a.txt was changed by another program after this call wrote it, so it was kept as that program left it",
    );
    expect(e.message).not.toContain("no file was changed");
  });

  it("patch over two files", async () => {
    const p = twoFiles();
    const s = p.splice();
    raceAfterFirstWrite(p, s, "a.txt", "b.txt");
    const patch = [
      "--- a/a.txt",
      "+++ b/a.txt",
      "@@ -1 +1 @@",
      "-a",
      "+A",
      "--- a/b.txt",
      "+++ b/b.txt",
      "@@ -1 +1 @@",
      "-b",
      "+B",
      "",
    ].join("\n");
    const e = await rejection(s.patch({ patch }));
    expect(p.text("a.txt")).toBe("theirs\n");
    expect(p.text("b.txt")).toBe("theirs too\n");
    expect(e.details.kept).toEqual(["a.txt"]);
    expect(e.message).toContain("kept as that program left it");
  });

  it("ast_edit over two files", async () => {
    const p = new Project();
    p.write("a.ts", "foo(1);\n");
    p.write("b.ts", "foo(2);\n");
    const s = p.splice({ validate: false });
    // ast_edit re-plans a file that changed since it was read, so the second
    // file's write is made to fail by turning it into a folder.
    const folder = `printf 'theirs\\n' > "$1"; rm "$2"; mkdir "$2"`;
    raceAfterFirstWrite(p, s, "a.ts", "b.ts", folder);
    const e = await rejection(
      s.astEdit({ paths: ["a.ts", "b.ts"], ops: [{ pat: "foo($A)", out: "bar($A)" }] }),
    );
    expect(p.text("a.ts")).toBe("theirs\n");
    expect(e.message).toContain("a.ts was changed by another program after this call wrote it");
  });

  it("a strict plan's rollback", async () => {
    const p = twoFiles();
    const s = p.splice();
    raceAfterFirstWrite(p, s, "a.txt", "b.txt");
    const e = await rejection(
      s.plan({
        steps: [
          {
            tool: "edit",
            args: { targets: [{ path: "a.txt", edits: [{ old_text: "a", new_text: "A" }] }] },
          },
          { validate: { syntax: true } },
          {
            tool: "edit",
            args: { targets: [{ path: "b.txt", edits: [{ old_text: "b", new_text: "B" }] }] },
          },
        ],
      }),
    );
    expect(p.text("a.txt")).toBe("theirs\n");
    expect(e.details.kept).toEqual(["a.txt"]);
    expect(e.message).toContain("a.txt changed after the plan wrote it (by another program)");
  });

  it("without a race on it, a file written is put back as it was", async () => {
    const p = twoFiles();
    const s = p.splice();
    let done = false;
    s.events.on((e) => {
      if (done || e.type !== "files_changed") return;
      done = true;
      execFileSync("sh", ["-c", `printf 'theirs\\n' > "$1"`, "sh", join(p.root, "b.txt")]);
    });
    const e = await rejection(
      s.edit({
        atomic: true,
        targets: [
          { path: "a.txt", edits: [{ old_text: "a", new_text: "A" }] },
          { path: "b.txt", edits: [{ old_text: "b", new_text: "B" }] },
        ],
      }),
    );
    expect(e.message).toContain("Atomic batch: no file was changed.");
    expect(p.text("a.txt")).toBe("a\n");
    expect(p.text("b.txt")).toBe("theirs\n");
  });
});
