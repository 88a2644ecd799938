import { describe, expect, it } from "vitest";
import { DELTA_MARGIN } from "../../src/text/match/delta.js";
import { findMatch } from "../../src/text/match.js";
import { type ReplaceOutcome, replaceText } from "../../src/text/replace.js";

const L = (...lines: string[]) => `${lines.join("\n")}\n`;
const replace = (text: string, oldText: string, newText: string) =>
  replaceText(text, { oldText, newText });

function ok(outcome: ReplaceOutcome): Extract<ReplaceOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`expected a match, got ${outcome.code}: ${outcome.message}`);
  return outcome;
}

const FILE = L(
  "function total(items) {",
  "  const subtotal = sumPrices(items);",
  "  const shipping = shippingFor(subtotal);",
  "  return subtotal + shipping;",
  "}",
  "",
  "function other() {",
  "  return 3;",
  "}",
);

describe("rung: delta (misremembered context lines anywhere)", () => {
  it("a misremembered first line: only the changed line is written, the first keeps the file's text", () => {
    const r = ok(
      replace(
        FILE,
        L("  const subtotal = sumPrice(items);", "  const shipping = shippingFor(subtotal);"),
        L("  const subtotal = sumPrice(items);", "  const shipping = shippingFor(subtotal, 2);"),
      ),
    );
    expect(r).toMatchObject({
      mode: "delta",
      rung: "delta",
      count: 1,
      matchedLines: [[2, 3]],
      firstChangedLine: 3,
      differingLines: [2],
    });
    expect(r.text).toBe(FILE.replace("shippingFor(subtotal);", "shippingFor(subtotal, 2);"));
    expect(r.score).toBeGreaterThan(0.95);
    expect(r.warnings).toEqual([
      `old_text has no exact match; it matched lines 2..3 by the lines new_text changes, which are in the file as quoted (similarity ${(Math.floor(r.score * 100) / 100).toFixed(2)}, no other region close). Only new_text's changes were made; the lines where old_text differs keep the file's text.`,
      "Kept the file's own text on line 2, where old_text differs but new_text does not change it.",
    ]);
  });

  it("a misremembered last line, and an inserted line beside an exact one", () => {
    const r = ok(
      replace(
        FILE,
        L("  const shipping = shippingFor(subtotal);", "  return subtotal + shiping;"),
        L(
          "  const shipping = shippingFor(subtotal);",
          "  log(shipping);",
          "  return subtotal + shiping;",
        ),
      ),
    );
    expect(r.mode).toBe("delta");
    expect(r.text).toBe(
      FILE.replace(
        "  return subtotal + shipping;",
        "  log(shipping);\n  return subtotal + shipping;",
      ),
    );
  });

  it("refuses when the line new_text changes is the misremembered one", () => {
    const r = replace(
      FILE,
      L("  const subtotal = sumPrices(items);", "  const shipping = shipingFor(subtotal);"),
      L("  const subtotal = sumPrices(items);", "  const shipping = shipingFor(subtotal, 2);"),
    );
    expect(r).toMatchObject({ ok: false, code: "not_found" });
  });

  it("refuses when two regions are about as close (a near-duplicate)", () => {
    const twin = L(
      "function a() {",
      "  const subtotal = sumPrices(items);",
      "  return shippingFor(subtotal);",
      "}",
      "function b() {",
      "  const subtotal = sumPrices(itemz);",
      "  return shippingFor(subtotal);",
      "}",
    );
    const r = replace(
      twin,
      L("  const subtotal = sumPrices(itemx);", "  return shippingFor(subtotal);"),
      L("  const subtotal = sumPrices(itemx);", "  return shippingFor(subtotal) + 1;"),
    );
    expect(r).toMatchObject({ ok: false, code: "not_found" });
    expect(twin).toContain("itemz");
  });

  it("refuses when every line differs (two slips in a 2-line quote with an insertion)", () => {
    const r = replace(
      FILE,
      L("  const subtotl = sumPrices(items);", "  const shipping = shippingFr(subtotal);"),
      L(
        "  const subtotl = sumPrices(items);",
        "  log(1);",
        "  const shipping = shippingFr(subtotal);",
      ),
    );
    expect(r.ok).toBe(false);
  });

  it("needs new_text to tell context from change: findMatch alone does not use it", () => {
    const r = findMatch(
      FILE,
      L("  const subtotal = sumPrice(items);", "  const shipping = shippingFor(subtotal);"),
    );
    expect(r).toMatchObject({ ok: false, code: "not_found" });
  });

  it("is off when the caller says delta: false", () => {
    const r = replaceText(FILE, {
      oldText: L(
        "  const subtotal = sumPrice(items);",
        "  const shipping = shippingFor(subtotal);",
      ),
      newText: L(
        "  const subtotal = sumPrice(items);",
        "  const shipping = shippingFor(subtotal, 2);",
      ),
      delta: false,
    });
    expect(r).toMatchObject({ ok: false, code: "not_found" });
  });

  it("keeps its margin between the 0.025 of near-duplicates and the 0.069 of the closest real case", () => {
    expect(DELTA_MARGIN).toBeGreaterThan(0.025);
    expect(DELTA_MARGIN).toBeLessThan(0.069);
  });
});
