import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import {
  APPLY_CLASSES,
  type Case,
  type CaseClass,
  CLASSES,
  generateCases,
  SEED,
} from "../../bench/edit-quality/cases.js";
import { type CorpusFile, loadCorpus, unfit } from "../../bench/edit-quality/corpus.js";
import { judge, type Scored, tallyByClass, targets } from "../../bench/edit-quality/scorer.js";
import { applyChange, countExact, fileInfo, looseCount } from "../../bench/edit-quality/spans.js";

const NODE_MODULES = fileURLToPath(new URL("../../node_modules", import.meta.url));
const PER_CLASS = 6;

let files: CorpusFile[];
let cases: Case[];

beforeAll(() => {
  files = loadCorpus(NODE_MODULES, SEED).files;
  cases = generateCases(files, { perClass: PER_CLASS });
});

const ofClass = (cls: CaseClass) => cases.filter((c) => c.cls === cls);

describe("corpus", () => {
  it("samples the same fit files every time", () => {
    const again = loadCorpus(NODE_MODULES, SEED).files;
    expect(again.map((f) => f.path)).toEqual(files.map((f) => f.path));
    expect(files.length).toBeGreaterThanOrEqual(30);
    expect(files.length).toBeLessThanOrEqual(40);
    for (const f of files) expect(unfit(f.text), f.path).toBeUndefined();
  });

  it("calls minified, CRLF and tiny files unfit", () => {
    expect(unfit("x".repeat(1000))).toBe("size");
    expect(unfit(`${"a = 1;\r\n".repeat(400)}`)).toBe("CR line endings");
    expect(unfit(`${"x".repeat(300)}\n`.repeat(20))).toBe("minified");
    expect(unfit("const a = 1;\n".repeat(300))).toBeUndefined();
  });
});

describe("generator", () => {
  it("is deterministic: same seed, same cases", () => {
    const again = generateCases(files, { perClass: PER_CLASS });
    expect(again).toEqual(cases);
    const other = generateCases(files, { perClass: PER_CLASS, seed: SEED + 1 });
    expect(other.map((c) => c.oldText)).not.toEqual(cases.map((c) => c.oldText));
  });

  it("makes cases of every class", () => {
    for (const cls of CLASSES) expect(ofClass(cls).length, cls).toBe(PER_CLASS);
  });

  it("gives every apply case an expected file that differs from the original", () => {
    for (const c of cases.filter((x) => (APPLY_CLASSES as readonly string[]).includes(x.cls))) {
      expect(c.expected.kind, c.id).toBe("apply");
      if (c.expected.kind === "apply") expect(c.expected.text, c.id).not.toBe(c.original);
      expect(c.read, c.id).toBe(c.original);
    }
  });

  it("really perturbs: old_text of a non-exact class is not in the file exactly", () => {
    for (const c of cases) {
      if (c.cls === "exact" || c.cls === "ambiguous" || c.cls === "ws_reindent") continue;
      expect(countExact(c.original, c.oldText, 1), c.id).toBe(0);
      expect(c.oldText, c.id).not.toBe(c.newText);
    }
  });

  it("quotes exact cases exactly once, and the plain replacement gives the expected file", () => {
    for (const c of ofClass("exact")) {
      expect(countExact(c.original, c.oldText), c.id).toBe(1);
      const at = c.original.indexOf(c.oldText);
      const out = c.original.slice(0, at) + c.newText + c.original.slice(at + c.oldText.length);
      expect(c.expected).toEqual({ kind: "apply", text: out });
    }
  });

  it("expects refusals exactly for the refusal classes", () => {
    for (const c of cases) {
      const refuse = [
        "ambiguous",
        "ambiguous_fuzzy",
        "hallucinated",
        "stale",
        "near_duplicate",
        "typo_in_changed",
        "ws_misquoted",
      ].includes(c.cls);
      const kind = refuse ? "refuse" : c.cls === "ws_already" ? "unchanged" : "apply";
      expect(c.expected.kind, c.id).toBe(kind);
    }
  });

  it("makes whitespace cases whose old_text and new_text differ only in indentation", () => {
    const trimmed = (t: string) => t.split("\n").map((l) => l.trim());
    for (const cls of ["ws_reindent", "ws_already", "ws_misquoted"] as const) {
      for (const c of ofClass(cls)) {
        expect(c.oldText, c.id).not.toBe(c.newText);
        expect(trimmed(c.oldText), c.id).toEqual(trimmed(c.newText));
        // Only a re-indent quotes the file exactly; an already-done edit holds new_text.
        expect(countExact(c.original, c.oldText, 1), c.id).toBe(cls === "ws_reindent" ? 1 : 0);
        expect(countExact(c.original, c.newText, 1), c.id).toBe(cls === "ws_already" ? 1 : 0);
      }
    }
  });

  it("misremembers the first or last quoted line in the delta edge classes, and keeps the rest", () => {
    const lines = (t: string) => t.replace(/\n$/, "").split("\n");
    for (const [cls, edge] of [
      ["delta_first", 0],
      ["delta_last", -1],
    ] as const) {
      for (const c of ofClass(cls)) {
        const quoted = lines(c.oldText);
        const span = c.original.split("\n").slice(c.line - 1, c.endLine);
        expect(quoted.at(edge), c.id).not.toBe(span.at(edge));
        expect(quoted.filter((l, k) => l !== span[k]).length, c.id).toBeLessThanOrEqual(2);
      }
    }
  });

  it("builds each class as described", () => {
    for (const c of ofClass("crlf")) expect(c.oldText, c.id).toContain("\r\n");
    for (const c of ofClass("over_escaped")) expect(c.oldText, c.id).toContain('\\"');
    for (const c of ofClass("unicode")) expect(c.oldText, c.id).toMatch(/[\u2018-\u201D]/);
    for (const c of ofClass("ambiguous")) {
      expect(countExact(c.original, c.oldText), c.id).toBe(2);
    }
    for (const c of ofClass("stale")) {
      expect(c.read, c.id).not.toBe(c.original);
      expect(countExact(c.read, c.oldText), c.id).toBe(1);
    }
    const corpusTexts = new Set(files.map((f) => f.text));
    for (const c of ofClass("ambiguous_fuzzy")) {
      expect(corpusTexts.has(c.original), c.id).toBe(false);
    }
  });

  it("keeps apply targets certain and changes nothing outside the span", () => {
    for (const c of cases) {
      if (c.expected.kind !== "apply") continue;
      const info = fileInfo({ path: c.file, text: c.original });
      expect(looseCount(info, c.line - 1, c.endLine), c.id).toBe(1);
      const lines = c.original.split("\n");
      const expected = c.expected.text.split("\n");
      const after = lines.length - c.endLine;
      expect(expected.slice(0, c.line - 1), c.id).toEqual(lines.slice(0, c.line - 1));
      expect(expected.slice(-after), c.id).toEqual(lines.slice(-after));
    }
    const info = fileInfo({ path: "x.ts", text: "a();\nb();\n\nc();\na();\n b();\n" });
    expect(looseCount(info, 0, 2)).toBe(2);
    expect(looseCount(info, 1, 4)).toBe(1);
  });
});

