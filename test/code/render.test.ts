/**
 * The compiled template render (rewrite.ts) against the render it replaced,
 * kept here as the oracle: `out` re-split and re-indented per match, each
 * capture asked of the parser where it appears. Random templates and sources
 * (captures at random indentation, on one line or many, blank lines, `$$$`
 * captures that matched nothing, names that captured nothing) must render to
 * the same text and the same kept lines.
 */
import type { SgNode } from "@ast-grep/napi";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { languageOf, parseCode } from "../../src/code/languages.js";
import { indentAt, moveCapture } from "../../src/code/reindent.js";
import { renderReplacement } from "../../src/code/rewrite.js";

const METAVAR = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;

function oracleCaptured(match: SgNode, name: string, multi: boolean): SgNode[] {
  if (multi) {
    const many = match.getMultipleMatches(name);
    if (many.length > 0) return many;
    const one = match.getMatch(name);
    return one ? [one] : [];
  }
  const one = match.getMatch(name);
  return one ? [one] : match.getMultipleMatches(name);
}

function oracleRender(out: string, match: SgNode, source: string) {
  const start = match.range().start.index;
  const indent = indentAt(source, start);
  const template = out
    .split("\n")
    .map((line, i) => (i > 0 && line !== "" ? indent + line : line))
    .join("\n");
  const before = source.slice(source.lastIndexOf("\n", start - 1) + 1, start);
  const kept: string[] = [];
  const text = template.replace(
    METAVAR,
    (all, multi: string | undefined, single: string | undefined, at: number) => {
      const nodes = oracleCaptured(match, (multi ?? single)!, multi !== undefined);
      if (nodes.length === 0) return multi !== undefined ? "" : all;
      // The capture's bytes by its range (moveCapture reads a one-line capture's text instead).
      const slice = source.slice(nodes[0]!.range().start.index, nodes.at(-1)!.range().end.index);
      const to = indentAt(before + template, before.length + at);
      const moved = slice.includes("\n")
        ? moveCapture(source, nodes, to)
        : { text: slice, kept: [] };
      kept.push(...moved.kept);
      return moved.text;
    },
  );
  return { text, kept };
}

const ts = languageOf("a.ts")!;
const py = languageOf("a.py")!;

/** A call `wrap(first, ...rest)` in TypeScript, with arguments that may span lines. */
const argument = fc.oneof(
  fc.constantFrom("x", "a.b", "1", '"s"', '"é😀"', "f(y)", "`t\n  emplate`", "[\n    1,\n  2]"),
  fc.constantFrom("() => {\n    go();\n  }", "{\n  k: v,\n      w }", "/* c\n */ z"),
);
const indentation = fc.constantFrom("", "  ", "    ", "\t", "\t  ");
const piece = fc.constantFrom(
  "$A",
  "$$$REST",
  "$NONE",
  "$$$EMPTY",
  "$A",
  "call(",
  ")",
  " ",
  ";",
  "\n",
  "\n\n",
  "  ",
  "\t",
  "\r",
  "$_",
  "$$$",
  "x$A",
);
const template = fc.array(piece, { minLength: 1, maxLength: 12 }).map((p) => p.join(""));

describe("renderReplacement, compiled once per template", () => {
  it("renders like the per-match render on random templates, captures and indentation", () => {
    fc.assert(
      fc.property(
        indentation,
        fc.constantFrom("", "const v = ", "x; "),
        argument,
        fc.array(argument, { maxLength: 3 }),
        template,
        (indent, lead, first, rest, out) => {
          const call = `wrap(${[first, ...rest].join(", ")})`;
          const source = `function f() {\n${indent}${lead}${call};\n}\n`;
          const root = parseCode(ts, source).root();
          const pattern = "wrap($A, $$$REST)";
          const more = root.findAll(pattern);
          const matches = more.length > 0 ? more : root.findAll("wrap($A)");
          expect(matches.length).toBeGreaterThan(0);
          for (const match of matches) {
            expect(renderReplacement(out, match, source)).toEqual(oracleRender(out, match, source));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("moves a Python body like the per-match render, keeping what cannot move", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("", "    ", "        "),
        fc.constantFrom("    ", "  ", "\t"),
        fc.constantFrom(
          "$$$B",
          "if not $C:\n    $$$B",
          "if ok:\n    $$$B",
          "with lock:\n$$$B\nend()",
          "$$$B\n\n  $$$B",
        ),
        fc.constantFrom("c", 'c == "é😀"', "(a and\n  b)"),
        (outer, step, out, condition) => {
          const source = `def f():\n${outer}if ${condition}:\n${outer}${step}a = 1\n${outer}${step}s = """x\ny"""\n${outer}${step}if d:\n${outer}${step}${step}b()\n`;
          const root = parseCode(py, source).root();
          const matches = root.findAll({
            rule: { pattern: { context: "if $C:\n    $$$B", selector: "if_statement" } },
          } as never);
          expect(matches.length).toBeGreaterThan(0);
          for (const match of matches) {
            const mine = renderReplacement(out, match, source);
            expect(mine).toEqual(oracleRender(out, match, source));
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
