/**
 * Every tool that changes a file keeps it in its own encoding: the bytes
 * outside the changed line are the original bytes, the file's encoding, BOM
 * and line endings stay, and undo puts the original back byte for byte.
 */
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { tagOf } from "../../src/text/hashline.js";
import { Project, rejection } from "../helpers/project.js";
import { CORPUS, encode, type Sample } from "./corpus.js";

function plant(sample: Sample): Project {
  const p = new Project();
  if (sample.config) {
    p.write(".editorconfig", `root = true\n[${sample.file}]\ncharset = ${sample.encoding}\n`);
  }
  p.write(sample.file, encode(sample));
  return p;
}

const eolOf = (text: string) => (text.includes("\r\n") ? "\r\n" : "\n");

/** The text with line 2 replaced, in the file's line endings. */
function withLine2(sample: Sample): string {
  const eol = eolOf(sample.text);
  const lines = sample.text.split(eol);
  lines[1] = sample.line2;
  return lines.join(eol);
}

/** The error a read reports for its one target. */
async function readError(p: Project, path: string) {
  const { results } = await p.splice().read({ targets: [{ path }] });
  return results[0]!.error!;
}

/** Asserts `after` is `before` with only line 2's bytes changed, and is the expected text. */
function expectLine2Only(sample: Sample, after: Buffer) {
  const before = encode(sample);
  const expected = encode(sample, withLine2(sample));
  expect(after.equals(expected)).toBe(true);
  const eol = encode(sample, eolOf(sample.text)).subarray(sample.bom ? 2 : 0);
  const head = before.subarray(0, before.indexOf(eol) + eol.length);
  const firstEol = head.length;
  expect(after.subarray(0, firstEol).equals(head)).toBe(true);
  const tailStart = before.indexOf(eol, firstEol) + eol.length;
  const tail = before.subarray(tailStart);
  expect(after.subarray(after.length - tail.length).equals(tail)).toBe(true);
}

describe.each(CORPUS)("$encoding ($file)", (sample) => {
  const normalized = sample.text.replaceAll("\r\n", "\n");

  it("reads with the encoding in the header and the tag of its text", async () => {
    const p = plant(sample);
    const { results } = await p.splice().read({ targets: [{ path: sample.file }] });
    const tag = tagOf(normalized);
    expect(results[0]!.file_hash).toBe(tag);
    expect(results[0]!.header).toBe(`¶${sample.file}#${tag} (${sample.encoding})`);
    const lines = normalized.replace(/\n$/, "").split("\n");
    expect(results[0]!.content).toBe(
      [results[0]!.header, ...lines.map((l, i) => `${i + 1}| ${l}`)].join("\n"),
    );
  });

  it("edits a line with a line op, keeping every other byte, and undoes it", async () => {
    const p = plant(sample);
    const s = p.splice();
    const { results } = await s.read({ targets: [{ path: sample.file }] });
    const edited = await s.edit({
      targets: [
        {
          path: sample.file,
          file_hash: results[0]!.file_hash,
          ops: `replace 2:\n+${sample.line2}`,
        },
      ],
    });
    expect(edited.results[0]).toMatchObject({ applied: true, changed: true });
    expectLine2Only(sample, p.bytes(sample.file));
    const again = await s.read({ targets: [{ path: sample.file }] });
    expect(again.results[0]!.file_hash).toBe(edited.results[0]!.file_hash);
    expect(again.results[0]!.content).toContain(`2| ${sample.line2}`);
    await s.undo({});
    expect(p.bytes(sample.file).equals(encode(sample))).toBe(true);
  });

  it("edits with old_text / new_text", async () => {
    const p = plant(sample);
    const old = normalized.split("\n")[1]!;
    await p.splice().edit({
      targets: [{ path: sample.file, edits: [{ old_text: old, new_text: sample.line2 }] }],
    });
    expectLine2Only(sample, p.bytes(sample.file));
  });

  it("applies a unified patch", async () => {
    const p = plant(sample);
    const lines = normalized.split("\n");
    const patch = `--- a/${sample.file}\n+++ b/${sample.file}\n@@ -1,3 +1,3 @@\n ${lines[0]}\n-${lines[1]}\n+${sample.line2}\n ${lines[2]}\n`;
    const r = await p.splice().call("patch", { patch });
    expect(r).toMatchObject({ applied: true });
    expectLine2Only(sample, p.bytes(sample.file));
  });

  it("writes the whole file back in its encoding", async () => {
    const p = plant(sample);
    const text = withLine2(sample).replaceAll("\r\n", "\n");
    const { results } = await p.splice().write({ targets: [{ path: sample.file, text }] });
    expect(results[0]!.warnings.join(" ")).toContain(`encoding (${sample.encoding})`);
    expectLine2Only(sample, p.bytes(sample.file));
  });
});

