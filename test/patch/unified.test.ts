import { describe, expect, it } from "vitest";
import { PatchParseError } from "../../src/patch/errors.js";
import { parsePatch } from "../../src/patch/parse.js";
import type { AddFile, DeleteFile, UpdateFile } from "../../src/patch/types.js";
import { parseUnifiedPatch } from "../../src/patch/unified.js";

const GIT = `From 1234 Mon Sep 17 00:00:00 2001
Subject: [PATCH] several files

---
diff --git a/src/a.ts b/src/a.ts
index 1111111..2222222 100644
--- a/src/a.ts
+++ b/src/a.ts
@@ -1,4 +1,4 @@ export function a() {
 line 1
-line 2
+LINE 2
 line 3
 line 4
@@ -10,3 +10,4 @@
 line 10
 line 11
+line 11.5
 line 12
diff --git a/new.txt b/new.txt
new file mode 100755
index 0000000..3333333
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+#!/bin/sh
+echo hi
\\ No newline at end of file
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 4444444..0000000
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-old
-stuff
diff --git a/old/name.ts b/new/name.ts
similarity index 90%
rename from old/name.ts
rename to new/name.ts
index 5555555..6666666 100644
--- a/old/name.ts
+++ b/new/name.ts
@@ -1 +1 @@
-export const v = 1;
+export const v = 2;
diff --git a/pure.ts b/moved/pure.ts
similarity index 100%
rename from pure.ts
rename to moved/pure.ts
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
-- 
2.43.0
`;

describe("unified diffs", () => {
  it("reads a git format-patch with updates, a new, a deleted and renamed files", () => {
    const p = parsePatch(GIT);
    expect(p.format).toBe("unified");
    expect(p.files.map((f) => [f.kind, f.path])).toEqual([
      ["update", "src/a.ts"],
      ["add", "new.txt"],
      ["delete", "gone.txt"],
      ["update", "old/name.ts"],
      ["update", "pure.ts"],
      ["update", "run.sh"],
    ]);
    const a = p.files[0] as UpdateFile;
    expect(a.hunks.map((h) => [h.header, h.oldStart, h.lines.length])).toEqual([
      ["@@ -1,4 +1,4 @@", 1, 5],
      ["@@ -10,3 +10,4 @@", 10, 4],
    ]);
    expect(a.hunks[0]!.lines[1]).toEqual({ op: "-", text: "line 2" });
    const add = p.files[1] as AddFile;
    expect(add).toMatchObject({
      lines: ["#!/bin/sh", "echo hi"],
      finalNewline: false,
      fileMode: 0o755,
    });
    expect((p.files[2] as DeleteFile).expected).toEqual(["old", "stuff"]);
    expect((p.files[3] as UpdateFile).moveTo).toBe("new/name.ts");
    expect(p.files[4]).toMatchObject({ moveTo: "moved/pure.ts", hunks: [] });
    expect(p.files[5]).toMatchObject({ fileMode: 0o755, hunks: [] });
    expect(p.warnings).toEqual([]);
  });

  it("reads plain diff -u output with timestamps, and a/ b/ prefixes without git headers", () => {
    const p = parseUnifiedPatch(
      "--- a/x.txt\t2024-01-01 10:00:00\n+++ b/x.txt\t2024-01-02 10:00:00\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n",
    );
    expect(p.files).toMatchObject([{ kind: "update", path: "x.txt" }]);
    const q = parseUnifiedPatch("--- x.txt\n+++ x.txt\n@@ -1 +1 @@\n-a\n+b\n");
    expect(q.files).toMatchObject([{ kind: "update", path: "x.txt" }]);
  });

  it("trusts the counts so a removed '-- x' line is not a file header", () => {
    const p = parseUnifiedPatch(
      "--- a/q.sql\n+++ b/q.sql\n@@ -1,3 +1,3 @@\n--- a comment\n+++ kept\n select 1;\n",
    );
    const u = p.files[0] as UpdateFile;
    expect(u.hunks[0]!.lines).toEqual([
      { op: "-", text: "-- a comment" },
      { op: "+", text: "++ kept" },
      { op: " ", text: "select 1;" },
    ]);
  });

  it("reads an empty line inside a hunk as blank context, and warns about wrong counts", () => {
    const p = parseUnifiedPatch("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n\n-b\n+c\n");
    const u = p.files[0] as UpdateFile;
    expect(u.hunks[0]!.lines.map((l) => l.op + l.text)).toEqual([" a", " ", "-b", "+c"]);
    expect(p.warnings[0]).toContain("not what its header counts");
  });

  it("accepts bare @@ headers (no numbers) from hand-written diffs", () => {
    const p = parseUnifiedPatch("--- a/x\n+++ b/x\n@@\n a\n-b\n+c\n\n");
    const u = p.files[0] as UpdateFile;
    expect(u.hunks[0]).toMatchObject({
      header: "@@",
      lines: [{ op: " " }, { op: "-" }, { op: "+" }],
    });
    expect(u.hunks[0]!.oldStart).toBeUndefined();
  });

  it("unquotes C-quoted git paths", () => {
    const p = parseUnifiedPatch(
      'diff --git "a/caf\\303\\251 \\"x\\".txt" "b/caf\\303\\251 \\"x\\".txt"\n--- "a/caf\\303\\251 \\"x\\".txt"\n+++ "b/caf\\303\\251 \\"x\\".txt"\n@@ -1 +1 @@\n-a\n+b\n',
    );
    expect(p.files[0]!.path).toBe('café "x".txt');
  });

  it("removes a Markdown fence around the diff, with a warning", () => {
    const p = parsePatch("```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```\n");
    expect(p.files).toHaveLength(1);
    expect(p.warnings[0]).toContain("code fence");
  });

  it("refuses binary patches, copies and text that is no diff, naming the line", () => {
    const bin = () =>
      parsePatch(
        "diff --git a/i.png b/i.png\nindex 1..2 100644\nBinary files a/i.png and b/i.png differ\n",
      );
    expect(bin).toThrow(PatchParseError);
    expect(bin).toThrow(/Line 3: binary patches are not supported/);
    expect(() =>
      parsePatch("diff --git a/a b/b\nsimilarity index 100%\ncopy from a\ncopy to b\n"),
    ).toThrow(/copies/);
    expect(() => parsePatch("just some text")).toThrow(/neither a unified diff/);
    expect(() => parseUnifiedPatch("@@ -1 +1 @@\n-a\n+b\n")).toThrow(/before any file header/);
  });
});
