/**
 * search finds text in files in their own encodings, with real ripgrep: a
 * declared encoding (.editorconfig, .gitattributes) is searched in it, a file
 * nothing declares is found by its bytes and read in the encoding `read`
 * finds; each hit has the line number and text `read` shows, and `edit`
 * accepts that line with read's tag or as old_text.
 */
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import type { SearchResult } from "../../src/index.js";
import { widen } from "../../src/tools/search/declared.js";
import { Project } from "../helpers/project.js";
import { CORPUS, encode, type Sample } from "./corpus.js";

const search = async (p: Project, args: Record<string, unknown>) =>
  (await p.splice().call("search", args)) as SearchResult;

/** Line `n` as read shows it, and the file's tag. */
async function readLine(p: Project, path: string, n: number) {
  const { results } = await p.splice().read({ targets: [{ path }] });
  const line = results[0]!.content!.split("\n").find((l) => l.startsWith(`${n}| `));
  return { text: line?.slice(`${n}| `.length), tag: results[0]!.file_hash! };
}

/** The first run of non-ASCII characters (at most two) and the first line it is on. */
function wordOf(sample: Sample): { word: string; line: number } {
  const lines = sample.text.replaceAll("\r\n", "\n").split("\n");
  const at = lines.findIndex((l) => /[^\x00-\x7f]/.test(l));
  const word = /[^\x00-\x7f]+/.exec(lines[at]!)![0].slice(0, 2);
  return { word, line: lines.findIndex((l) => l.includes(word)) + 1 };
}

function plant(sample: Sample, declared: boolean): Project {
  const p = new Project();
  if (declared) p.write(".editorconfig", `[${sample.file}]\ncharset = ${sample.encoding}\n`);
  p.write(`src/${sample.file}`, encode(sample));
  return p;
}

/** Every hit's text is read's text for that line, and edit accepts the line. */
async function expectReadsAgree(p: Project, result: SearchResult) {
  expect(result.matches).toBeGreaterThan(0);
  for (const hit of result.hits) {
    expect((await readLine(p, hit.path, hit.line)).text).toBe(hit.text);
  }
  const hit = result.hits[0]!;
  const { tag } = await readLine(p, hit.path, hit.line);
  const edited = await p.splice().edit({
    targets: [{ path: hit.path, file_hash: tag, ops: `replace ${hit.line}:\n+${hit.text} ` }],
  });
  expect(edited.results[0]).toMatchObject({ applied: true, changed: true });
  const again = await p.splice().edit({
    targets: [{ path: hit.path, edits: [{ old_text: `${hit.text} `, new_text: hit.text }] }],
  });
  expect(again.results[0]).toMatchObject({ applied: true, changed: true });
}

describe.each(CORPUS)("$encoding ($file)", (sample) => {
  const { word, line } = wordOf(sample);

  it("is searched in its declared encoding: the line, its text as read shows it, a tag edit takes", async () => {
    const p = plant(sample, true);
    const result = await search(p, { pattern: word });
    expect(result.hits.map((h) => h.path)).toContain(`src/${sample.file}`);
    expect(result.hits.some((h) => h.line === line)).toBe(true);
    await expectReadsAgree(p, result);
    // The file is back as it was: every other byte kept.
    expect(p.bytes(`src/${sample.file}`).equals(encode(sample))).toBe(true);
  });

  it.skipIf(sample.config)(
    "is found without a declaration when its encoding is told for sure",
    async () => {
      const p = plant(sample, false);
      const result = await search(p, { pattern: word });
      expect(result.hits.some((h) => h.line === line)).toBe(true);
      await expectReadsAgree(p, result);
    },
  );
});