describe("other writers keep the encoding", () => {
  const sample = CORPUS.find((s) => s.encoding === "euc-kr")!;

  it("file append adds lines in the file's encoding", async () => {
    const p = plant(sample);
    await p.splice().call("file", { action: "append", path: sample.file, text: "# 끝\n" });
    expect(p.bytes(sample.file).equals(encode(sample, `${sample.text}# 끝\n`))).toBe(true);
  });

  it("tidy trims trailing spaces and leaves every other byte", async () => {
    const p = new Project();
    p.write(sample.file, encode(sample, sample.text.replace("만세\n", "만세   \n")));
    const r = await p.splice().call("tidy", { paths: [sample.file] });
    expect(JSON.stringify(r)).not.toContain("binary");
    expect(p.bytes(sample.file).equals(encode(sample))).toBe(true);
  });
});

describe("refusals", () => {
  it("refuses text the encoding cannot hold, naming the characters, and writes nothing", async () => {
    const sample = CORPUS.find((s) => s.encoding === "shift_jis")!;
    const p = plant(sample);
    const s = p.splice();
    const { results } = await s.read({ targets: [{ path: sample.file }] });
    const error = await rejection(
      s.edit({
        targets: [
          { path: sample.file, file_hash: results[0]!.file_hash, ops: "replace 2:\n+x = 😀 ü;" },
        ],
      }),
    );
    expect(error.code).toBe("unencodable");
    expect(error.message).toContain(
      'it is in shift_jis, which cannot hold "😀" (U+1F600), "ü" (U+00FC)',
    );
    expect(p.bytes(sample.file).equals(encode(sample))).toBe(true);
  });

  it("refuses a Latin-1 file it cannot tell for sure, naming the likely encoding and how to set it", async () => {
    const p = new Project();
    p.write("a.py", Buffer.from("caf\xe9 = 1\n", "latin1"));
    const error = await readError(p, "a.py");
    expect(error.code).toBe("unknown_encoding");
    expect(error.message).toContain(
      "a.py is not UTF-8, and its encoding cannot be told for sure: likely windows-1252",
    );
    expect(error.message).toContain(".editorconfig");
    expect(error.message).toContain("working-tree-encoding");
  });

  it("reads it once .gitattributes names the encoding", async () => {
    const p = new Project();
    p.write("a.py", Buffer.from("caf\xe9 = 1\n", "latin1"));
    p.write(".gitattributes", "*.txt text\n*.py text working-tree-encoding=ISO-8859-1\n");
    const { results } = await p.splice().read({ targets: [{ path: "a.py" }] });
    expect(results[0]!.content).toBe(`¶a.py#${tagOf("café = 1\n")} (iso-8859-1)\n1| café = 1`);
  });

  it("refuses bytes that are not valid in the configured encoding", async () => {
    const p = new Project();
    p.write("a.txt", Buffer.from([0x82, 0xa0, 0x0a, 0x81, 0x0a])); // あ, then a lone lead byte
    p.write(".editorconfig", "[*.txt]\ncharset = shift_jis\n");
    const error = await readError(p, "a.txt");
    expect(error.code).toBe("unknown_encoding");
    expect(error.message).toContain(".editorconfig says shift_jis, but it is not valid shift_jis");
  });

  it("keeps refusing binary files as binary", async () => {
    const p = new Project();
    p.write("a.bin", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0x10]));
    const error = await readError(p, "a.bin");
    expect(error.code).toBe("binary");
  });
});

