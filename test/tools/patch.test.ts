import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PatchResult } from "../../src/tools/patch/index.js";
import { patchTool } from "../../src/tools/patch/index.js";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { numbered, Project, rejection } from "../helpers/project.js";

const call = (p: Project, args: Record<string, unknown>) =>
  p.splice().call("patch", args) as Promise<PatchResult>;

const GIT = `diff --git a/src/a.ts b/src/a.ts
--- a/src/a.ts
+++ b/src/a.ts
@@ -2,3 +2,3 @@
 line 2
-line 3
+line three
 line 4
diff --git a/src/new.ts b/src/new.ts
new file mode 100644
--- /dev/null
+++ b/src/new.ts
@@ -0,0 +1,2 @@
+export const fresh = 1;
+export const more = 2;
diff --git a/old.txt b/old.txt
deleted file mode 100644
--- a/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-bye
-now
diff --git a/src/name.ts b/lib/name.ts
similarity index 80%
rename from src/name.ts
rename to lib/name.ts
--- a/src/name.ts
+++ b/lib/name.ts
@@ -1,2 +1,2 @@
 export const name = "x";
-export const v = 1;
+export const v = 2;
`;

function seed(p: Project) {
  p.write("src/a.ts", numbered(6));
  p.write("old.txt", "bye\nnow\n");
  p.write("src/name.ts", 'export const name = "x";\nexport const v = 1;\n');
}

