import { describe, expect, it } from "vitest";
import { createToolkit, renderResult } from "../../src/toolkit/index.js";
import type { ToolkitOptions } from "../../src/toolkit/options.js";
import { numbered, Project } from "../helpers/project.js";

type Undo = { undone: string; backup_session?: string; files: { diff: string }[] };

/** A toolkit whose project's f.txt (5 lines) had line 3 replaced by one call. */
async function edited(options: Partial<ToolkitOptions> = {}) {
  const p = new Project();
  p.write("f.txt", numbered(5));
  const kit = createToolkit({ root: p.root, lsp: false, ...options });
  const read = (await kit.call("read", { targets: [{ path: "f.txt" }] })) as {
    results: { file_hash: string }[];
  };
  const file_hash = read.results[0]!.file_hash;
  await kit.call("edit", { targets: [{ path: "f.txt", file_hash, ops: "replace 3:\n+THREE" }] });
  return { p, kit, tag: file_hash };
}

describe("what the model reads of an undo", () => {
  it("names the session, the call that redoes it, and each file's changed lines", async () => {
    const { p, kit, tag } = await edited();
    const undo = (await kit.call("undo", {})) as Undo;
    expect(renderResult("undo", undo)).toBe(
      `Undid ${undo.undone}; undo {"backup_session": "${undo.backup_session}"} redoes it.\n¶f.txt#${tag}\n@@ -3 +3 @@\n3| line 3`,
    );
    expect(undo.files[0]!.diff).toContain("-THREE\n+line 3\n");
    expect(p.text("f.txt")).toBe(numbered(5));
  });

  it('shows the whole diff with resultDiff: "full"', async () => {
    const { kit, tag } = await edited({ resultDiff: "full" });
    const undo = (await kit.call("undo", {})) as Undo;
    expect(renderResult("undo", undo)).toBe(
      `Undid ${undo.undone}; undo {"backup_session": "${undo.backup_session}"} redoes it.\n¶f.txt#${tag}\n${undo.files[0]!.diff.trimEnd()}`,
    );
  });

  it("says a preview wrote nothing, and names a file the undo deletes", async () => {
    const { kit } = await edited();
    await kit.call("write", { targets: [{ path: "new.txt", text: "a\nb\n" }] });
    const preview = (await kit.call("undo", { mode: "preview" })) as Undo;
    expect(renderResult("undo", preview)).toBe(
      `Undo of ${preview.undone} previewed: nothing was written.\n¶new.txt (deleted)`,
    );
    const undo = (await kit.call("undo", {})) as Undo;
    expect(renderResult("undo", undo)).toMatch(
      /^Undid \S+; .* redoes it\.\n¶new\.txt \(deleted\)$/,
    );
  });
});
