import { describe, expect, it } from "vitest";
import type { Splice } from "../../src/splice.js";
import { Project, rejection } from "../helpers/project.js";

/** Every writing tool, as one call that would change f.md (a read-only file). */
const WRITES: [string, (s: Splice, force?: boolean) => Promise<unknown>][] = [
  [
    "edit",
    (s, force) =>
      s.edit({ targets: [{ path: "f.md", edits: [{ old_text: "old", new_text: "new" }] }], force }),
  ],
  ["write", (s, force) => s.write({ targets: [{ path: "f.md", text: "# T\n\nnew\n" }], force })],
  [
    "patch",
    (s, force) => s.patch({ patch: "--- a/f.md\n+++ b/f.md\n@@ -3 +3 @@\n-old\n+new\n", force }),
  ],
  ["file append", (s, force) => s.file({ action: "append", path: "f.md", text: "new", force })],
  [
    "md",
    (s, force) =>
      s.md({ action: "append_to_section", path: "f.md", heading: "T", text: "new", force }),
  ],
];

describe("a read-only file (mode 0444)", () => {
  for (const [name, call] of WRITES) {
    it(`${name}: is refused with a code that says how to force it, and is left as it was`, async () => {
      const p = new Project();
      p.write("f.md", "# T\n\nold\n", 0o444);
      const error = await rejection(call(p.splice()));
      expect(error.code).toBe("read_only");
      expect(error.message).toContain("f.md was not written: it is read-only (mode 0444)");
      expect(error.message).toContain('pass "force": true');
      expect(p.text("f.md")).toBe("# T\n\nold\n");
      expect(p.mode("f.md")).toBe(0o444);
    });

    it(`${name}: with force is written, stays read-only, and undo puts it back`, async () => {
      const p = new Project();
      p.write("f.md", "# T\n\nold\n", 0o444);
      const s = p.splice();
      await call(s, true);
      expect(p.text("f.md")).toContain("new");
      expect(p.mode("f.md")).toBe(0o444);
      await s.undo({});
      expect(p.text("f.md")).toBe("# T\n\nold\n");
      expect(p.mode("f.md")).toBe(0o444);
    });
  }

  it("a file with any write bit is written as before", async () => {
    const p = new Project();
    p.write("f.md", "old\n", (0o644 & ~0o200) | 0o020); // group-writable only
    await p.splice().write({ targets: [{ path: "f.md", text: "new\n" }] });
    expect(p.text("f.md")).toBe("new\n");
  });

  it("a write that changes nothing is no refusal", async () => {
    const p = new Project();
    p.write("f.md", "same\n", 0o444);
    const r = await p.splice().write({ targets: [{ path: "f.md", text: "same\n" }] });
    expect(r.results[0]!.changed).toBe(false);
  });

  it("tidy skips it with a sentence, and tidies it with force", async () => {
    const p = new Project();
    p.write("f.txt", "old  \n", 0o444);
    p.write("g.txt", "old  \n");
    const s = p.splice();
    const skipped = (await s.tidy({ paths: ["."] })) as { warnings: string[] };
    expect(skipped.warnings).toContain(
      "Skipped f.txt: read-only (mode 0444); pass force: true to tidy it too.",
    );
    expect(p.text("f.txt")).toBe("old  \n");
    expect(p.text("g.txt")).toBe("old\n");
    await s.tidy({ paths: ["f.txt"], force: true });
    expect(p.text("f.txt")).toBe("old\n");
    expect(p.mode("f.txt")).toBe(0o444);
  });

  it("ast_edit over a tree fails closed, naming the read-only file", async () => {
    const p = new Project();
    p.write("a.ts", "console.log(1);\n");
    p.write("b.ts", "console.log(2);\n", 0o444);
    const error = await rejection(
      p.splice().astEdit({ ops: [{ pat: "console.log($A)", out: "log($A)" }], paths: ["."] }),
    );
    expect(error.message).toContain("b.ts was not written: it is read-only");
    expect(p.text("a.ts")).toBe("console.log(1);\n");
    expect(p.text("b.ts")).toBe("console.log(2);\n");
  });
});
