/**
 * The syntax tools read files in their own encodings: outline, read with a
 * symbol, ast_edit (find and rewrite) and ast_rename decode a legacy file as
 * `read` does, and a rewrite writes it back in that encoding, every byte
 * outside the change kept.
 */
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import type { CodeEditResult } from "../../src/codebase/code-edit.js";
import { tagOf } from "../../src/text/hashline.js";
import type { OutlineResult } from "../../src/tools/outline/index.js";
import { Project } from "../helpers/project.js";

const PY = [
  "# Données de l'exercice — café, crème, à bientôt",
  "def prix_café(n):",
  '    """Le prix en € de n cafés."""',
  "    return n * 2",
  "",
  "class Caisse:",
  "    def encaisser(self, montant):",
  '        print("Reçu", montant)  # déjà payé',
  "        return prix_café(montant)",
  "",
].join("\r\n");

const C = [
  "/* 吾輩は猫である。名前はまだ無い。 */",
  "int add(int a, int b) {",
  "  return a + b; /* 足し算 */",
  "}",
  "",
  "int main(void) {",
  '  const char *s = "こんにちは、世界";',
  "  return add(1, 2);",
  "}",
  "",
].join("\n");

function project(): Project {
  const p = new Project();
  p.write(".editorconfig", "root = true\n[*.py]\ncharset = cp1252\n");
  p.write("src/caisse.py", iconv.encode(PY, "windows-1252"));
  // Nothing declares this one: detection is sure of Shift-JIS.
  p.write("src/main.c", iconv.encode(C, "shift_jis"));
  return p;
}

const call = <T>(p: Project, tool: string, args: unknown) =>
  p.splice().call(tool, args) as Promise<T>;

describe("syntax tools on files in their own encoding", () => {
  it("outlines a Windows-1252 Python file and a Shift-JIS C file, with read's tags", async () => {
    const p = project();
    const py = await call<OutlineResult>(p, "outline", { path: "src/caisse.py" });
    const read = await p.splice().read({ targets: [{ path: "src/caisse.py" }] });
    expect(read.results[0]!.header).toContain("(windows-1252)");
    expect(py.content).toContain(`¶src/caisse.py#${read.results[0]!.file_hash}`);
    expect(py.content).toContain("2..4 def prix_café(n)");
    expect(py.content).toContain("7..9 def encaisser(self, montant)");
    const folder = await call<OutlineResult>(p, "outline", { path: "src" });
    expect(folder.files_outlined).toBe(2);
    expect(folder.content).toContain("2..4 int add(int a, int b)");
    expect(folder.content).toContain("def prix_café(n)");
    expect(folder.warnings).toEqual([]);
  });

  it("reads a symbol from a legacy file", async () => {
    const p = project();
    const { results } = await p
      .splice()
      .read({ targets: [{ path: "src/caisse.py", symbol: "prix_café" }] });
    expect(results[0]!.content).toContain('3|     """Le prix en € de n cafés."""');
    const c = await p.splice().read({ targets: [{ path: "src", symbol: "add" }] });
    expect(c.results[0]!.content).toContain("3|   return a + b; /* 足し算 */");
  });

  it("finds and rewrites with ast_edit, writing each file back in its encoding byte for byte outside the change", async () => {
    const p = project();
    const found = await call<
      CodeEditResult & { hits: { path: string; line: number; text: string }[] }
    >(p, "ast_edit", { ops: [{ pat: "print($$$A)" }], paths: ["src"] });
    expect(found.hits).toEqual([
      expect.objectContaining({ path: "src/caisse.py", line: 8, text: 'print("Reçu", montant)' }),
    ]);
    const edited = await call<CodeEditResult>(p, "ast_edit", {
      ops: [
        { pat: "print($$$A)", out: "journal($$$A)" },
        { pat: "add(1, 2)", out: "add(2, 1)" },
      ],
      paths: ["src"],
    });
    expect(edited).toMatchObject({ applied: true, files_changed: 2 });
    const py = PY.replace('print("Reçu", montant)', 'journal("Reçu", montant)');
    expect(p.bytes("src/caisse.py").equals(iconv.encode(py, "windows-1252"))).toBe(true);
    const c = C.replace("return add(1, 2);", "return add(2, 1);");
    expect(p.bytes("src/main.c").equals(iconv.encode(c, "shift_jis"))).toBe(true);
    // The tags the batch reports are those of the new text, as read gives them.
    const tags = [py, c].map((t) => tagOf(t.replaceAll("\r\n", "\n")));
    expect(edited.files.map((f) => f.file_hash)).toEqual(tags);
    await p.splice().undo({});
    expect(p.bytes("src/caisse.py").equals(iconv.encode(PY, "windows-1252"))).toBe(true);
    expect(p.bytes("src/main.c").equals(iconv.encode(C, "shift_jis"))).toBe(true);
  });

  it("rewrites with text the encoding holds, and refuses what it cannot hold", async () => {
    const p = project();
    const ok = await call<CodeEditResult>(p, "ast_edit", {
      ops: [{ pat: "return n * 2", out: "return n * 2  # « prix » ‰" }],
      paths: ["src/caisse.py"],
    });
    expect(ok).toMatchObject({ applied: true, files_changed: 1 });
    const py = PY.replace("return n * 2", "return n * 2  # « prix » ‰");
    expect(p.bytes("src/caisse.py").equals(iconv.encode(py, "windows-1252"))).toBe(true);
    const refused = await p
      .splice()
      .call("ast_edit", {
        ops: [{ pat: "return add(1, 2);", out: "return add(1, 2); /* 😀 */" }],
        paths: ["src/main.c"],
      })
      .then(
        (r) => JSON.stringify(r),
        (e: Error) => e.message,
      );
    expect(refused).toContain("cannot hold");
    expect(p.bytes("src/main.c").equals(iconv.encode(C, "shift_jis"))).toBe(true);
  });

  it("renames a symbol across legacy files with ast_rename", async () => {
    const p = project();
    const renamed = await call<CodeEditResult>(p, "ast_rename", {
      name: "prix_café",
      new_name: "tarif_café",
      paths: ["src"],
    });
    expect(renamed).toMatchObject({ applied: true, files_changed: 1 });
    expect(
      p
        .bytes("src/caisse.py")
        .equals(iconv.encode(PY.replaceAll("prix_café", "tarif_café"), "windows-1252")),
    ).toBe(true);
  });
});
