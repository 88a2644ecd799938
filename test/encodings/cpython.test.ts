/**
 * Real legacy-encoded files (CPython's cjkencodings test data, see
 * fixtures/cpython/README.md): detected, read as CPython decodes them, and
 * edited with every other byte kept.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import type { SearchResult } from "../../src/index.js";
import type { Encoding } from "../../src/text/encoding.js";
import { Project } from "../helpers/project.js";

const DIR = join(import.meta.dirname, "fixtures/cpython");

const FILES: { name: string; encoding: Encoding; config?: boolean; composed?: boolean }[] = [
  { name: "big5", encoding: "big5" },
  { name: "cp949", encoding: "euc-kr", config: true },
  { name: "euc_jp", encoding: "euc-jp" },
  { name: "euc_kr", encoding: "euc-kr", composed: true },
  { name: "gb18030", encoding: "gb18030" },
  { name: "gb2312", encoding: "gbk" },
  { name: "gbk", encoding: "gbk" },
  { name: "shift_jis", encoding: "shift_jis" },
];

describe.each(FILES)("$name.txt", ({ name, encoding, config, composed }) => {
  const bytes = readFileSync(join(DIR, `${name}.txt`));
  const text = iconv.decode(bytes, encoding);
  const lines = text.replace(/\n$/, "").split("\n");

  function plant(): Project {
    const p = new Project();
    p.write(`${name}.txt`, bytes);
    if (config) p.write(".editorconfig", `[${name}.txt]\ncharset = cp949\n`);
    return p;
  }

  it("is detected and read as CPython decodes it", async () => {
    if (!composed) expect(text).toBe(readFileSync(join(DIR, `${name}-utf8.txt`), "utf8"));
    const { results } = await plant()
      .splice()
      .read({ targets: [{ path: `${name}.txt` }] });
    const r = results[0]!;
    expect(r.header).toBe(`¶${name}.txt#${r.file_hash} (${encoding})`);
    expect(r.content.split("\n").slice(1)).toEqual(lines.map((l, i) => `${i + 1}| ${l}`));
  });

  it("takes a line edit with every other byte kept", async () => {
    const p = plant();
    const s = p.splice();
    const { results } = await s.read({ targets: [{ path: `${name}.txt` }] });
    const line = Array.from(lines[1]!).reverse().join("");
    await s.edit({
      targets: [
        { path: `${name}.txt`, file_hash: results[0]!.file_hash, ops: `replace 3:\n+${line}` },
      ],
    });
    const raw = bytes.toString("latin1").split("\n");
    raw[2] = iconv.encode(line, encoding).toString("latin1");
    expect(p.bytes(`${name}.txt`).equals(Buffer.from(raw.join("\n"), "latin1"))).toBe(true);
  });

  it("is searched line by line with the numbers and text read shows", async () => {
    const result = (await plant()
      .splice()
      .call("search", { pattern: ".", regex: true, limit: 2000, glob: "*.txt" })) as SearchResult;
    const shown = lines.flatMap((l, i) =>
      l === "" ? [] : [{ path: `${name}.txt`, line: i + 1, text: l }],
    );
    expect(result.hits).toEqual(shown);
    // A literal word from the middle of the file, found by its bytes or by the config.
    const word = [...lines[Math.floor(lines.length / 2)]!].slice(0, 3).join("");
    const found = (await plant().splice().call("search", { pattern: word })) as SearchResult;
    expect(found.hits.length).toBeGreaterThan(0);
    for (const hit of found.hits) expect(hit.text).toBe(lines[hit.line - 1]);
  });
});

it("refuses cp949.txt without the config, naming what it might be", async () => {
  const p = new Project();
  p.write("cp949.txt", readFileSync(join(DIR, "cp949.txt")));
  const { results } = await p.splice().read({ targets: [{ path: "cp949.txt" }] });
  expect(results[0]!.error!.code).toBe("unknown_encoding");
  expect(results[0]!.error!.message).toContain(
    "cp949.txt is not UTF-8, and its encoding cannot be told for sure: likely",
  );
});