describe("patch: unified diffs", () => {
  it("updates, adds, deletes and renames files in one backup session; undo restores all", async () => {
    const p = new Project();
    seed(p);
    const r = await call(p, { patch: GIT });
    expect(r).toMatchObject({ action: "patch", format: "unified", applied: true, changed: true });
    expect(r.results.map((f) => [f.operation, f.path, f.dest_path])).toEqual([
      ["update", "src/a.ts", undefined],
      ["add", "src/new.ts", undefined],
      ["delete", "old.txt", undefined],
      ["rename", "src/name.ts", "lib/name.ts"],
    ]);
    expect(p.text("src/a.ts")).toBe(numbered(6).replace("line 3\n", "line three\n"));
    expect(p.text("src/new.ts")).toBe("export const fresh = 1;\nexport const more = 2;\n");
    expect(existsSync(join(p.root, "old.txt"))).toBe(false);
    expect(existsSync(join(p.root, "src/name.ts"))).toBe(false);
    expect(p.text("lib/name.ts")).toBe('export const name = "x";\nexport const v = 2;\n');
    expect(r.results[0]!.hunks).toEqual([
      expect.objectContaining({ old_start: 2, line: 2, offset: 0, match_mode: "exact" }),
    ]);
    const sessions = new Set(r.results.map((f) => f.backup_session));
    expect(sessions).toEqual(new Set([r.backup_session]));

    const undone = (await p.splice().undo({})) as UndoResult;
    expect(undone.undone).toBe(r.backup_session);
    expect(p.text("src/a.ts")).toBe(numbered(6));
    expect(p.text("old.txt")).toBe("bye\nnow\n");
    expect(p.text("src/name.ts")).toBe('export const name = "x";\nexport const v = 1;\n');
    expect(existsSync(join(p.root, "lib/name.ts"))).toBe(false);
    expect(existsSync(join(p.root, "src/new.ts"))).toBe(false);
  });

  it("lands hunks whose context drifted and reports where", async () => {
    const p = new Project();
    p.write("src/a.ts", `// header\n// more header\n${numbered(6)}`);
    const r = await call(p, { patch: GIT.split("diff --git a/src/new.ts")[0]! });
    expect(p.text("src/a.ts")).toContain("line 2\nline three\nline 4\n");
    expect(r.results[0]!.hunks![0]).toMatchObject({ old_start: 2, line: 4, offset: 2 });
  });

  it("keeps CRLF, a BOM, mixed line endings and a missing final newline, byte for byte", async () => {
    const p = new Project();
    p.write("crlf.txt", "\uFEFFa\r\nb\r\nc\r\nd\r\ne");
    p.write("mixed.txt", "one\r\ntwo\nthree\r\nfour\r\nfive\r\n");
    const patch = `--- a/crlf.txt
+++ b/crlf.txt
@@ -1,3 +1,3 @@
 a
-b
+B
 c
--- a/mixed.txt
+++ b/mixed.txt
@@ -1,2 +1,2 @@
-one
+ONE
 two
@@ -3,3 +3,3 @@
 three
-four
+FOUR
 five
`;
    await call(p, { patch });
    expect(p.bytes("crlf.txt").toString("utf8")).toBe("\uFEFFa\r\nB\r\nc\r\nd\r\ne");
    // The LF line between the hunks stays LF in this CRLF file.
    expect(p.text("mixed.txt")).toBe("ONE\r\ntwo\nthree\r\nFOUR\r\nfive\r\n");
  });

  it("applies a patch written with CRLF line endings to an LF file", async () => {
    const p = new Project();
    p.write("x.txt", "a\nb\nc\n");
    await call(p, {
      patch: "--- a/x.txt\r\n+++ b/x.txt\r\n@@ -1,3 +1,3 @@\r\n a\r\n-b\r\n+B\r\n c\r\n",
    });
    expect(p.text("x.txt")).toBe("a\nB\nc\n");
  });

  it("refuses an ambiguous hunk, naming it and the lines, and writes no file at all", async () => {
    const p = new Project();
    p.write("first.txt", "1\n2\n3\n");
    p.write("twice.txt", "start\nx\ny\nz\nmiddle\nx\ny\nz\nend\n");
    const patch = `--- a/first.txt
+++ b/first.txt
@@ -1,3 +1,3 @@
 1
-2
+two
 3
--- a/twice.txt
+++ b/twice.txt
@@ -20,3 +20,3 @@
 x
-y
+Y
 z
`;
    const e = await rejection(call(p, { patch }));
    expect(e.code).toBe("ambiguous");
    expect(e.message).toContain(
      "twice.txt: hunk 1 (@@ -20,3 +20,3 @@, patch line 10) matches 2 places (lines 2, 6)",
    );
    expect(e.details).toMatchObject({ path: "twice.txt", hunk: 1, lines: [2, 6] });
    expect(p.text("first.txt")).toBe("1\n2\n3\n");
    expect(p.text("twice.txt")).toBe("start\nx\ny\nz\nmiddle\nx\ny\nz\nend\n");
  });

  it("puts back files already written when a later write fails", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    p.write("blocker", "a file where a folder should be\n");
    const patch = `--- a/a.txt
+++ b/a.txt
@@ -1 +1 @@
-a
+A
--- /dev/null
+++ b/blocker/inside.txt
@@ -0,0 +1 @@
+x
`;
    const e = await rejection(call(p, { patch }));
    expect(e.message).toContain("were put back");
    expect(p.text("a.txt")).toBe("a\n");
  });

  it("refuses to delete a file whose content is not what the patch removes", async () => {
    const p = new Project();
    p.write("old.txt", "changed since\n");
    const e = await rejection(
      call(p, { patch: "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n" }),
    );
    expect(e.code).toBe("conflict");
    expect(p.text("old.txt")).toBe("changed since\n");
  });

  it("refuses to update a binary file", async () => {
    const p = new Project();
    p.write("img.bin", Buffer.from([0, 1, 2, 10]));
    const e = await rejection(
      call(p, { patch: "--- a/img.bin\n+++ b/img.bin\n@@ -1 +1 @@\n-a\n+b\n" }),
    );
    expect(e.code).toBe("binary");
  });

  it("patches 50 files in one call and undoes them as one", async () => {
    const p = new Project();
    const parts: string[] = [];
    for (let i = 0; i < 50; i++) {
      p.write(`pkg/f${i}.ts`, numbered(40, `f${i} line`));
      parts.push(
        `--- a/pkg/f${i}.ts\n+++ b/pkg/f${i}.ts\n@@ -4,3 +4,3 @@\n f${i} line 4\n-f${i} line 5\n+f${i} FIVE\n f${i} line 6\n@@ -30,3 +30,4 @@\n f${i} line 30\n f${i} line 31\n+f${i} added\n f${i} line 32\n`,
      );
    }
    const r = await call(p, { patch: parts.join("") });
    expect(r.results).toHaveLength(50);
    expect(r.results.every((f) => f.hunks?.length === 2 && f.applied)).toBe(true);
    expect(p.text("pkg/f49.ts")).toContain("f49 FIVE\n");
    expect(p.text("pkg/f49.ts")).toContain("f49 line 31\nf49 added\nf49 line 32\n");
    await p.splice().undo({ backup_session: r.backup_session! });
    for (let i = 0; i < 50; i++) expect(p.text(`pkg/f${i}.ts`)).toBe(numbered(40, `f${i} line`));
  });

  it("swaps two files with two renames, as git apply does, and undoes the swap", async () => {
    const p = new Project();
    p.write("a.txt", "content A\n");
    p.write("b.txt", "content B\n");
    const patch =
      "diff --git a/a.txt b/b.txt\nsimilarity index 100%\nrename from a.txt\nrename to b.txt\n" +
      "diff --git a/b.txt b/a.txt\nsimilarity index 100%\nrename from b.txt\nrename to a.txt\n";
    const r = await call(p, { patch });
    expect(p.text("a.txt")).toBe("content B\n");
    expect(p.text("b.txt")).toBe("content A\n");
    expect(r.diff).toBe(
      "--- a/b.txt\n+++ b/b.txt\n@@ -1,1 +1,1 @@\n-content B\n+content A\n" +
        "--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-content A\n+content B\n",
    );
    expect(r.results[0]!.warnings[0]).toBe(
      "Renamed a.txt to b.txt, replacing the b.txt that was there (the patch moves that file to a.txt); the diff shows its old content as removed lines.",
    );
    await p.splice().undo({ backup_session: r.backup_session! });
    expect(p.text("a.txt")).toBe("content A\n");
    expect(p.text("b.txt")).toBe("content B\n");
  });

  it("reads a rename's names without the a/ b/ prefixes when it gives only one rename line", async () => {
    const p = new Project();
    p.write("a.txt", "A\n");
    p.write("b.txt", "B\n");
    // The first section has "rename from" but no "rename to": its new name is the +++ line's.
    const patch =
      "diff --git a/b.txt b/c.txt\nrename from b.txt\n--- a/b.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-B\n+BB\n" +
      "diff --git a/a.txt b/b.txt\nrename to b.txt\n--- a/a.txt\n+++ b/b.txt\n";
    const r = await call(p, { patch });
    expect(r.results.map((f) => f.warnings)).toEqual([
      ["Renamed b.txt to c.txt."],
      [
        "Renamed a.txt to b.txt, replacing the b.txt that was there (the patch moves that file to c.txt); the diff shows its old content as removed lines.",
      ],
    ]);
    expect(p.text("c.txt")).toBe("BB\n");
    expect(p.text("b.txt")).toBe("A\n");
    expect(existsSync(join(p.root, "b/c.txt"))).toBe(false);
  });

  it("shows the content a rename replaced when allow_overwrite lets it", async () => {
    const p = new Project();
    p.write("a.txt", "new\n");
    p.write("b.txt", "old\n");
    const patch = "diff --git a/a.txt b/b.txt\nrename from a.txt\nrename to b.txt\n";
    expect((await rejection(call(p, { patch }))).code).toBe("exists");
    const r = await call(p, { patch, allow_overwrite: true });
    expect(r.results[0]!.diff).toBe("--- a/b.txt\n+++ b/b.txt\n@@ -1,1 +1,1 @@\n-old\n+new\n");
    expect(r.results[0]!.warnings[0]).toContain("replacing the b.txt that was there");
    expect(existsSync(join(p.root, "a.txt"))).toBe(false);
    expect(p.text("b.txt")).toBe("new\n");
  });

  it("previews and checks without writing", async () => {
    const p = new Project();
    seed(p);
    const preview = await call(p, { patch: GIT, mode: "preview" });
    expect(preview).toMatchObject({ applied: false, changed: true });
    expect(preview.diff).toContain("+line three");
    expect(preview.backup_session).toBeUndefined();
    expect(p.text("src/a.ts")).toBe(numbered(6));
    expect(existsSync(join(p.root, "src/new.ts"))).toBe(false);
    const e = await rejection(call(p, { patch: GIT, mode: "check" }));
    expect(e.code).toBe("check_failed");
    expect(p.text("old.txt")).toBe("bye\nnow\n");
  });
});

