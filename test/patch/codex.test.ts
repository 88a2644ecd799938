import { describe, expect, it } from "vitest";
import { parseCodexPatch } from "../../src/patch/codex.js";
import { detectFormat } from "../../src/patch/parse.js";
import type { UpdateFile } from "../../src/patch/types.js";

const PATCH = `*** Begin Patch
*** Add File: hello.txt
+Hello world
+
*** Update File: src/app.py
*** Move to: src/main.py
@@ def greet():
-    print("Hi")
+    print("Hello, world!")
@@ class Base
@@     def method(self):
 context
-old
+new
*** End of File
*** Delete File: obsolete.txt
*** End Patch
`;

describe("Codex patches", () => {
  it("reads add, update with move and anchored hunks, end of file, and delete", () => {
    const p = parseCodexPatch(PATCH);
    expect(p.format).toBe("codex");
    expect(p.files.map((f) => [f.kind, f.path])).toEqual([
      ["add", "hello.txt"],
      ["update", "src/app.py"],
      ["delete", "obsolete.txt"],
    ]);
    expect(p.files[0]).toMatchObject({ lines: ["Hello world", ""], finalNewline: true });
    const u = p.files[1] as UpdateFile;
    expect(u.moveTo).toBe("src/main.py");
    expect(u.hunks.map((h) => [h.anchors, h.atEnd, h.lines.length])).toEqual([
      [["def greet():"], false, 2],
      [["class Base", "def method(self):"], true, 3],
    ]);
    expect(u.hunks[0]!.patchLine).toBe(7);
  });

  it("lets the first hunk omit @@ and reads empty lines as blank context (not at a hunk's end)", () => {
    const p = parseCodexPatch(
      "*** Begin Patch\n*** Update File: a.txt\n a\n\n-b\n+c\n\n*** Update File: b.txt\n@@\n-x\n+y\n*** End Patch",
    );
    const a = p.files[0] as UpdateFile;
    expect(a.hunks[0]!.lines.map((l) => l.op + l.text)).toEqual([" a", " ", "-b", "+c"]);
  });

  it("tolerates padded markers, a heredoc and a code fence around the patch", () => {
    const heredoc = parseCodexPatch(
      "<<'EOF'\n *** Begin Patch \n*** Add File: x\n+1\n  *** End Patch  \nEOF\n",
    );
    expect(heredoc.files).toMatchObject([{ kind: "add", path: "x", lines: ["1"] }]);
    expect(heredoc.warnings[0]).toContain("heredoc");
    const fenced = parseCodexPatch("```\n*** Begin Patch\n*** Delete File: y\n*** End Patch\n```");
    expect(fenced.files).toMatchObject([{ kind: "delete", path: "y" }]);
    expect(detectFormat("```patch\n*** Begin Patch\n")).toBe("codex");
  });

  it("refuses a patch cut off before *** End Patch, so nothing is half-applied", () => {
    expect(() => parseCodexPatch("*** Begin Patch\n*** Add File: x\n+1\n")).toThrow(
      /does not end with "\*\*\* End Patch".*cut off/,
    );
  });

  it("names the line of a hunk line without a prefix, and an empty update", () => {
    expect(() =>
      parseCodexPatch("*** Begin Patch\n*** Update File: a\n@@\n a\noops\n*** End Patch"),
    ).toThrow(/Line 5: "oops" in hunk 1 of a does not start with " "/);
    expect(() => parseCodexPatch("*** Begin Patch\n*** Update File: a\n*** End Patch")).toThrow(
      /has no hunks/,
    );
    expect(() => parseCodexPatch("*** Begin Patch\n*** Frobnicate: a\n*** End Patch")).toThrow(
      /Line 2: expected/,
    );
  });

  it("refuses an empty patch, which names no file", () => {
    expect(() => parseCodexPatch("*** Begin Patch\n*** End Patch\n")).toThrow(
      /The patch names no file/,
    );
  });

  it("keeps a context line that starts with *** (after its space) inside a hunk", () => {
    const p = parseCodexPatch(
      "*** Begin Patch\n*** Update File: notes.md\n@@\n *** Update File: not a marker\n-a\n+b\n*** End Patch",
    );
    const u = p.files[0] as UpdateFile;
    expect(u.hunks[0]!.lines[0]).toEqual({ op: " ", text: "*** Update File: not a marker" });
  });
});
