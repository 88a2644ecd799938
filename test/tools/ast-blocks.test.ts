import { describe, expect, it } from "vitest";
import { supportedLanguageNames } from "../../src/code/languages.js";
import { FIXTURES } from "../code/fixtures.js";
import { Project, rejection } from "../helpers/project.js";

describe.each(Object.entries(FIXTURES))("block ops and the syntax check in %s", (_name, fx) => {
  it("applies `delete block N` to the block that starts on line N", async () => {
    const p = new Project();
    p.write(fx.file, fx.source);
    const splice = p.splice();
    const { results } = await splice.read({ targets: [{ path: fx.file }] });
    const edit = await splice.edit({
      targets: [
        {
          path: fx.file,
          file_hash: results[0]!.file_hash!,
          ops: `delete block ${fx.deleteBlock.line}`,
        },
      ],
    });
    expect(edit.results[0]!.applied).toBe(true);
    const [from, to] = fx.deleteBlock.removes;
    const lines = fx.source.split("\n");
    expect(p.text(fx.file)).toBe([...lines.slice(0, from - 1), ...lines.slice(to)].join("\n"));
  });

  it("warns when a text edit breaks the syntax, and not when it does not", async () => {
    const p = new Project();
    p.write(fx.file, fx.source);
    const splice = p.splice();
    const broken = await splice.edit({
      targets: [
        { path: fx.file, edits: [{ old_text: fx.broken.oldText, new_text: fx.broken.newText }] },
      ],
    });
    expect(
      broken.results[0]!.warnings.some((w) =>
        /^Syntax check \(.+\): the edit introduces parse errors/.test(w),
      ),
    ).toBe(true);
    const fixed = await splice.edit({
      targets: [
        { path: fx.file, edits: [{ old_text: fx.broken.newText, new_text: fx.broken.oldText }] },
      ],
    });
    expect(fixed.results[0]!.warnings.filter((w) => w.startsWith("Syntax check"))).toEqual([]);
  });
});

describe("block ops", () => {
  it("replace block and insert after block use the block around a line", async () => {
    const p = new Project();
    p.write("a.py", "def f():\n    return 1\n\n\ndef g():\n    return 2\n");
    const splice = p.splice();
    const { results } = await splice.read({ targets: [{ path: "a.py" }] });
    await splice.edit({
      targets: [
        {
          path: "a.py",
          file_hash: results[0]!.file_hash!,
          ops: "replace block 1:\n+def f():\n+    return 10\ninsert after block 5:\n+\n+\n+def h():\n+    return 3",
        },
      ],
    });
    expect(p.text("a.py")).toBe(
      "def f():\n    return 10\n\n\ndef g():\n    return 2\n\n\ndef h():\n    return 3\n",
    );
  });

  it("names the supported languages when a file has no syntax support", async () => {
    const p = new Project();
    p.write("notes.txt", "a\nb\n");
    const splice = p.splice();
    const { results } = await splice.read({ targets: [{ path: "notes.txt" }] });
    const error = await rejection(
      splice.edit({
        targets: [{ path: "notes.txt", file_hash: results[0]!.file_hash!, ops: "delete block 1" }],
      }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("block ops need syntax support");
    expect(error.message).toContain(`The supported languages are: ${supportedLanguageNames()}.`);
  });
});