describe("patch: Codex format", () => {
  const CODEX = `*** Begin Patch
*** Add File: docs/hello.md
+# Hello
+
+world
*** Update File: src/app.py
*** Move to: src/main.py
@@ def greet():
-    print("Hi")
+    print("Hello, world!")
*** Update File: src/util.py
@@ def helper():
     x = 1
-    return x
+    return x + 1
*** Delete File: obsolete.txt
*** End Patch
`;

  function seedPy(p: Project) {
    p.write("src/app.py", 'import os\n\ndef greet():\n    print("Hi")\n');
    p.write(
      "src/util.py",
      "def other():\n    x = 1\n    return x\n\ndef helper():\n    x = 1\n    return x\n",
    );
    p.write("obsolete.txt", "old\n");
  }

  it("adds, moves with changes, updates inside an @@ block, and deletes", async () => {
    const p = new Project();
    seedPy(p);
    const r = await call(p, { patch: CODEX });
    expect(r.format).toBe("codex");
    expect(p.text("docs/hello.md")).toBe("# Hello\n\nworld\n");
    expect(p.text("src/main.py")).toBe('import os\n\ndef greet():\n    print("Hello, world!")\n');
    expect(existsSync(join(p.root, "src/app.py"))).toBe(false);
    expect(p.text("src/util.py")).toBe(
      "def other():\n    x = 1\n    return x\n\ndef helper():\n    x = 1\n    return x + 1\n",
    );
    expect(existsSync(join(p.root, "obsolete.txt"))).toBe(false);
    expect(r.results[2]!.hunks![0]).toMatchObject({ line: 6, match_mode: "exact" });
    await p.splice().undo({});
    expect(p.text("src/app.py")).toBe('import os\n\ndef greet():\n    print("Hi")\n');
    expect(existsSync(join(p.root, "src/main.py"))).toBe(false);
    expect(p.text("obsolete.txt")).toBe("old\n");
  });

  it("refuses an Add File over an existing file unless allow_overwrite", async () => {
    const p = new Project();
    p.write("docs/hello.md", "mine\n");
    const patch = "*** Begin Patch\n*** Add File: docs/hello.md\n+theirs\n*** End Patch\n";
    const e = await rejection(call(p, { patch }));
    expect(e.code).toBe("exists");
    expect(e.message).toContain(
      "docs/hello.md already exists, and the patch adds it (patch line 2)",
    );
    expect(p.text("docs/hello.md")).toBe("mine\n");
    const r = await call(p, { patch, allow_overwrite: true });
    expect(p.text("docs/hello.md")).toBe("theirs\n");
    await p.splice().undo({ backup_session: r.backup_session! });
    expect(p.text("docs/hello.md")).toBe("mine\n");
  });

  it("refuses a Move to onto an existing file unless allow_overwrite", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    p.write("b.txt", "b\n");
    const patch =
      "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-a\n+A\n*** End Patch";
    expect((await rejection(call(p, { patch }))).code).toBe("exists");
    expect(p.text("b.txt")).toBe("b\n");
  });

  it("reports an added empty file as a change", async () => {
    const p = new Project();
    const r = await call(p, { patch: "*** Begin Patch\n*** Add File: z.txt\n*** End Patch\n" });
    expect(p.text("z.txt")).toBe("");
    expect(r).toMatchObject({ changed: true, diff: "" });
    expect(r.backup_session).toBeDefined();
    expect(r.results[0]).toMatchObject({
      operation: "add",
      changed: true,
      warnings: ["Created z.txt as an empty file."],
    });
  });

  it("refuses a patch that writes one path twice, and builds a second update on the first", async () => {
    const p = new Project();
    p.write("a.txt", "x\n");
    const twice =
      "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n+X\n*** Add File: b.txt\n+other\n*** End Patch\n";
    const e = await rejection(call(p, { patch: twice }));
    expect(e.code).toBe("invalid_input");
    expect(e.message).toContain(
      "The patch writes b.txt twice: patch line 2 renames a.txt to it and patch line 7 adds it. Nothing was applied.",
    );
    expect(existsSync(join(p.root, "b.txt"))).toBe(false);
    expect(p.text("a.txt")).toBe("x\n");

    p.write("c.txt", "1\n2\n");
    await call(p, {
      patch:
        "*** Begin Patch\n*** Update File: c.txt\n@@\n-1\n+one\n*** Delete File: a.txt\n*** Add File: a.txt\n+fresh\n*** Update File: c.txt\n@@\n-2\n+two\n*** End Patch\n",
    });
    expect(p.text("c.txt")).toBe("one\ntwo\n");
    expect(p.text("a.txt")).toBe("fresh\n");
  });

  it("keeps a CRLF file CRLF and a file without a final newline without one", async () => {
    const p = new Project();
    p.write("w.txt", "alpha\r\nbeta\r\ngamma");
    await call(p, {
      patch:
        "*** Begin Patch\n*** Update File: w.txt\n@@\n alpha\n-beta\n+BETA\n gamma\n*** End of File\n*** End Patch",
    });
    expect(p.bytes("w.txt").toString()).toBe("alpha\r\nBETA\r\ngamma");
  });

  it("keeps each replaced line's own ending in a mixed-ending file", async () => {
    const p = new Project();
    p.write("mixed.txt", "one\r\ntwo\nthree\r\nfour\n");
    await call(p, {
      patch:
        "*** Begin Patch\n*** Update File: mixed.txt\n@@\n one\n-two\n-three\n+TWO\n+THREE\n four\n*** End Patch",
    });
    expect(p.bytes("mixed.txt").toString()).toBe("one\r\nTWO\nTHREE\r\nfour\n");
  });

  it("refuses an empty patch: it names no file", async () => {
    const p = new Project();
    const e = await rejection(call(p, { patch: "*** Begin Patch\n*** End Patch\n" }));
    expect(e.code).toBe("invalid_input");
    expect(e.message).toContain("The patch names no file");
  });

  it("applies a git diff whose context repeats at the place its header names", async () => {
    const p = new Project();
    const body = "\trun();\n\tok();\n});\n";
    const before = `test('a', () => {\n${body}\ntest('b', () => {\n${body}`;
    p.write("t.js", before);
    const r = await call(p, {
      patch:
        "diff --git a/t.js b/t.js\n--- a/t.js\n+++ b/t.js\n@@ -7,3 +7,5 @@ test('a', () => {\n \trun();\n \tok();\n });\n+\n+test('c', () => {});\n",
    });
    expect(p.text("t.js")).toBe(`${before}\ntest('c', () => {});\n`);
    expect(r.results[0]!.warnings.join("\n")).toContain("also match line 2;");
  });

  it("refuses a cut-off patch with nothing written", async () => {
    const p = new Project();
    const e = await rejection(call(p, { patch: "*** Begin Patch\n*** Add File: x.txt\n+1\n" }));
    expect(e.code).toBe("invalid_input");
    expect(e.message).toContain("cut off");
    expect(existsSync(join(p.root, "x.txt"))).toBe(false);
  });

  it("has a manual that shows both formats and quotes the real refusals", () => {
    expect(patchTool.manual).toContain("*** Begin Patch");
    expect(patchTool.manual).toContain("--- a/path");
    expect(patchTool.manual).toContain("Add context lines that occur only at the place you mean");
    expect(patchTool.manual).toContain(
      "Read the file again and rebuild the hunk from its current lines",
    );
    expect(patchTool.manual).toContain("The patch writes b.txt twice");
  });
});

