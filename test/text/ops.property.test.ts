import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Document,
  hasFinalNewline,
  parseDocument,
  renderDocument,
  withLines,
} from "../../src/text/document.js";
import { stripNumberedPrefixes } from "../../src/text/hashline.js";
import {
  applyOps,
  type BlockResolver,
  type LineOp,
  OpsError,
  parseOps,
  renderOps,
} from "../../src/text/ops.js";

// ---------------------------------------------------------------- generators

const anyText = fc
  .oneof(
    fc.string(),
    fc.string({ unit: "binary" }),
    fc.constantFrom(
      "",
      "+",
      " lead",
      "trail ",
      "1| a",
      "2| b",
      "3|",
      "replace 1:",
      "delete 2",
      "¶x#ABCD",
    ),
  )
  .map((s) => s.replace(/[\r\n]/g, ""));
const anyBody = fc.array(anyText, { minLength: 1, maxLength: 4 });
const lineNo = fc.integer({ min: 1, max: 1_000_000 });
const range = fc
  .tuple(lineNo, lineNo)
  .map(([a, b]): [number, number] => (a <= b ? [a, b] : [b, a]));

const anyOp: fc.Arbitrary<LineOp> = fc.oneof(
  fc
    .tuple(range, anyBody)
    .map(([[start, end], lines]): LineOp => ({ kind: "replace", start, end, lines, dslLine: 0 })),
  range.map(([start, end]): LineOp => ({ kind: "delete", start, end, dslLine: 0 })),
  fc
    .tuple(fc.constantFrom("before" as const, "after" as const), lineNo, anyBody)
    .map(([where, line, lines]): LineOp => ({ kind: "insert", where, line, lines, dslLine: 0 })),
  fc
    .tuple(fc.constantFrom("head" as const, "tail" as const), anyBody)
    .map(([where, lines]): LineOp => ({ kind: "insert", where, lines, dslLine: 0 })),
  fc
    .tuple(lineNo, anyBody)
    .map(([line, lines]): LineOp => ({ kind: "replace_block", line, lines, dslLine: 0 })),
  lineNo.map((line): LineOp => ({ kind: "delete_block", line, dslLine: 0 })),
  fc
    .tuple(lineNo, anyBody)
    .map(([line, lines]): LineOp => ({ kind: "insert_after_block", line, lines, dslLine: 0 })),
);

