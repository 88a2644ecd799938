/**
 * A walk reuses a folder's listing from the last walk in the process while the
 * folder's stat, its .gitignore's and the layers above it are unchanged
 * (snapshot.ts). The invariant: a walk that reuses listings sees exactly what
 * a walk that reads every folder afresh sees, whatever changed in between.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Snapshot, takeSnapshot } from "../../src/checkpoint/snapshot.js";
import type { Splice } from "../../src/splice.js";
import { Project } from "../helpers/project.js";

const open: Splice[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

const seen = (snapshot: Snapshot) => ({
  files: [...snapshot.files.keys()].sort(),
  unwatched: snapshot.unwatched,
});

/** The long-lived splice's walk, checked against a new splice's (a new guard: nothing reused). */
async function walk(p: Project, s: Splice) {
  const reused = seen(await takeSnapshot(s.context, false));
  const other = p.splice();
  open.push(other);
  expect(reused).toEqual(seen(await takeSnapshot(other.context, false)));
  return reused;
}

describe.skipIf(process.env.SPLICE_TEST_REMOTE)("a walk's reused folder listings", () => {
  it("see every change a fresh walk sees: entries added, removed, renamed, a folder swapped for a file", async () => {
    const p = new Project();
    p.write("src/a.ts", "a\n");
    p.write("src/b.ts", "b\n");
    p.write("src/deep/c.ts", "c\n");
    p.write("docs/d.md", "d\n");
    const s = p.splice();
    open.push(s);
    expect((await walk(p, s)).files).toEqual([
      "docs/d.md",
      "src/a.ts",
      "src/b.ts",
      "src/deep/c.ts",
    ]);
    expect((await walk(p, s)).files).toHaveLength(4); // reused as it was

    p.write("src/new.ts", "new\n");
    rmSync(join(p.root, "src/b.ts"));
    renameSync(join(p.root, "src/deep/c.ts"), join(p.root, "src/deep/c2.ts"));
    expect((await walk(p, s)).files).toEqual([
      "docs/d.md",
      "src/a.ts",
      "src/deep/c2.ts",
      "src/new.ts",
    ]);

    rmSync(join(p.root, "docs"), { recursive: true });
    writeFileSync(join(p.root, "docs"), "now a file\n");
    mkdirSync(join(p.root, "src/deep/deeper"));
    p.write("src/deep/deeper/e.ts", "e\n");
    // A secret appearing in a reused folder is screened like any new entry: not walked.
    p.write("src/.env", "TOKEN=1\n");
    expect((await walk(p, s)).files).toEqual([
      "docs",
      "src/a.ts",
      "src/deep/c2.ts",
      "src/deep/deeper/e.ts",
      "src/new.ts",
    ]);
  });

  it("see a .gitignore edited in place (its folder's stat unchanged), in its folder and every one below", async () => {
    const p = new Project();
    p.write(".gitignore", "node_modules/\n");
    p.write("pkg/.gitignore", "# nothing yet\n");
    p.write("pkg/keep.ts", "k\n");
    p.write("pkg/gen.out", "g\n");
    p.write("pkg/sub/trace.log", "t\n");
    p.write("pkg/sub/deeper/x.log", "x\n");
    const s = p.splice();
    open.push(s);
    expect((await walk(p, s)).files).toEqual([
      ".gitignore",
      "pkg/.gitignore",
      "pkg/gen.out",
      "pkg/keep.ts",
      "pkg/sub/deeper/x.log",
      "pkg/sub/trace.log",
    ]);

    // Rewritten in place: the folder's entries, so its stat, stay as they were.
    writeFileSync(join(p.root, "pkg/.gitignore"), "*.out\n");
    const inner = await walk(p, s);
    expect(inner.files).not.toContain("pkg/gen.out");
    expect(inner.unwatched).toContain("pkg/gen.out");

    // The root's rules reach folders two levels down whose own stat did not change.
    writeFileSync(join(p.root, ".gitignore"), "node_modules/\n*.log\n");
    const outer = await walk(p, s);
    expect(outer.files).toEqual([".gitignore", "pkg/.gitignore", "pkg/keep.ts"]);
    expect(outer.unwatched).toEqual(["pkg/gen.out", "pkg/sub/deeper/x.log", "pkg/sub/trace.log"]);

    // And back: what was ignored is walked again.
    writeFileSync(join(p.root, ".gitignore"), "node_modules/\n");
    expect((await walk(p, s)).files).toContain("pkg/sub/deeper/x.log");
  });
});
