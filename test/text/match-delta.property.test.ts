import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replaceText } from "../../src/text/replace.js";

/** Code-like lines from a small vocabulary, so that near-duplicate lines and regions are common. */
const line = fc
  .tuple(
    fc.constantFrom("const", "let", "return", "yield"),
    fc.constantFrom("alpha", "beta", "gamma", "delta"),
    fc.constantFrom("compute", "render", "parse"),
    fc.integer({ min: 0, max: 3 }),
  )
  .map(([k, a, f, n]) => `  ${k} ${a}Value = ${f}Items(${n});`);

const runs = { total: 0, applied: 0 };

describe("delta matches: properties", () => {
  it("a quote with one slip in a context line is applied exactly as meant, or refused", () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 2, maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (file, i, len, c, j) => {
          const s = i % file.length;
          const m = 2 + (len % Math.max(1, Math.min(11, file.length - s - 1)));
          fc.pre(s + m <= file.length);
          const span = file.slice(s, s + m);
          const changed = c % m;
          const slipped = j % m;
          fc.pre(changed !== slipped);
          const old = [...span];
          // One dropped character, away from the indentation.
          const o = old[slipped]!;
          old[slipped] = o.slice(0, 6) + o.slice(7);
          const news = [...old];
          news[changed] = `${span[changed]!.replace(/;$/, "")} + 1;`;
          const text = `${file.join("\n")}\n`;
          const oldText = `${old.join("\n")}\n`;
          fc.pre(!text.includes(oldText));
          const r = replaceText(text, { oldText, newText: `${news.join("\n")}\n` });
          runs.total++;
          if (!r.ok) return;
          runs.applied++;
          // A copy of the span elsewhere makes the target uncertain: that must be a refusal.
          const copies = file.filter((_, k) => file.slice(k, k + m).join("\n") === span.join("\n"));
          expect(copies.length).toBe(1);
          const expected = [...file];
          expected[s + changed] = news[changed]!;
          expect(r.text).toBe(`${expected.join("\n")}\n`);
        },
      ),
      { numRuns: 400 },
    );
    // Not vacuous: a fair share of the quotes is applied.
    expect(runs.applied).toBeGreaterThan(runs.total / 10);
  });
});