describe("undo as a revert", () => {
  it("reverts one session's line in a Shift-JIS file and keeps a later change from another", async () => {
    const sample = CORPUS.find((s) => s.encoding === "shift_jis")!;
    const p = plant(sample);
    const mine = p.splice();
    const other = p.splice({ history: { session: "other" } });
    const read = async (s: typeof mine) =>
      (await s.read({ targets: [{ path: sample.file }] })).results[0]!.file_hash;
    await mine.edit({
      targets: [
        { path: sample.file, file_hash: await read(mine), ops: `replace 2:\n+${sample.line2}` },
      ],
    });
    await other.edit({
      targets: [
        {
          path: sample.file,
          file_hash: await read(other),
          ops: "replace 4:\n+int main(void) { return 1; } /* 終 */",
        },
      ],
    });
    await mine.undo({});
    const lines = sample.text.split("\n");
    lines[3] = "int main(void) { return 1; } /* 終 */";
    expect(p.bytes(sample.file).equals(encode(sample, lines.join("\n")))).toBe(true);
  });
});

describe("a new file", () => {
  it("is written in the encoding .editorconfig names for it, and reads back", async () => {
    const p = new Project();
    p.write(".editorconfig", "[*.c]\ncharset = shift_jis\n[*.rc]\ncharset = utf-16le\n");
    const s = p.splice();
    const { results } = await s.write({
      targets: [
        { path: "new.c", text: "/* 新しい */\n" },
        { path: "app.rc", text: 'IDS_A "表示"\n' },
        { path: "a.txt", text: "é\n" },
      ],
    });
    expect(results[0]!.warnings).toContain("Wrote new.c in shift_jis, as .editorconfig says.");
    expect(p.bytes("new.c").equals(iconv.encode("/* 新しい */\n", "shift_jis"))).toBe(true);
    expect(p.bytes("app.rc").equals(iconv.encode('\uFEFFIDS_A "表示"\n', "utf-16le"))).toBe(true);
    expect(p.text("a.txt")).toBe("é\n");
    const read = await s.read({ targets: [{ path: "new.c" }, { path: "app.rc" }] });
    expect(read.results.map((r) => r.header?.split(" ")[1])).toEqual(["(shift_jis)", "(utf-16le)"]);
  });
});