describe("splice patch (CLI)", () => {
  const BIN = join(import.meta.dirname, "../../bin/splice");
  const run = (root: string, args: string[]) =>
    spawnSync(BIN, [...args, "--root", root], { encoding: "utf8" });

  it("previews by default, writes with --apply, and --check exits 0 when it applies, 1 when not", () => {
    const p = new Project();
    p.write("x.txt", "a\nb\nc\n");
    const file = join(p.root, "..", `${p.root.split("/").pop()}.diff`);
    writeFileSync(file, "--- a/x.txt\n+++ b/x.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    const preview = run(p.root, ["patch", file]);
    expect(preview.status).toBe(0);
    expect(preview.stdout).toContain("-b\n+B");
    expect(preview.stdout).toContain("Preview: nothing was written");
    expect(p.text("x.txt")).toBe("a\nb\nc\n");
    const check = run(p.root, ["patch", file, "--check"]);
    expect({ status: check.status, stdout: check.stdout }).toEqual({ status: 0, stdout: "" });
    expect(p.text("x.txt")).toBe("a\nb\nc\n");
    const applied = run(p.root, ["patch", file, "--apply", "--json"]);
    expect(applied.status).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({
      applied: true,
      results: [{ path: "x.txt" }],
    });
    expect(p.text("x.txt")).toBe("a\nB\nc\n");
    // Applied once, the same patch no longer applies: as git apply --check says.
    const again = run(p.root, ["patch", file, "--check"]);
    expect(again.status).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toMatch(/^error \[/);
  });
});
