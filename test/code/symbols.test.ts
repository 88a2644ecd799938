import { describe, expect, it } from "vitest";
import { definitionAt } from "../../src/code/blocks.js";
import { type Language, languageOf, parseCode } from "../../src/code/languages.js";
import {
  type Definition,
  extractDefinitions,
  matchesSymbol,
  qualifiedName,
  signature,
  splitSymbol,
} from "../../src/code/symbols.js";
import { FIXTURES } from "./fixtures.js";

function definitions(file: string, source: string): { defs: Definition[]; language: Language } {
  const language = languageOf(file)!;
  const lines = source.split("\n");
  return {
    defs: extractDefinitions(parseCode(language, source).root(), language, lines),
    language,
  };
}

function find(defs: Definition[], symbol: string): [number, number][] {
  return defs
    .filter((d) => matchesSymbol(d, splitSymbol(symbol), symbol))
    .map((d) => [d.start, d.end]);
}

describe.each(Object.entries(FIXTURES))("definitions in %s", (_name, fx) => {
  const { defs } = definitions(fx.file, fx.source);

  it("finds a top-level definition", () => {
    const found = defs.filter((d) => matchesSymbol(d, [fx.top.symbol], fx.top.symbol));
    expect(found.map((d) => ({ lines: [d.start, d.end], kind: d.kind }))).toContainEqual({
      lines: fx.top.lines,
      kind: fx.top.kind,
    });
  });

  it("finds a nested member by its qualified name", () => {
    expect(find(defs, fx.member.symbol)).toEqual([fx.member.lines]);
  });

  it("finds every definition of a duplicated name", () => {
    expect(find(defs, fx.duplicated.symbol)).toEqual(fx.duplicated.lines);
  });

  it("knows the innermost definition around a line", () => {
    const def = definitionAt(defs, fx.lineInBlock.line);
    expect(def && [def.start, def.end]).toEqual(fx.lineInBlock.block);
  });
});

describe("definitions", () => {
  it("nests members and names them the language's way", () => {
    const { defs, language } = definitions("a.rs", FIXTURES.rust!.source);
    const norm = defs.find((d) => d.name === "norm" && d.kind === "method")!;
    expect(qualifiedName(norm, language)).toBe("Point::norm");
    const go = definitions("a.go", FIXTURES.go!.source);
    const start = go.defs.find((d) => d.name === "Start" && d.kind === "method")!;
    expect(qualifiedName(start, go.language)).toBe("Server.Start");
  });

  it("keeps locals of functions out, and export and decorators in", () => {
    const source = `export const A = 1;\n\nexport function f() {\n  const local = 2;\n  return local;\n}\n\n@sealed\nclass C {}\n`;
    const { defs } = definitions("a.ts", source);
    expect(defs.map((d) => [d.name, d.kind, d.start, d.end])).toEqual([
      ["A", "constant", 1, 1],
      ["f", "function", 3, 6],
      ["C", "class", 8, 9],
    ]);
  });

  it("skips locals inside callbacks too", () => {
    const source = `describe("x", () => {\n  const inner = 1;\n});\nconst outer = 2;\n`;
    expect(definitions("a.js", source).defs.map((d) => d.name)).toEqual(["outer"]);
  });

  it("gives a one-line signature", () => {
    const source = `export async function load(\n  path: string,\n): Promise<string> {\n  return path;\n}\n`;
    const { defs } = definitions("a.ts", source);
    expect(signature(defs[0]!, source.split("\n"))).toBe(
      "async function load( path: string, ): Promise<string>",
    );
  });

  it.each([
    ["a.java", "class A {\n  void m() {}\n}\n", "A.m"],
    ["a.c", "int add(int a, int b) {\n  return a + b;\n}\n", "add"],
    ["a.cpp", "namespace ns {\nclass A {\n  void m();\n};\n}\n", "ns::A::m"],
    ["a.cs", "namespace N {\n  class A {\n    void M() {}\n  }\n}\n", "N.A.M"],
    ["a.rb", "module M\n  class A\n    def m; end\n  end\nend\n", "M::A::m"],
    ["a.php", "<?php\nclass A {\n  function m() {}\n}\n", "A::m"],
    ["a.kt", "class A {\n  fun m() {}\n}\n", "A.m"],
    ["a.swift", "class A {\n  func m() {}\n}\n", "A.m"],
    ["a.scala", "object O {\n  def m(): Int = 1\n}\n", "O.m"],
    ["a.sh", "deploy() {\n  echo hi\n}\n", "deploy"],
    ["a.lua", "local M = {}\nfunction M.run() end\n", "M.run"],
    ["a.ex", "defmodule App do\n  def run(x), do: x\nend\n", "App.run"],
    ["a.hs", "module M where\nrun :: Int -> Int\nrun x = x\n", "run"],
    ["a.dart", "class A {\n  void m() {}\n}\n", "A.m"],
    ["a.yaml", "jobs:\n  build:\n    runs-on: linux\n", "jobs.build"],
    ["a.json", '{"scripts": {"build": "tsc"}}\n', "scripts.build"],
    ["a.toml", '[package]\nname = "x"\n', "package.name"],
    ["a.css", ".button { color: red; }\n", ".button"],
    ["a.html", '<div id="main"><p>hi</p></div>\n', "main"],
  ])("finds definitions in %s", (file, source, symbol) => {
    const { defs, language } = definitions(file, source);
    const names = defs.map((d) => qualifiedName(d, language));
    expect(names).toContain(symbol);
  });
});