/** Documents with a random mix of LF/CRLF, a BOM or not, a final newline or not. */
const anyDocument: fc.Arbitrary<Document> = fc
  .record({
    rows: fc.array(
      fc.record({
        text: fc.constantFrom("a", "b", "", "  c", "d e", "x"),
        eol: fc.constantFrom("\n", "\r\n"),
      }),
      { maxLength: 25 },
    ),
    bom: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map(({ rows, bom, finalNewline }) => {
    let text = bom ? "\uFEFF" : "";
    rows.forEach((row, i) => {
      text += row.text;
      if (i < rows.length - 1 || finalNewline) text += row.eol;
    });
    return parseDocument(text);
  });

/** Blocks for the property tests: line L is the block L..min(n, L+2). */
const resolverFor =
  (n: number): BlockResolver =>
  (line) => [line, Math.min(n, line + 2)];

const smallBody = fc.array(fc.constantFrom("x", "y", "", "a", " z"), {
  minLength: 1,
  maxLength: 3,
});

/** Ops whose line numbers are within 1..n (they may still overlap one another). */
function inRangeOp(n: number): fc.Arbitrary<LineOp> {
  const edge = fc
    .tuple(fc.constantFrom("head" as const, "tail" as const), smallBody)
    .map(([where, lines]): LineOp => ({ kind: "insert", where, lines, dslLine: 0 }));
  if (n === 0) return edge;
  const line = fc.integer({ min: 1, max: n });
  const span = fc
    .tuple(line, fc.integer({ min: 0, max: 3 }))
    .map(([start, len]) => [start, Math.min(n, start + len)] as const);
  return fc.oneof(
    edge,
    fc
      .tuple(span, smallBody)
      .map(([[start, end], lines]): LineOp => ({ kind: "replace", start, end, lines, dslLine: 0 })),
    span.map(([start, end]): LineOp => ({ kind: "delete", start, end, dslLine: 0 })),
    fc
      .tuple(fc.constantFrom("before" as const, "after" as const), line, smallBody)
      .map(
        ([where, at, lines]): LineOp => ({ kind: "insert", where, line: at, lines, dslLine: 0 }),
      ),
    fc
      .tuple(line, smallBody)
      .map(([at, lines]): LineOp => ({ kind: "replace_block", line: at, lines, dslLine: 0 })),
    line.map((at): LineOp => ({ kind: "delete_block", line: at, dslLine: 0 })),
    fc
      .tuple(line, smallBody)
      .map(([at, lines]): LineOp => ({ kind: "insert_after_block", line: at, lines, dslLine: 0 })),
  );
}

// ------------------------------------------------- an independent model of ops

/** What an op does in original coordinates: a removed range, or a gap (g = after line g). */
type Shape = { range: [number, number]; lines: string[] } | { gap: number; lines: string[] };

function shapeOf(op: LineOp, n: number): Shape {
  const resolve = resolverFor(n);
  switch (op.kind) {
    case "replace":
      return { range: [op.start, op.end], lines: op.lines };
    case "delete":
      return { range: [op.start, op.end], lines: [] };
    case "insert":
      if (!("line" in op)) return { gap: op.where === "head" ? 0 : n, lines: op.lines };
      return { gap: op.where === "before" ? op.line - 1 : op.line, lines: op.lines };
    case "replace_block":
      return { range: resolve(op.line)!, lines: op.lines };
    case "delete_block":
      return { range: resolve(op.line)!, lines: [] };
    case "insert_after_block":
      return { gap: resolve(op.line)![1], lines: op.lines };
  }
}

function conflict(a: Shape, b: Shape): boolean {
  if ("range" in a && "range" in b) return a.range[0] <= b.range[1] && b.range[0] <= a.range[1];
  if ("range" in a && "gap" in b) return a.range[0] <= b.gap && b.gap < a.range[1];
  if ("gap" in a && "range" in b) return conflict(b, a);
  return false;
}

/** Keeps the ops that do not conflict with an earlier kept one, numbering their DSL lines. */
function nonOverlapping(ops: LineOp[], n: number): LineOp[] {
  const kept: LineOp[] = [];
  for (const op of ops) {
    if (kept.some((k) => conflict(shapeOf(k, n), shapeOf(op, n)))) continue;
    kept.push({ ...op, dslLine: kept.length + 1 });
  }
  return kept;
}

/** The reference: one splice per op, bottom-up, on copies of the arrays. */
function reference(doc: Document, ops: LineOp[]): Document {
  const n = doc.lines.length;
  const lines = [...doc.lines];
  const eols: (string | undefined)[] = [...doc.eols];
  const steps = ops.map((op, order) => {
    const shape = shapeOf(op, n);
    return "range" in shape
      ? {
          index: shape.range[0] - 1,
          remove: shape.range[1] - shape.range[0] + 1,
          lines: shape.lines,
          isRange: 1,
          order,
        }
      : { index: shape.gap, remove: 0, lines: shape.lines, isRange: 0, order };
  });
  // Bottom-up; at one index the range first (inserts then land before it),
  // and inserts in reverse DSL order (each lands before the previous one).
  steps.sort((a, b) => b.index - a.index || b.isRange - a.isRange || b.order - a.order);
  for (const step of steps) {
    lines.splice(step.index, step.remove, ...step.lines);
    eols.splice(step.index, step.remove, ...step.lines.map(() => undefined));
  }
  return withLines(doc, lines, eols);
}

/** Where each untouched original line (1-based) must land in the output (0-based). */
function untouchedMapping(doc: Document, ops: LineOp[]): Map<number, number> {
  const n = doc.lines.length;
  const shapes = ops.map((op) => shapeOf(op, n));
  const map = new Map<number, number>();
  for (let i = 1; i <= n; i++) {
    let shift = 0;
    let touched = false;
    for (const s of shapes) {
      if ("range" in s) {
        if (s.range[0] <= i && i <= s.range[1]) touched = true;
        else if (s.range[1] < i) shift += s.lines.length - (s.range[1] - s.range[0] + 1);
      } else if (s.gap < i) {
        shift += s.lines.length;
      }
    }
    if (!touched) map.set(i, i - 1 + shift);
  }
  return map;
}

const docWithOps = anyDocument.chain((doc) =>
  fc
    .array(inRangeOp(doc.lines.length), { maxLength: 8 })
    .map((ops) => ({ doc, ops: nonOverlapping(ops, doc.lines.length) })),
);

const withoutDslLine = (ops: LineOp[]) => ops.map(({ dslLine: _, ...rest }) => rest);

// ------------------------------------------------------------------ properties

describe("ops properties", () => {
  it("(1) parseOps(renderOps(ops)) gives the ops back (copied prefixes aside)", () => {
    fc.assert(
      fc.property(fc.array(anyOp, { minLength: 1, maxLength: 8 }), (ops) => {
        const { ops: parsed, warnings } = parseOps(renderOps(ops));
        let stripped = 0;
        const expected = ops.map((op) => {
          if (!("lines" in op)) return op;
          const lines = stripNumberedPrefixes(op.lines);
          if (!lines) return op;
          stripped++;
          return { ...op, lines };
        });
        expect(withoutDslLine(parsed)).toEqual(withoutDslLine(expected));
        expect(warnings).toHaveLength(stripped);
      }),
      { numRuns: 500 },
    );
  });

  it("parseOps either parses or throws an OpsError naming a DSL line", () => {
    const fragment = fc.constantFrom(
      "replace 3..5:",
      "replace 2",
      "delete 4",
      "delete 0",
      "insert after 2:",
      "insert head",
      "replace block 7:",
      "frob",
      "+x",
      "+",
      "",
      "  ",
      "replace 5..x:",
      "3| y",
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fragment, anyText), { maxLength: 10 }), (rows) => {
        const dsl = rows.join(rows.length % 2 ? "\n" : "\r\n");
        try {
          parseOps(dsl);
        } catch (error) {
          expect(error).toBeInstanceOf(OpsError);
          const e = error as OpsError;
          expect(e.code).toBe("invalid_input");
          if (e.dslLine === undefined) expect(dsl.trim()).toBe("");
          else expect(e.message.startsWith(`line ${e.dslLine}: "`)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("(2) lines outside every op's range appear unchanged, in order, where expected", () => {
    fc.assert(
      fc.property(docWithOps, ({ doc, ops }) => {
        const result = applyOps(doc, ops, resolverFor(doc.lines.length)).doc;
        const inserted = ops.reduce((sum, op) => sum + ("lines" in op ? op.lines.length : 0), 0);
        const mapping = untouchedMapping(doc, ops);
        for (const [i, j] of mapping) expect(result.lines[j]).toBe(doc.lines[i - 1]);
        const positions = [...mapping.values()];
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        expect(result.lines.length).toBe(mapping.size + inserted);
      }),
      { numRuns: 500 },
    );
  });

  it("(3) keeps each untouched line's terminator, the BOM and the final-newline state", () => {
    fc.assert(
      fc.property(docWithOps, ({ doc, ops }) => {
        const result = applyOps(doc, ops, resolverFor(doc.lines.length)).doc;
        const n = doc.lines.length;
        const last = result.lines.length - 1;
        expect(result.bom).toBe(doc.bom);
        expect(result.eol).toBe(doc.eol);
        for (const [i, j] of untouchedMapping(doc, ops)) {
          if (i !== n && j !== last) expect(result.eols[j]).toBe(doc.eols[i - 1]);
        }
        if (n > 0 && result.lines.length > 0) {
          expect(hasFinalNewline(result)).toBe(hasFinalNewline(doc));
        }
        // What we built is exactly what the bytes say, except that an empty
        // last line without a terminator has no bytes: "a" + tail "" is "a\n".
        const reread = parseDocument(renderDocument(result));
        const phantom = last >= 0 && result.lines[last] === "" && result.eols[last] === "";
        expect(reread.lines).toEqual(phantom ? result.lines.slice(0, -1) : result.lines);
        expect(reread.eols).toEqual(phantom ? result.eols.slice(0, -1) : result.eols);
        expect(reread.bom).toBe(result.bom);
      }),
      { numRuns: 500 },
    );
  });

  it("(4) equals applying the ops one by one, bottom-up, with splice", () => {
    fc.assert(
      fc.property(docWithOps, ({ doc, ops }) => {
        const result = applyOps(doc, ops, resolverFor(doc.lines.length));
        expect(result.doc).toEqual(reference(doc, ops));
        // A DSL round trip applies the same way.
        if (ops.length > 0) {
          const again = applyOps(doc, parseOps(renderOps(ops)).ops, resolverFor(doc.lines.length));
          expect(again.doc).toEqual(result.doc);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("firstChangedLine is where the new document first differs", () => {
    fc.assert(
      fc.property(docWithOps, ({ doc, ops }) => {
        const result = applyOps(doc, ops, resolverFor(doc.lines.length));
        const after = result.doc;
        let i = 0;
        while (
          i < doc.lines.length &&
          i < after.lines.length &&
          doc.lines[i] === after.lines[i] &&
          doc.eols[i] === after.eols[i]
        ) {
          i++;
        }
        const same = i === doc.lines.length && i === after.lines.length;
        expect(result.firstChangedLine).toBe(
          same ? 0 : Math.min(i + 1, Math.max(after.lines.length, 1)),
        );
        expect(same).toBe(renderDocument(after) === renderDocument(doc));
      }),
      { numRuns: 500 },
    );
  });

  it("refuses exactly the op lists that overlap, naming a conflicting op", () => {
    const docAndAnyOps = anyDocument.chain((doc) =>
      fc
        .array(inRangeOp(doc.lines.length), { minLength: 1, maxLength: 6 })
        .map((ops) => ({ doc, ops: ops.map((op, i) => ({ ...op, dslLine: i + 1 })) })),
    );
    fc.assert(
      fc.property(docAndAnyOps, ({ doc, ops }) => {
        const n = doc.lines.length;
        const shapes = ops.map((op) => shapeOf(op, n));
        const conflicting = new Set<number>();
        shapes.forEach((a, i) => {
          shapes.forEach((b, j) => {
            if (i !== j && conflict(a, b)) conflicting.add(i + 1);
          });
        });
        try {
          applyOps(doc, ops, resolverFor(n));
          expect(conflicting.size).toBe(0);
        } catch (error) {
          expect(error).toBeInstanceOf(OpsError);
          const e = error as OpsError;
          expect(e.code).toBe("overlap");
          expect(conflicting.has(e.dslLine!)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("refuses line numbers outside the document", () => {
    fc.assert(
      fc.property(anyDocument, fc.array(anyOp, { minLength: 1, maxLength: 4 }), (doc, ops) => {
        const n = doc.lines.length;
        const numbered = ops.map((op, i) => ({ ...op, dslLine: i + 1 }));
        const outside = numbered.find((op) => {
          const used =
            op.kind === "replace" || op.kind === "delete"
              ? [op.start, op.end]
              : "line" in op
                ? [op.line]
                : [];
          return used.some((x) => x > n);
        });
        try {
          applyOps(doc, numbered, (line) => [line, line]);
          expect(outside).toBeUndefined();
        } catch (error) {
          expect(error).toBeInstanceOf(OpsError);
          const e = error as OpsError;
          if (e.code === "out_of_range") expect(e.dslLine).toBe(outside?.dslLine);
          else expect(e.code).toBe("overlap");
        }
      }),
      { numRuns: 300 },
    );
  });
});