describe("search in legacy files", () => {
  const sjis = CORPUS.find((s) => s.encoding === "shift_jis")!;
  const cp1252 = CORPUS.find((s) => s.encoding === "windows-1252")!;

  function mixed(): Project {
    const p = new Project();
    p.write(".editorconfig", "root = true\n[*.c]\ncharset = shift_jis\n[*.md]\ncharset = utf-8\n");
    p.write("src/main.c", encode(sjis));
    p.write("vb/.gitattributes", "*.vb text working-tree-encoding=CP1252\n");
    p.write("vb/Form1.vb", encode(cp1252));
    p.write("notes.md", "# Notes\nA café in UTF-8, and 世界.\n");
    return p;
  }

  it("finds a non-ASCII word in a Shift-JIS, a Windows-1252 and a UTF-8 file, each once", async () => {
    const p = mixed();
    const world = await search(p, { pattern: "世界" });
    expect(world.content).toBe(
      'notes.md:2: A café in UTF-8, and 世界.\n\nsrc/main.c:2: const char *greeting = "こんにちは、世界";',
    );
    const cafe = await search(p, { pattern: "café" });
    expect(cafe.content).toBe(
      'notes.md:2: A café in UTF-8, and 世界.\n\nvb/Form1.vb:2: Dim café As String = "Crème brûlée à 5 €"',
    );
    await expectReadsAgree(p, cafe);
  });

  it("shows the decoded line for an ASCII word, once, with context lines decoded", async () => {
    const p = mixed();
    const result = await search(p, { pattern: "greeting", context: 1 });
    expect(result.content).toBe(
      [
        "src/main.c-1- /* 吾輩は猫である。名前はまだ無い。 */",
        'src/main.c:2: const char *greeting = "こんにちは、世界";',
        "src/main.c-3- /* どこで生れたかとんと見当がつかぬ。 */",
      ].join("\n"),
    );
    const regex = await search(p, { pattern: "Dim \\w+ As", regex: true, path: "vb" });
    expect(regex.hits.map((h) => [h.line, h.text])).toEqual([
      [2, 'Dim café As String = "Crème brûlée à 5 €"'],
      [3, "Dim größe As Integer = 1 ' Größe in Zoll"],
    ]);
  });

  it("searches a named legacy file, and a folder inside the declared one", async () => {
    const p = mixed();
    const named = await search(p, { pattern: "€", path: "vb/Form1.vb" });
    expect(named.hits).toEqual([
      { path: "vb/Form1.vb", line: 2, text: 'Dim café As String = "Crème brûlée à 5 €"' },
    ]);
    p.write("vb/sub/Module.vb", iconv.encode("' Ça va\r\nDim naïve = 1\r\n", "windows-1252"));
    const inner = await search(p, { pattern: "naïve", path: "vb/sub" });
    expect(inner.hits).toEqual([{ path: "vb/sub/Module.vb", line: 2, text: "Dim naïve = 1" }]);
  });

  it("keeps the glob: a legacy file the glob leaves out is not shown", async () => {
    const p = mixed();
    const result = await search(p, { pattern: "世界", glob: "*.md" });
    expect(result.hits.map((h) => h.path)).toEqual(["notes.md"]);
  });

  it("counts legacy hits in the limit", async () => {
    const p = mixed();
    p.write("src/more.c", iconv.encode("/* 世界 */\n/* 世界 */\n/* 世界 */\n", "shift_jis"));
    const result = await search(p, { pattern: "世界", limit: 3 });
    expect(result.matches).toBe(3);
    expect(result.truncated).toBe(true);
    expect(result.hits.map((h) => `${h.path}:${h.line}`)).toEqual([
      "notes.md:2",
      "src/main.c:2",
      "src/more.c:1",
    ]);
  });

  it("does not show a UTF-8 file a later section takes back from a legacy charset twice or garbled", async () => {
    const p = new Project();
    p.write(".editorconfig", "[*]\ncharset = latin1\n[*.md]\ncharset = utf-8\n");
    p.write("a.md", "déjà vu\n");
    p.write("b.txt", iconv.encode("déjà lu\n", "latin1"));
    const result = await search(p, { pattern: "déjà" });
    expect(result.content).toBe("a.md:1: déjà vu\n\nb.txt:1: déjà lu");
  });

  it("finds text in UTF-16 files: after a byte order mark, or declared without one", async () => {
    const p = new Project();
    p.write("bom.rc", iconv.encode('\uFEFFSTRINGTABLE\r\n    IDS_A "Grüße"\r\n', "utf-16le"));
    p.write("raw.txt", iconv.encode("first\nGrüße from BE\n", "utf-16be"));
    p.write(".gitattributes", "raw.txt working-tree-encoding=UTF-16BE\n");
    const result = await search(p, { pattern: "Grüße" });
    expect(result.content).toBe('bom.rc:2:     IDS_A "Grüße"\n\nraw.txt:2: Grüße from BE');
    const named = await search(p, { pattern: "IDS_A", path: "bom.rc" });
    expect(named.hits).toEqual([{ path: "bom.rc", line: 2, text: '    IDS_A "Grüße"' }]);
    await expectReadsAgree(p, result);
  });

  it("finds the first line of a UTF-8 file with a byte order mark", async () => {
    const p = new Project();
    p.write("a.txt", "\uFEFFhello\nworld hello\n");
    const result = await search(p, { pattern: "hello" });
    expect(result.content).toBe("a.txt:1: hello\na.txt:2: world hello");
  });

  it("still shows the lines of a file whose encoding cannot be told, as rg reads them", async () => {
    const p = new Project();
    p.write("a.py", Buffer.from("caf\xe9 = 1\nprint(x)\n", "latin1"));
    const result = await search(p, { pattern: "= 1" });
    expect(result.hits).toEqual([{ path: "a.py", line: 1, text: "caf\uFFFD = 1" }]);
  });
});

describe("declared encodings as search runs", () => {
  it("finds a regex in a file a nested .editorconfig declares, which only a run in its encoding can match", async () => {
    const p = new Project();
    p.write("deep/er/.editorconfig", "[*.txt]\ncharset = latin1\n[keep/**]\ncharset = utf-8\n");
    p.write("deep/er/a.txt", iconv.encode("un café noir\n", "latin1"));
    p.write("deep/er/keep/b.txt", "un café crème\n");
    const result = await search(p, { pattern: "caf. \\w+", regex: true });
    expect(result.content).toBe(
      "deep/er/a.txt:1: un café noir\n\ndeep/er/keep/b.txt:1: un café crème",
    );
    const inside = await search(p, { pattern: "caf. \\w+", regex: true, path: "deep/er/keep" });
    expect(inside.content).toBe("deep/er/keep/b.txt:1: un café crème");
  });

  it("widens a pattern to the folder before its first wildcard and its last part as a name", () => {
    const w = (dir: string, pattern: string) => widen("shift_jis", dir, pattern);
    expect(w("", "*.c")).toEqual({ encoding: "shift_jis", folder: "", name: "*.c" });
    expect(w("a", "/src/*.{c,h}")).toMatchObject({ folder: "a/src", name: "*.{c,h}" });
    expect(w("a", "lib/**.js")).toMatchObject({ folder: "a/lib", name: "*.js" });
    expect(w("", "**/legacy/*.txt")).toMatchObject({ folder: "", name: "*.txt" });
    expect(w("", "file{1..3}.txt")).toMatchObject({ folder: "", name: "file*.txt" });
    expect(w("", "{src/a,b}.c")).toMatchObject({ folder: "", name: undefined });
    expect(w("", "[*]")).toMatchObject({ name: "[*]" });
    expect(w("", "*")).toMatchObject({ name: undefined });
    expect(w("", "docs/")).toBeUndefined();
    expect(w("a", "../b/*.c")).toBeUndefined();
  });
});
