import { describe, expect, it } from "vitest";
import { blockAt, blockResolver, nestedBlocks } from "../../src/code/blocks.js";
import { ELISION_BUDGET, planElision, renderSections } from "../../src/code/elide.js";
import { languageOf, parseCode } from "../../src/code/languages.js";
import { extractDefinitions } from "../../src/code/symbols.js";
import { parseDocument } from "../../src/text/document.js";
import { applyOps, parseOps } from "../../src/text/ops.js";
import { FIXTURES } from "./fixtures.js";

function parsed(file: string, source: string) {
  const language = languageOf(file)!;
  const lines = source.split("\n");
  const root = parseCode(language, source).root();
  return { language, lines, root, defs: extractDefinitions(root, language, lines) };
}

describe.each(Object.entries(FIXTURES))("blocks in %s", (_name, fx) => {
  it("resolves a block op's line to the block that starts there", () => {
    const { lines, root, defs } = parsed(fx.file, fx.source);
    const block = blockAt(root, lines, defs, fx.deleteBlock.line);
    expect(block && [block.start, block.end]).toEqual(fx.deleteBlock.removes);
  });

  it("applies delete block, replace block and insert after block", () => {
    const doc = parseDocument(fx.source);
    const resolve = blockResolver(languageOf(fx.file)!, doc.lines);
    const [from, to] = fx.deleteBlock.removes;
    const deleted = applyOps(doc, parseOps(`delete block ${fx.deleteBlock.line}`).ops, resolve);
    expect(deleted.doc.lines).toEqual([...doc.lines.slice(0, from - 1), ...doc.lines.slice(to)]);
    const replaced = applyOps(
      doc,
      parseOps(`replace block ${fx.deleteBlock.line}:\n+// replaced`).ops,
      resolve,
    );
    expect(replaced.doc.lines.slice(from - 2, from + 1)).toEqual([
      doc.lines[from - 2],
      "// replaced",
      doc.lines[to],
    ]);
    const inserted = applyOps(
      doc,
      parseOps(`insert after block ${fx.deleteBlock.line}:\n+// after`).ops,
      resolve,
    );
    expect(inserted.doc.lines[to]).toBe("// after");
  });
});

describe("blockAt", () => {
  it("falls back to the innermost definition, then the statement, around a line", () => {
    const source = `function f() {\n  if (x) {\n\n    g();\n  }\n}\n`;
    const { lines, root, defs } = parsed("a.ts", source);
    // line 3 is blank: nothing starts there; the if statement contains it... inside f
    expect(blockAt(root, lines, defs, 3)).toMatchObject({ start: 1, end: 6 });
    // the closing brace of the if: nothing named starts there either
    expect(blockAt(root, lines, defs, 5)).toMatchObject({ start: 1, end: 6 });
    const top = parsed("a.ts", "if (x) {\n\n  g();\n}\n");
    expect(blockAt(top.root, top.lines, top.defs, 2)).toMatchObject({ start: 1, end: 4 });
    expect(blockAt(top.root, top.lines, top.defs, 5)).toBeUndefined();
  });

  it("takes a Python body's statement, not the whole body", () => {
    const source = `def f():\n    a = 1\n    return a\n`;
    const { lines, root, defs } = parsed("a.py", source);
    expect(blockAt(root, lines, defs, 2)).toMatchObject({ start: 2, end: 2 });
  });
});

function bigClass(methods: number, bodyLines: number): string {
  const out = ["export class Big {"];
  for (let m = 0; m < methods; m++) {
    out.push(`  method${m}(a: number): number {`);
    for (let i = 0; i < bodyLines; i++) out.push(`    a = a + ${i};`);
    out.push("    return a;", "  }");
  }
  out.push("}");
  return `${out.join("\n")}\n`;
}

describe("elision", () => {
  const source = bigClass(40, 20); // 40 methods of 23 lines: 922 lines
  const { lines, defs } = parsed("big.ts", source);
  const cls = defs.find((d) => d.name === "Big")!;
  const blocks = nestedBlocks(cls.node, lines, defs, 5);

  it("folds nested blocks of a long span into their headers", () => {
    const elisions = planElision(cls, blocks);
    expect(elisions.length).toBeGreaterThan(30);
    const rendered = renderSections(lines, [{ start: cls.start, end: cls.end, elisions }], {
      maxLines: 2000,
      maxLineLength: 2000,
    });
    const numbered = rendered.lines.filter((l) => /^\d+\| /.test(l));
    expect(numbered.length).toBeLessThanOrEqual(ELISION_BUDGET);
    expect(rendered.lines).toContain("2|   method0(a: number): number {");
    expect(rendered.lines).toContain(
      '[lines 3..24 elided (method method0); read them with line_range "3..24"]',
    );
  });

  it("never folds the lines asked for", () => {
    const asked = 500;
    const elisions = planElision(cls, blocks, [asked]);
    expect(elisions.some((e) => e.start <= asked && e.end >= asked)).toBe(false);
    const rendered = renderSections(lines, [{ start: cls.start, end: cls.end, elisions }], {
      maxLines: 2000,
      maxLineLength: 2000,
    });
    expect(rendered.lines).toContain(`${asked}| ${lines[asked - 1]}`);
  });

  it("leaves spans within the budget alone", () => {
    const small = parsed("s.ts", bigClass(3, 5));
    const c = small.defs.find((d) => d.name === "Big")!;
    expect(planElision(c, nestedBlocks(c.node, small.lines, small.defs, 5))).toEqual([]);
  });

  it("folds inside a long Python function too", () => {
    const body = Array.from(
      { length: 30 },
      (_, i) => `    if x > ${i}:\n${"        x -= 1\n".repeat(10)}`,
    );
    const py = `def long(x):\n${body.join("")}    return x\n`;
    const p = parsed("long.py", py);
    const f = p.defs.find((d) => d.name === "long")!;
    const elisions = planElision(f, nestedBlocks(f.node, p.lines, p.defs, 5), [100]);
    expect(elisions.length).toBeGreaterThan(10);
    expect(elisions.some((e) => e.start <= 100 && e.end >= 100)).toBe(false);
    expect(elisions[0]!.label).toBe("if statement");
  });
});