describe("changes", () => {
  it("replace, insert and delete a span line", () => {
    const span = ["a", "b", "c"];
    expect(applyChange(span, { kind: "replace", at: 1, line: "B", what: "" })).toEqual([
      "a",
      "B",
      "c",
    ]);
    expect(applyChange(span, { kind: "insert", at: 1, line: "x", what: "" })).toEqual([
      "a",
      "x",
      "b",
      "c",
    ]);
    expect(applyChange(span, { kind: "delete", at: 1, what: "" })).toEqual(["a", "c"]);
  });
});

describe("scorer", () => {
  const apply = { original: "old\n", expected: { kind: "apply", text: "new\n" } } as const;
  const refuse = { original: "old\n", expected: { kind: "refuse" } } as const;

  it("classifies applications", () => {
    expect(judge(apply, { reported: "applied", after: "new\n" })).toBe("applied_ok");
    expect(judge(apply, { reported: "applied", after: "other\n" })).toBe("wrong");
    expect(judge(apply, { reported: "applied", after: "new" })).toBe("wrong");
    // Success that changed nothing is not a correct application.
    expect(judge(apply, { reported: "applied", after: "old\n" })).toBe("wrong");
    expect(judge(apply, { reported: "refused", after: "old\n" })).toBe("missed");
    // A refusal that wrote anyway is a wrong write.
    expect(judge(apply, { reported: "refused", after: "new\n" })).toBe("wrong");
  });

  it("classifies edits the file already holds: no change is right, a refusal missed", () => {
    const already = { original: "old\n", expected: { kind: "unchanged" } } as const;
    expect(judge(already, { reported: "applied", after: "old\n" })).toBe("applied_ok");
    expect(judge(already, { reported: "refused", after: "old\n" })).toBe("missed");
    expect(judge(already, { reported: "applied", after: " old\n" })).toBe("wrong");
  });

  it("classifies refusals", () => {
    expect(judge(refuse, { reported: "refused", after: "old\n" })).toBe("refused_ok");
    expect(judge(refuse, { reported: "refused", after: "old \n" })).toBe("wrong");
    expect(judge(refuse, { reported: "applied", after: "new\n" })).toBe("wrong");
    expect(judge(refuse, { reported: "applied", after: "old\n" })).toBe("wrong");
  });

  it("tallies classes and targets", () => {
    const make = (cls: CaseClass, verdict: Scored["verdict"], after: string): Scored => {
      const c = {
        ...(cls === "ambiguous" ? refuse : apply),
        id: cls,
        cls,
        file: "f",
        line: 1,
        what: "",
        read: "old\n",
        oldText: "old",
        newText: "new",
      } as Case;
      return { case: c, outcome: { reported: "applied", after }, verdict };
    };
    const scored = [
      make("exact", "applied_ok", "new\n"),
      make("crlf", "wrong", "  new\n"),
      make("ambiguous", "refused_ok", "old\n"),
      make("ambiguous", "wrong", "new\n"),
    ];
    const { rows, total } = tallyByClass(scored);
    expect(rows.map(([cls]) => cls)).toEqual(["exact", "crlf", "ambiguous"]);
    expect(total).toMatchObject({ cases: 4, applied_ok: 1, refused_ok: 1, wrong: 2, missed: 0 });
    expect(total.wrong_whitespace_only).toBe(1);
    expect(targets(scored)).toEqual({
      wrong: 2,
      certainApplied: 1,
      certainCases: 2,
      mustRefuseRefused: 1,
      mustRefuseCases: 2,
    });
  });
});
