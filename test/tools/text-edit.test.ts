import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createToolkit } from "../../src/toolkit/index.js";
import { Project, rejection } from "../helpers/project.js";

/** The template literal in the file under edit: `${greeting}, ${name}` (kept out of test-code templates). */
const template = ["`$", "{greeting}, $", "{name}"].join("");

const source = `export function greet(name: string) {
  const greeting = "hello";
  return \`\${greeting}, \${name}\`;
}

export function part(name: string) {
  return "bye";
}
`;

describe("edit with old_text / new_text", () => {
  it("replaces a unique exact match and reports it honestly", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const { results } = await p.splice().edit({
      targets: [
        {
          path: "g.ts",
          edits: [
            { old_text: '  const greeting = "hello";', new_text: '  const greeting = "hi";' },
          ],
        },
      ],
    });
    expect(results[0]).toMatchObject({
      path: "g.ts",
      action: "replace",
      applied: true,
      changed: true,
      match_count: 1,
      match_mode: "exact",
      matched_text: '  const greeting = "hello";',
      first_changed_line: 2,
      warnings: [],
    });
    expect(results[0]!.match_score).toBeUndefined();
    expect(results[0]!.backup_session).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(p.text("g.ts")).toContain('const greeting = "hi";');
  });

  it("recovers a re-indented quote, keeps the file's own context lines, and says it was fuzzy", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const { results } = await p.splice().edit({
      targets: [
        {
          path: "g.ts",
          edits: [
            {
              old_text: `const greeting = "hello";\nreturn ${template}\`;`,
              new_text: `const greeting = "hello";\nreturn ${template}!\`;`,
            },
          ],
        },
      ],
    });
    expect(results[0]).toMatchObject({ match_mode: "fuzzy", match_count: 1 });
    expect(p.text("g.ts")).toContain(`  const greeting = "hello";\n  return ${template}!\`;\n`);
  });

  it("applies a quote with a misremembered first line as a delta, keeping that line's own text", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const { results } = await p.splice().edit({
      targets: [
        {
          path: "g.ts",
          edits: [
            {
              old_text: 'export function greet(nam: string) {\n  const greeting = "hello";\n',
              new_text: 'export function greet(nam: string) {\n  const greeting = "hi";\n',
            },
          ],
        },
      ],
    });
    expect(results[0]).toMatchObject({ changed: true, match_mode: "delta", match_count: 1 });
    expect(results[0]!.match_score).toBeGreaterThan(0.9);
    expect(results[0]!.warnings).toContain(
      "Kept the file's own text on line 1, where old_text differs but new_text does not change it.",
    );
    expect(p.text("g.ts")).toBe(source.replace('"hello"', '"hi"'));
  });

  it("a whitespace-only edit the file already reads like is changed: false, with a warning", async () => {
    const p = new Project();
    const file = "if (x) {\n        return 'ViewTransition';\n}\n";
    p.write("v.js", file);
    const { results } = await p.splice().edit({
      targets: [
        {
          path: "v.js",
          edits: [
            {
              old_text: "         return 'ViewTransition';",
              new_text: "        return 'ViewTransition';",
            },
          ],
        },
      ],
    });
    expect(results[0]).toMatchObject({
      changed: false,
      match_mode: "exact",
      warnings: [
        "old_text and new_text differ only in whitespace, and the file already has new_text exactly at line 2; nothing was changed.",
        "The edit changes nothing; the file was not written.",
      ],
    });
    expect(p.text("v.js")).toBe(file);
    const error = await rejection(
      p.splice().edit({
        targets: [
          {
            path: "v.js",
            edits: [
              {
                old_text: "         return 'ViewTransition';",
                new_text: "          return 'ViewTransition';",
              },
            ],
          },
        ],
      }),
    );
    expect(error).toMatchObject({ code: "not_found" });
    expect(error.message).toContain("line 2 has 8 spaces of indentation, old_text has 9 spaces");
    expect(p.text("v.js")).toBe(file);
  });

  it("keeps CRLF and the BOM when the quote uses LF", async () => {
    const p = new Project();
    p.write("w.txt", "\uFEFFone\r\ntwo\r\nthree\r\n");
    await p.splice().edit({
      targets: [{ path: "w.txt", edits: [{ old_text: "two\n", new_text: "2\nand a half\n" }] }],
    });
    expect(p.bytes("w.txt").toString()).toBe("\uFEFFone\r\n2\r\nand a half\r\nthree\r\n");
  });

  it("puts no stray CR in a CRLF file when the quote's lines end in a lone CR", async () => {
    const p = new Project();
    const original = "let a = 1;\r\nlet b = 2;\r\nlet c = 3;\r\n";
    for (const [old_text, new_text] of [
      ["let b = 2;\r", "let b = 20;\r"],
      ["let a = 1;\r\nlet b = 2;\r", "let a = 1;\r\nlet b = 20;\r"],
    ] as const) {
      p.write("cr.js", original);
      await p.splice().edit({ targets: [{ path: "cr.js", edits: [{ old_text, new_text }] }] });
      expect(p.bytes("cr.js").toString()).toBe("let a = 1;\r\nlet b = 20;\r\nlet c = 3;\r\n");
    }
  });

  it("refuses an edit that would put a NUL into the file, and writes nothing", async () => {
    const p = new Project();
    p.write("n.txt", "a\nb\n");
    const error = await rejection(
      p
        .splice()
        .edit({ targets: [{ path: "n.txt", edits: [{ old_text: "b", new_text: "b\u0000" }] }] }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(
      "n.txt was not written: the new text has a NUL character (U+0000) on line 2",
    );
    expect(p.text("n.txt")).toBe("a\nb\n");
  });

  it("creates a file with the line endings its text gives, as write does", async () => {
    const p = new Project();
    const text = "@echo off\r\necho hi\r\n";
    const { results } = await p.splice().edit({
      targets: [{ path: "new.bat", edits: [{ old_text: "", new_text: text }] }],
    });
    expect(results[0]).toMatchObject({ action: "create", warnings: [] });
    expect(p.bytes("new.bat").toString()).toBe(text);
  });

  it("keeps the own line ending of a line edited mid-line in a mixed file", async () => {
    const p = new Project();
    p.write("m.txt", "a\r\nb\r\nx = 1\nc\r\nd\r\n");
    await p.splice().edit({
      targets: [{ path: "m.txt", edits: [{ old_text: "x = 1", new_text: "x = 2" }] }],
    });
    expect(p.bytes("m.txt").toString()).toBe("a\r\nb\r\nx = 2\nc\r\nd\r\n");
  });

  it("inserts new_text literally: $& and $1 are plain text", async () => {
    const p = new Project();
    p.write("r.txt", "price = 5\n");
    await p.splice().edit({
      targets: [
        { path: "r.txt", edits: [{ old_text: "price = 5", new_text: "price = $& $1 $$" }] },
      ],
    });
    expect(p.text("r.txt")).toBe("price = $& $1 $$\n");
  });

  it("refuses an ambiguous quote, listing every match, and writes nothing", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const error = await rejection(
      p.splice().edit({
        targets: [
          { path: "g.ts", edits: [{ old_text: "(name: string) {", new_text: "(n: string) {" }] },
        ],
      }),
    );
    expect(error.code).toBe("ambiguous");
    expect(error.details.lines).toEqual([1, 6]);
    expect(p.text("g.ts")).toBe(source);
  });

  it("says the file changed since the read when the quote is gone", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const s = p.splice();
    await s.read({ targets: [{ path: "g.ts", line_range: "1..4" }] });
    writeFileSync(join(p.root, "g.ts"), source.replace('"hello"', '"howdy"'));
    const error = await rejection(
      s.edit({
        targets: [
          {
            path: "g.ts",
            edits: [{ old_text: '  const greeting = "hello";\n  return x;', new_text: "x" }],
          },
        ],
      }),
    );
    expect(error.code).toBe("not_found");
    expect(error.message).toContain("changed since you read it");
    expect(error.message).toContain("read lines 1..4 again");
  });

  it("never overwrites an outside change to the lines it edits, even when a fuzzy rung would match", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const s = p.splice();
    await s.read({ targets: [{ path: "g.ts" }] });
    const theirs = source.replace('const greeting = "hello";', 'const greeting = "howdy";');
    writeFileSync(join(p.root, "g.ts"), theirs);
    const error = await rejection(
      s.edit({
        targets: [
          {
            path: "g.ts",
            edits: [
              {
                old_text: `export function greet(name: string) {\n  const greeting = "hello";\n  return ${template}\`;\n}`,
                new_text: `export function greet(name: string) {\n  const greeting = "hi";\n  return ${template}\`;\n}`,
              },
            ],
          },
        ],
      }),
    );
    expect(error.code).toBe("conflict");
    expect(error.message).toContain('2|   const greeting = "howdy";');
    expect(p.text("g.ts")).toBe(theirs);
  });

  it("says how to redo a text edit that conflicts: with a fresh quote, not a file_hash", async () => {
    const p = new Project();
    p.write("f.txt", "a\nb\nc\n");
    const s = p.splice();
    const seen = (await s.read({ targets: [{ path: "f.txt" }] })).results[0]!.file_hash;
    writeFileSync(join(p.root, "f.txt"), "a\nBB\nc\n");
    const error = await rejection(
      s.edit({ targets: [{ path: "f.txt", edits: [{ old_text: "b", new_text: "b2" }] }] }),
    );
    expect(error.code).toBe("conflict");
    expect(error.message).toContain(`f.txt changed since you last saw it (at ${seen}), and`);
    expect(error.message).toContain("2| BB");
    expect(error.message).toContain("Redo the edit with old_text quoted from these current lines.");
    expect(error.message).not.toContain("file_hash");
  });

  it("says only the BOM changed when that is all that changed since the read", async () => {
    const p = new Project();
    p.write("f.txt", "a\nb\n");
    const s = p.splice();
    await s.read({ targets: [{ path: "f.txt" }] });
    writeFileSync(join(p.root, "f.txt"), "\uFEFFa\nb\n");
    const { results } = await s.edit({
      targets: [{ path: "f.txt", edits: [{ old_text: "b", new_text: "B" }] }],
    });
    expect(results[0]!.warnings).toEqual([
      "f.txt's byte order mark changed since you last saw it (its text did not); your edit was applied to the current version, starting at line 2.",
    ]);
    expect(p.bytes("f.txt").toString()).toBe("\uFEFFa\nB\n");
  });

  it("merges an edit of the version it saw when the outside change is elsewhere", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const s = p.splice();
    await s.read({ targets: [{ path: "g.ts" }] });
    writeFileSync(join(p.root, "g.ts"), `// header\n${source}`);
    const { results } = await s.edit({
      targets: [
        { path: "g.ts", edits: [{ old_text: 'return "bye";', new_text: 'return "ciao";' }] },
      ],
    });
    expect(results[0]!.warnings.at(-1)).toContain("merged into the current one");
    expect(p.text("g.ts")).toBe(`// header\n${source.replace('"bye"', '"ciao"')}`);
  });

  it("applies all of a file's edits or none", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const error = await rejection(
      p.splice().edit({
        targets: [
          {
            path: "g.ts",
            edits: [
              { old_text: '"hello"', new_text: '"hi"' },
              { old_text: "this text is not in the file", new_text: "x" },
            ],
          },
        ],
      }),
    );
    expect(error.message).toContain("edit 2 of 2; none of this file's edits were applied");
    expect(p.text("g.ts")).toBe(source);
  });

  it("creates a file from an empty old_text and refuses when it exists", async () => {
    const p = new Project();
    const s = p.splice();
    const { results } = await s.edit({
      targets: [{ path: "n/new.ts", edits: [{ old_text: "", new_text: "export {};\n" }] }],
    });
    expect(results[0]).toMatchObject({ action: "create", changed: true });
    expect(p.text("n/new.ts")).toBe("export {};\n");
    const again = await rejection(
      s.edit({ targets: [{ path: "n/new.ts", edits: [{ old_text: "", new_text: "x" }] }] }),
    );
    expect(again.code).toBe("exists");
  });

  it("refuses old_text equal to new_text", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const error = await rejection(
      p
        .splice()
        .edit({ targets: [{ path: "g.ts", edits: [{ old_text: "bye", new_text: "bye" }] }] }),
    );
    expect(error.code).toBe("invalid_input");
  });

  it("shows the right shapes when a target mixes or misses forms", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const s = p.splice();
    const cases = [
      {
        path: "g.ts",
        file_hash: "1A2B",
        ops: "delete 1",
        edits: [{ old_text: "a", new_text: "b" }],
      },
      { path: "g.ts", ops: "delete 1" },
      { path: "g.ts", file_hash: "1A2B", edits: [{ old_text: "a", new_text: "b" }] },
      { path: "g.ts" },
      { path: "g.ts", old_text: "a" },
      { path: "g.ts", old_text: "a", new_text: "b", edits: [{ old_text: "a", new_text: "b" }] },
    ];
    for (const t of cases) {
      const error = await rejection(s.edit({ targets: [t] }));
      expect(error.code).toBe("invalid_input");
      expect(error.message).toContain('{"path", "old_text", "new_text"} (one text edit)');
      expect(error.message).toContain('{"path", "edits": [{"old_text", "new_text"}, ...]}');
    }
  });

  it("previews a text edit without writing", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const { results } = await p.splice().edit({
      mode: "preview",
      targets: [
        { path: "g.ts", edits: [{ old_text: 'return "bye";', new_text: 'return "ciao";' }] },
      ],
    });
    expect(results[0]).toMatchObject({ applied: false, changed: true });
    expect(results[0]!.diff).toContain('+  return "ciao";');
    expect(p.text("g.ts")).toBe(source);
  });

  it("keeps every one of many concurrent text edits to one file", async () => {
    const p = new Project();
    const lines = Array.from({ length: 40 }, (_, i) => `value_${i} = ${i}`);
    p.write("many.txt", `${lines.join("\n")}\n`);
    const s = p.splice();
    await Promise.all(
      lines.map((line, i) =>
        s.edit({
          targets: [
            {
              path: "many.txt",
              edits: [{ old_text: line, new_text: `value_${i} = ${i * 10 + 1}` }],
            },
          ],
        }),
      ),
    );
    const expected = lines.map((_, i) => `value_${i} = ${i * 10 + 1}`);
    expect(p.text("many.txt")).toBe(`${expected.join("\n")}\n`);
  });
});

describe("the minimal edit tool", () => {
  it("takes the flat {path, old_text, new_text} shape", async () => {
    const p = new Project();
    p.write("g.ts", source);
    const kit = createToolkit({ root: p.root, tools: "minimal" });
    const result = (await kit.call("edit", {
      path: "g.ts",
      old_text: 'return "bye";',
      new_text: 'return "ciao";',
    })) as {
      match_mode: string;
      changed: boolean;
    };
    expect(result).toMatchObject({ match_mode: "exact", changed: true });
    expect(p.text("g.ts")).toContain('return "ciao";');
    await expect(kit.call("edit", { path: "g.ts", edits: [] })).rejects.toThrow(
      /Invalid arguments for edit/,
    );
  });
});
