import { describe, expect, it } from "vitest";
import type { Collected, FileHits } from "../../src/tools/search/collect.js";
import { confirmHits, confirmStderr, sameLines } from "../../src/tools/search/confirm.js";

const file = (path: string, lines: [number, string][]): FileHits => ({
  path,
  lines: lines.map(([line, raw]) => ({ line, raw, text: raw, match: true })),
  lastMatch: lines.at(-1)![0],
  firstHit: 0,
  more: false,
});

const bytes = (text: string) => Buffer.from(text);

describe("search results confirmed by a confined read", () => {
  it("keeps a file only when every printed line is the file's own line", () => {
    const f = file("a.txt", [
      [1, "one"],
      [3, "three"],
    ]);
    expect(sameLines(f, bytes("one\ntwo\nthree\n"))).toBe(true);
    expect(sameLines(f, bytes("one\r\ntwo\r\nthree"))).toBe(true);
    expect(sameLines(f, bytes("one\ntwo\nOUTSIDE\n"))).toBe(false);
    expect(sameLines(f, bytes("one\n"))).toBe(false);
  });

  it("reads the bytes as rg read them: after a byte order mark, or in the encoding it was told", () => {
    const f = file("a.txt", [
      [1, "café"],
      [2, "€ \u0081"],
    ]);
    expect(sameLines(f, bytes("\uFEFFcafé\n€ \u0081\n"))).toBe(true);
    const cp1252 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x80, 0x20, 0x81, 0x0a]);
    expect(sameLines(f, cp1252)).toBe(false);
    // rg reads ISO-8859-1 as the WHATWG standard does: Windows-1252, its five holes as C1 controls.
    expect(sameLines(f, cp1252, "iso-8859-1")).toBe(true);
    expect(sameLines(f, cp1252, "windows-1252")).toBe(true);
    const utf16 = Buffer.from("\uFEFFcafé\r\n€ \u0081\r\n", "utf16le");
    expect(sameLines(f, utf16)).toBe(true);
  });

  it("drops the files and hits the confined read does not confirm, and unconfirmed binaries", async () => {
    const found: Collected = {
      files: [file("in.txt", [[1, "needle"]]), file("out.txt", [[1, "needle OUTSIDE"]])],
      hits: [
        { path: "in.txt", line: 1, text: "needle" },
        { path: "out.txt", line: 1, text: "needle OUTSIDE" },
      ],
      truncated: false,
      binary: ["bin.dat", "gone.dat"],
      outcome: { code: 0, stopped: false, stderr: "" },
    };
    const disk: Record<string, string> = {
      "in.txt": "needle\n",
      "out.txt": "needle\n",
      "bin.dat": "a\0b",
    };
    const dropped = await confirmHits(found, async (rel) =>
      rel in disk ? bytes(disk[rel]!) : undefined,
    );
    expect(dropped).toEqual(["out.txt"]);
    expect(found.files.map((f) => f.path)).toEqual(["in.txt"]);
    expect(found.hits.map((h) => h.path)).toEqual(["in.txt"]);
    expect(found.binary).toEqual(["bin.dat"]);
  });

  it("drops rg's messages about files the workspace cannot see, keeps the others", async () => {
    const stderr = [
      "./d/outside-only.txt: No such file or directory (os error 2)",
      "rg: ./d/locked.txt: Permission denied (os error 13)",
      "regex parse error:",
      "error: unclosed group",
    ].join("\n");
    const kept = await confirmStderr(stderr, async (rel) => rel === "d/locked.txt");
    expect(kept.split("\n")).toEqual([
      "rg: ./d/locked.txt: Permission denied (os error 13)",
      "regex parse error:",
      "error: unclosed group",
    ]);
  });
});