describe("new text in the project's encoding", () => {
  const latin1 = (text: string) => iconv.encode(text, "latin1");

  function project(): Project {
    const p = new Project();
    p.write(".editorconfig", "root = true\n[*.txt]\ncharset = latin1\n");
    p.write("docs/.gitattributes", "*.md working-tree-encoding=Shift_JIS\n");
    return p;
  }

  it("creates files in it with edit, file, patch (unified and Codex) and write", async () => {
    const p = project();
    const s = p.splice();
    const created = await s.edit({
      targets: [{ path: "a.txt", edits: [{ old_text: "", new_text: "café\n" }] }],
    });
    expect(created.results[0]!.warnings).toContain(
      "Wrote a.txt in iso-8859-1, as .editorconfig says.",
    );
    await s.call("file", { action: "create", path: "b.txt", text: "crème\n" });
    await s.call("patch", {
      patch: "--- /dev/null\n+++ b/c.txt\n@@ -0,0 +1 @@\n+brûlée\n",
    });
    const codex = (await s.call("patch", {
      patch: "*** Begin Patch\n*** Add File: docs/d.md\n+# 日本語\n*** End Patch\n",
    })) as { results: { warnings: string[] }[] };
    expect(JSON.stringify(codex)).toContain(
      "Wrote docs/d.md in shift_jis, as docs/.gitattributes says.",
    );
    await s.write({ targets: [{ path: "e.txt", text: "à bientôt\n" }] });
    expect(p.bytes("a.txt").equals(latin1("café\n"))).toBe(true);
    expect(p.bytes("b.txt").equals(latin1("crème\n"))).toBe(true);
    expect(p.bytes("c.txt").equals(latin1("brûlée\n"))).toBe(true);
    expect(p.bytes("docs/d.md").equals(iconv.encode("# 日本語\n", "shift_jis"))).toBe(true);
    expect(p.bytes("e.txt").equals(latin1("à bientôt\n"))).toBe(true);
    const read = await s.read({ targets: [{ path: "a.txt" }, { path: "docs/d.md" }] });
    expect(read.results.map((r) => r.header?.split(" ")[1])).toEqual([
      "(iso-8859-1)",
      "(shift_jis)",
    ]);
  });

  it("writes é into an ASCII file the config declares Latin-1 as one byte, keeping every other byte", async () => {
    const p = project();
    p.write("notes.txt", "one\r\ntwo\r\nthree\r\n");
    const s = p.splice();
    const { results } = await s.read({ targets: [{ path: "notes.txt" }] });
    const edited = await s.edit({
      targets: [
        { path: "notes.txt", file_hash: results[0]!.file_hash, ops: "replace 2:\n+deux é" },
      ],
    });
    expect(edited.results[0]!.warnings).toContain(
      "Wrote notes.txt in iso-8859-1, as .editorconfig says (it held only ASCII until now).",
    );
    expect(
      p.bytes("notes.txt").equals(Buffer.from("one\r\ndeux \xe9\r\nthree\r\n", "latin1")),
    ).toBe(true);
    const again = await s.read({ targets: [{ path: "notes.txt" }] });
    expect(again.results[0]!.file_hash).toBe(edited.results[0]!.file_hash);
    expect(again.results[0]!.header).toContain("(iso-8859-1)");
    // Text the encoding cannot hold is refused, as for any file in it.
    const refused = await s
      .edit({
        targets: [{ path: "notes.txt", edits: [{ old_text: "three", new_text: "三" }] }],
      })
      .catch((e: Error) => e);
    expect(String(refused)).toContain("cannot hold");
    await s.undo({});
    expect(p.text("notes.txt")).toBe("one\r\ntwo\r\nthree\r\n");
  });

  it("keeps ASCII and UTF-8 files as they are: ASCII text stays, a UTF-8 file stays UTF-8, no config means UTF-8", async () => {
    const p = project();
    p.write("plain.txt", "ascii only\n");
    p.write("utf8.txt", "déjà\n");
    const s = p.splice();
    await s.edit({
      targets: [{ path: "plain.txt", edits: [{ old_text: "only", new_text: "still" }] }],
    });
    expect(p.text("plain.txt")).toBe("ascii still\n");
    // Valid UTF-8 is UTF-8 whatever the config says (it is tried first), and an edit keeps it so.
    await s.edit({
      targets: [{ path: "utf8.txt", edits: [{ old_text: "déjà", new_text: "déjà vu" }] }],
    });
    expect(p.text("utf8.txt")).toBe("déjà vu\n");
    await s.write({ targets: [{ path: "free.md", text: "naïve\n" }] });
    expect(p.text("free.md")).toBe("naïve\n");
    const ascii = await s.write({ targets: [{ path: "new.txt", text: "plain\n" }] });
    expect(ascii.results[0]!.warnings).toEqual([]);
  });

  it("previews the write in the project's encoding and says so", async () => {
    const p = project();
    const preview = await p.splice().write({
      targets: [{ path: "f.txt", text: "où\n" }],
      mode: "preview",
    });
    expect(preview.results[0]!.warnings).toContain(
      "Wrote f.txt in iso-8859-1, as .editorconfig says.",
    );
  });
});

describe("a stale edit", () => {
  it("merges into a Big5 file changed since it was read", async () => {
    const sample = CORPUS.find((s) => s.encoding === "big5")!;
    const p = plant(sample);
    const s = p.splice();
    const { results } = await s.read({ targets: [{ path: sample.file }] });
    const changed = sample.text.replace("登鸛雀樓", "登樓");
    p.write(sample.file, encode(sample, changed));
    const edited = await s.edit({
      targets: [
        {
          path: sample.file,
          file_hash: results[0]!.file_hash,
          ops: `replace 2:\n+${sample.line2}`,
        },
      ],
    });
    expect(edited.results[0]).toMatchObject({ applied: true });
    const lines = changed.split("\n");
    lines[1] = sample.line2;
    expect(p.bytes(sample.file).equals(encode(sample, lines.join("\n")))).toBe(true);
  });
});
