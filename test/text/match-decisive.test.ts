import { describe, expect, it } from "vitest";
import { type ReplaceOutcome, replaceText } from "../../src/text/replace.js";

const L = (...lines: string[]) => `${lines.join("\n")}\n`;
const replace = (text: string, oldText: string, newText: string, replaceAll = false) =>
  replaceText(text, { oldText, newText, replaceAll });

function ok(outcome: ReplaceOutcome): Extract<ReplaceOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`expected a match, got ${outcome.code}: ${outcome.message}`);
  return outcome;
}

// Two sibling branches one call apart, as in zod's locale files.
const LOCALE = L(
  "function message(issue) {",
  "  switch (issue.code) {",
  '    case "too_big": {',
  "      const sizing = getSizing(issue.origin);",
  '      const unit = sizing?.unit ?? "elements";',
  "      return tooBig(issue, unit);",
  "    }",
  '    case "too_small": {',
  "      const sizing = getSizing(issue.origin);",
  '      const unit = sizing?.unit ?? "elements";',
  "      return tooSmall(issue, unit);",
  "    }",
  "  }",
  "}",
);

describe("a clear winner among close regions (decisive.ts)", () => {
  const slipped = L(
    "      const sizing = getSizing(issue.origin);",
    '      const unit = sizing?.unt ?? "elements";',
    "      return tooSmall(issue, unit);",
    "    }",
  );
  const changed = slipped.replace("tooSmall(issue, unit)", 'tooSmall(issue, unit, "min")');

  it("anchored: the sibling that holds the telling line exactly as quoted wins; the slip keeps the file's text", () => {
    const r = ok(replace(LOCALE, slipped, changed));
    expect(r.mode).toBe("anchored");
    expect(r.matchedLines).toEqual([[9, 12]]);
    expect(r.text).toBe(LOCALE.replace("tooSmall(issue, unit)", 'tooSmall(issue, unit, "min")'));
    expect(r.warnings).toContain(
      "By its first and last lines old_text also resembles 1 other place (lines 4..7 at 0.90); it was matched to lines 9..12, the only one that holds exactly as quoted every line where they differ.",
    );
  });

  it("anchored with replace_all stays ambiguous: every place is meant, so none is picked", () => {
    expect(replace(LOCALE, slipped, changed, true)).toMatchObject({ ok: false, code: "ambiguous" });
  });

  it("refuses when the line that tells the siblings apart is the one misremembered", () => {
    const quote = slipped.replace("tooSmall(issue, unit)", "tooSmal(issue, unit)");
    const r = replace(LOCALE, quote, quote.replace("unit);", 'unit, "min");'));
    expect(r.ok).toBe(false);
  });

  it("delta: a slip on the first line, the sibling a call apart on a line quoted exactly", () => {
    const quote = L(
      "      const sizing = getSizng(issue.origin);",
      '      const unit = sizing?.unit ?? "elements";',
      "      return tooSmall(issue, unit);",
    );
    const r = ok(replace(LOCALE, quote, quote.replace("unit);", 'unit, "min");')));
    expect(r.mode).toBe("delta");
    expect(r.text).toBe(LOCALE.replace("tooSmall(issue, unit)", 'tooSmall(issue, unit, "min")'));
  });

  // Exact lines a quote shares with every block ("}", "/**") vote for the first blocks only.
  const block = (i: number) => [
    "    }",
    "    /**",
    `     * Helper number ${i} of the client.`,
    "     */",
    `    helper${i}() {`,
    "        return 1;",
  ];
  const blocks = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => block(from + i)).flat();
  const real = [
    "    }",
    "    /**",
    "     * Creates an elicitation request for the given parameters.",
  ];
  const quote = L(
    "    }",
    "    /**",
    "     * Creates an elicitation request for the givn parameters.",
  );
  const next = L(
    "    }",
    "    /**",
    "     * @param params what to ask",
    "     * Creates an elicitation request for the givn parameters.",
  );

  it("delta: applies a slip in the one telling line when the file has no twin of it", () => {
    const text = L(...blocks(0, 2), ...real, ...blocks(2, 40));
    const r = ok(replace(text, quote, next));
    expect(r.mode).toBe("delta");
    expect(r.text).toBe(
      text.replace(
        "    /**\n     * Creates",
        "    /**\n     * @param params what to ask\n     * Creates",
      ),
    );
  });

  it("delta: finds a twin the proposals never scored, and refuses", () => {
    const twin = [
      "    }",
      "    /**",
      "     * Creates an elicitation requst for the given parameters.",
    ];
    const text = L(...blocks(0, 2), ...real, ...blocks(2, 40), ...twin, ...blocks(40, 45));
    expect(replace(text, quote, next)).toMatchObject({ ok: false, code: "not_found" });
  });
});
