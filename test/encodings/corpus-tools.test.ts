/**
 * The encoding corpus through every tool that writes: real text in each
 * encoding (CPython's cjkencodings test data, and public-domain texts for the
 * single-byte encodings and UTF-16; see each fixtures folder's README), one
 * line changed by each writer in turn. Every byte outside that line must be
 * the file's own, the line must read back as written, and undo must put the
 * original bytes back. (A file too short for its bytes to tell its encoding
 * is refused with a coded error: round-trip.test.ts.)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import type { Encoding } from "../../src/text/encoding.js";
import { Project } from "../helpers/project.js";

interface Fixture {
  dir: string;
  name: string;
  encoding: Encoding;
  /** The charset .editorconfig must name: the bytes alone cannot tell. */
  config?: string;
}

const CPYTHON: Fixture[] = [
  { dir: "cpython", name: "big5.txt", encoding: "big5" },
  { dir: "cpython", name: "cp949.txt", encoding: "euc-kr", config: "cp949" },
  { dir: "cpython", name: "euc_jp.txt", encoding: "euc-jp" },
  { dir: "cpython", name: "euc_kr.txt", encoding: "euc-kr" },
  { dir: "cpython", name: "gb18030.txt", encoding: "gb18030" },
  { dir: "cpython", name: "gb2312.txt", encoding: "gbk" },
  { dir: "cpython", name: "gbk.txt", encoding: "gbk" },
  { dir: "cpython", name: "shift_jis.txt", encoding: "shift_jis" },
];
const PUBLIC_DOMAIN: Fixture[] = [
  { dir: "public-domain", name: "erlkoenig.txt", encoding: "iso-8859-1", config: "latin1" },
  {
    dir: "public-domain",
    name: "declaration-1789.txt",
    encoding: "windows-1252",
    config: "windows-1252",
  },
  { dir: "public-domain", name: "quijote.txt", encoding: "utf-16le" },
  { dir: "public-domain", name: "pushkin.txt", encoding: "utf-16be" },
];
const FIXTURES = [...CPYTHON, ...PUBLIC_DOMAIN];

/** A file as bytes, as text, and the change each writer makes: line `k` (0-based) reversed. */
function load(f: Fixture) {
  const bytes = readFileSync(join(import.meta.dirname, "fixtures", f.dir, f.name));
  const text = iconv.decode(bytes, f.encoding).replace(/^\uFEFF/, "");
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(eol);
  const k = lines.findIndex((l, i) => i > 0 && [...l].length >= 4);
  const line = [...lines[k]!].reverse().join("");
  const lf = text.replaceAll("\r\n", "\n");
  const after = [...lines.slice(0, k), line, ...lines.slice(k + 1)].join(eol);
  return { bytes, text, lf, eol, lines: lf.split("\n"), k, line, after };
}

function plant(f: Fixture): Project {
  const p = new Project();
  p.write(f.name, load(f).bytes);
  if (f.config) p.write(".editorconfig", `[${f.name}]\ncharset = ${f.config}\n`);
  return p;
}

/**
 * `after` holds the original's bytes up to line k and from the end of line k
 * on, and the line between them decodes to the new line: nothing else moved.
 */
function expectOnlyLineK(f: Fixture, after: Buffer) {
  const { bytes, text, eol, k, line } = load(f);
  const lines = text.split(eol);
  const bom = bytes.length - iconv.encode(text, f.encoding).length;
  const head =
    bom +
    iconv.encode(
      lines
        .slice(0, k)
        .map((l) => l + eol)
        .join(""),
      f.encoding,
    ).length;
  const tail = iconv.encode(eol + lines.slice(k + 1).join(eol), f.encoding).length;
  expect(after.subarray(0, head).equals(bytes.subarray(0, head))).toBe(true);
  expect(after.subarray(after.length - tail).equals(bytes.subarray(bytes.length - tail))).toBe(
    true,
  );
  expect(iconv.decode(after.subarray(head, after.length - tail), f.encoding)).toBe(line);
}

const WRITERS: [string, (p: Project, f: Fixture) => Promise<unknown>][] = [
  [
    "edit, line op",
    async (p, f) => {
      const s = p.splice();
      const { results } = await s.read({ targets: [{ path: f.name }] });
      const { k, line } = load(f);
      return s.edit({
        targets: [
          { path: f.name, file_hash: results[0]!.file_hash, ops: `replace ${k + 1}:\n+${line}` },
        ],
      });
    },
  ],
  [
    "edit, old_text",
    (p, f) => {
      const { lines, k, line } = load(f);
      return p.splice().edit({
        targets: [{ path: f.name, edits: [{ old_text: lines[k]!, new_text: line }] }],
      });
    },
  ],
  [
    "patch, unified",
    (p, f) => {
      const { lines, k, line } = load(f);
      const ctx = (i: number) => (i >= 0 && i < lines.length ? [` ${lines[i]}`] : []);
      const body = [...ctx(k - 1), `-${lines[k]}`, `+${line}`, ...ctx(k + 1)];
      const n = body.length - 1;
      const patch = `--- a/${f.name}\n+++ b/${f.name}\n@@ -${k},${n} +${k},${n} @@\n${body.join("\n")}\n`;
      return p.splice().call("patch", { patch });
    },
  ],
  [
    "patch, Codex",
    (p, f) => {
      const { lines, k, line } = load(f);
      const patch = `*** Begin Patch\n*** Update File: ${f.name}\n@@\n ${lines[k - 1]}\n-${lines[k]}\n+${line}\n*** End Patch\n`;
      return p.splice().call("patch", { patch });
    },
  ],
  [
    "write",
    (p, f) => {
      const { after } = load(f);
      return p
        .splice()
        .write({ targets: [{ path: f.name, text: after.replaceAll("\r\n", "\n") }] });
    },
  ],
];

describe.each(FIXTURES)("$dir/$name ($encoding)", (f) => {
  it.each(WRITERS)(
    "%s changes only its line's bytes, and undo restores every byte",
    async (_, write) => {
      const p = plant(f);
      await write(p, f);
      expectOnlyLineK(f, p.bytes(f.name));
      await p.splice().undo({});
      expect(p.bytes(f.name).equals(load(f).bytes)).toBe(true);
    },
  );
});

describe.each(PUBLIC_DOMAIN.filter((f) => f.config))("$dir/$name without .editorconfig", (f) => {
  it("is read as windows-1252, which decodes every byte as the file's own encoding does", async () => {
    const p = new Project();
    p.write(f.name, load(f).bytes);
    const { results } = await p.splice().read({ targets: [{ path: f.name }] });
    expect(results[0]!.header).toContain("(windows-1252)");
    expect(iconv.decode(load(f).bytes, "windows-1252")).toBe(load(f).text);
  });
});
