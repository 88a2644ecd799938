import { describe, expect, it } from "vitest";
import { tagOf } from "../../src/text/hashline.js";
import { numbered, Project } from "../helpers/project.js";

describe("read", () => {
  it("renders the header, numbered lines and a stable tag", async () => {
    const p = new Project();
    p.write("src/a.ts", "const a = 1;\nconst b = 2;\n");
    const { results } = await p.splice().read({ targets: [{ path: "src/a.ts" }] });
    const tag = tagOf("const a = 1;\nconst b = 2;\n");
    expect(results[0]).toEqual({
      path: "src/a.ts",
      file_hash: tag,
      header: `¶src/a.ts#${tag}`,
      content: `¶src/a.ts#${tag}\n1| const a = 1;\n2| const b = 2;`,
      total_lines: 2,
      warnings: [],
    });
  });

  it("gives CRLF and BOM files the tag of their LF text", async () => {
    const p = new Project();
    p.write("lf.txt", "x\ny\n");
    p.write("crlf.txt", "\uFEFFx\r\ny\r\n");
    const { results } = await p
      .splice()
      .read({ targets: [{ path: "lf.txt" }, { path: "crlf.txt" }] });
    expect(results[0]!.file_hash).toBe(results[1]!.file_hash);
    expect(results[1]!.content).toContain("1| x\n2| y");
  });

  it("shows a line range and says which lines it showed", async () => {
    const p = new Project();
    p.write("f.txt", numbered(20));
    const { results } = await p.splice().read({ targets: [{ path: "f.txt", line_range: "5-6" }] });
    expect(results[0]!.content.split("\n").slice(1)).toEqual([
      "5| line 5",
      "6| line 6",
      "[showing lines 5..6 of 20]",
    ]);
    const tuple = await p.splice().read({ targets: [{ path: "f.txt", line_range: [19, 30] }] });
    expect(tuple.results[0]!.warnings).toEqual([
      "Lines 19..30 end past line 20; showing up to 20.",
    ]);
  });

  it("caps long files and says exactly how to read on", async () => {
    const p = new Project();
    p.write("big.txt", numbered(2500));
    // A budget that holds 2,000 lines: the line cap is what stops this read.
    const splice = p.splice({ outputBudget: 100_000 });
    const { results } = await splice.read({ targets: [{ path: "big.txt" }] });
    const lines = results[0]!.content.split("\n");
    expect(lines).toHaveLength(2003);
    // Said at the start too, for a client that keeps only the two ends of a long result.
    expect(lines[1]).toBe("[lines 1..2000 of 2500 shown; the last line says how to read on]");
    expect(lines.at(-1)).toBe(
      '[showing lines 1..2000 of 2500; read the rest with line_range "2001..2500"]',
    );
  });

  it("shows at most five files' worth of lines in one call and names the targets left out", async () => {
    const p = new Project();
    const targets = [];
    for (let i = 0; i < 8; i++) {
      p.write(`f${i}.txt`, numbered(30));
      targets.push({ path: `f${i}.txt` });
    }
    // max_lines 20: a budget of 100 lines; each file takes 23 (header, the cut said first,
    // 20 lines, the notice).
    const result = await p.splice({ max_lines: 20 }).read({ targets });
    expect(result.results.slice(0, 4).map((r) => r.content.split("\n").length)).toEqual([
      23, 23, 23, 23,
    ]);
    expect(result.results[4]!.content.split("\n").at(-1)).toBe(
      '[showing lines 1..8 of 30; read the rest with line_range "9..16"]',
    );
    expect(result.not_shown).toEqual(["f5.txt", "f6.txt", "f7.txt"]);
    expect(result.results.at(-1)).toEqual({
      path: "f5.txt",
      content: "",
      warnings: [
        "not shown: 3 more target(s) (f5.txt, f6.txt, f7.txt); this read reached what one result shows (100 lines, 24,000 bytes). Read them in another call, fewer files or fewer lines at a time",
      ],
    });
  });

  it("cuts over-long lines with a notice", async () => {
    const p = new Project();
    p.write("wide.txt", `short\n${"x".repeat(5000)}\n`);
    const { results } = await p
      .splice({ max_line_length: 100 })
      .read({ targets: [{ path: "wide.txt" }] });
    expect(results[0]!.content).toContain(`2| ${"x".repeat(100)}\n[lines 2 cut at 100 characters`);
  });

  it("reports a missing file, a folder, a binary file and a bad range per target, and reads the rest", async () => {
    const p = new Project();
    p.write("ok.txt", "fine\n");
    p.write("dir/inner.txt", "x");
    p.write("image.bin", new Uint8Array([137, 80, 78, 71, 0, 1, 2]));
    p.write("latin1.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    const { results } = await p.splice().read({
      targets: [
        { path: "missing.txt" },
        { path: "dir" },
        { path: "image.bin" },
        { path: "latin1.txt" },
        { path: "ok.txt", line_range: "9..x" },
        { path: "ok.txt", line_range: "7..9" },
        { path: "ok.txt" },
      ],
    });
    expect(results.map((r) => r.error?.code)).toEqual([
      "not_found",
      "is_directory",
      "binary",
      "unknown_encoding",
      "invalid_input",
      "invalid_input",
      undefined,
    ]);
    expect(results[0]!.warnings[0]).toBe(
      "missing.txt does not exist. Check the path, or create it with the write tool.",
    );
    expect(results[3]!.warnings[0]).toContain("is not UTF-8");
    expect(results[5]!.warnings[0]).toContain("has 1 lines");
    expect(results[6]!.content).toContain("1| fine");
  });

  it("reads UTF-16, names the likely encoding of unsure bytes, and near names of a missing file", async () => {
    const p = new Project();
    p.write(
      "notes16.txt",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hi\n", "utf16le")]),
    );
    p.write("legacy.txt", Buffer.from("caf\xe9\n", "latin1"));
    p.write(".env", "SECRET=1\n");
    const { results } = await p.splice().read({
      targets: [
        { path: "notes16.txt" },
        { path: "legacy.txt" },
        { path: "note16.txt" },
        { path: "env" },
      ],
    });
    expect(results[0]!.content).toBe(`¶notes16.txt#${tagOf("hi\n")} (utf-16le)\n1| hi`);
    expect(results[1]!.error).toEqual({
      code: "unknown_encoding",
      message:
        "legacy.txt is not UTF-8, and its encoding cannot be told for sure: likely windows-1252. a guess could write it back in the wrong encoding. Name it in .editorconfig (a section for the file with `charset = windows-1252`) or in .gitattributes (`legacy.txt working-tree-encoding=windows-1252`), with the write tool if neither exists yet, then read it again.",
    });
    expect(results[2]!.error!.message).toBe(
      "note16.txt does not exist. Similar names there: notes16.txt. Check the path, or create it with the write tool.",
    );
    // A secret the guard refuses is never suggested.
    expect(results[3]!.error!.message).toBe(
      "env does not exist. Check the path, or create it with the write tool.",
    );
  });

  it("refuses a file over the size limit", async () => {
    const p = new Project();
    p.write("huge.txt", "x".repeat(2000));
    const { results } = await p
      .splice({ max_file_bytes: 1000 })
      .read({ targets: [{ path: "huge.txt" }] });
    expect(results[0]!.error?.code).toBe("too_large");
    expect(results[0]!.warnings[0]).toContain("Search it instead");
  });

  it("reports a guard refusal as that target's warning", async () => {
    const p = new Project();
    p.write(".env", "SECRET=1\n");
    const { results } = await p.splice().read({ targets: [{ path: ".env" }, { path: "../x" }] });
    expect(results.map((r) => r.error?.code)).toEqual(["guard", "guard"]);
  });

  it("renders an empty file with a notice", async () => {
    const p = new Project();
    p.write("empty.txt", "");
    const { results } = await p.splice().read({ targets: [{ path: "empty.txt" }] });
    expect(results[0]!.content).toBe(`¶empty.txt#${tagOf("")}\n[empty file]`);
  });
});
