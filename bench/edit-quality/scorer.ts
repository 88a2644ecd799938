/**
 * Scoring: what an engine did with a case (it said it applied or refused;
 * the file on disk afterwards) against what the case expected.
 */
import { APPLY_CLASSES, type Case, type CaseClass, CLASSES } from "./cases.js";
import { DELTA_APPLY_CLASSES } from "./delta-cases.js";

export interface Outcome {
  /** What the engine reported. */
  reported: "applied" | "refused";
  /** The file's text after the call. */
  after: string;
  /** The refusal's message (first line is enough), or a crash's. */
  message?: string;
  /** The engine threw something that is not a refusal (a bug, not an answer). */
  crashed?: boolean;
  /** How an application matched, when the engine says (splice: exact, fuzzy, anchored). */
  mode?: string;
}

/**
 * applied_ok: the file is exactly the expected file. refused_ok: a refusal
 * was expected, and the file is untouched. missed: a clean refusal where an
 * application was expected. wrong: anything else — a write of other bytes,
 * any write where a refusal was expected, a "success" that left the file as
 * it was, or a refusal that changed the file anyway. Where the file already
 * holds new_text, "no change" is applied_ok and a clean refusal is missed.
 */
export type Verdict = "applied_ok" | "refused_ok" | "wrong" | "missed";

export function judge(c: Pick<Case, "original" | "expected">, outcome: Outcome): Verdict {
  const untouched = outcome.after === c.original;
  if (c.expected.kind === "refuse") {
    return outcome.reported === "refused" && untouched ? "refused_ok" : "wrong";
  }
  if (c.expected.kind === "unchanged") {
    if (!untouched) return "wrong";
    return outcome.reported === "applied" ? "applied_ok" : "missed";
  }
  if (outcome.reported === "refused") return untouched ? "missed" : "wrong";
  return outcome.after === c.expected.text ? "applied_ok" : "wrong";
}

export interface Tally {
  cases: number;
  applied_ok: number;
  refused_ok: number;
  wrong: number;
  missed: number;
  /** Wrong applications that equal the expected file once every line is trimmed. */
  wrong_whitespace_only: number;
  crashed: number;
}

export function emptyTally(): Tally {
  return {
    cases: 0,
    applied_ok: 0,
    refused_ok: 0,
    wrong: 0,
    missed: 0,
    wrong_whitespace_only: 0,
    crashed: 0,
  };
}

/** Equal once every line is trimmed: the result differs only in whitespace. */
export function sameIgnoringWhitespace(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .split(/\r?\n/)
      .map((l) => l.trim())
      .join("\n");
  return norm(a) === norm(b);
}

export interface Scored {
  case: Case;
  outcome: Outcome;
  verdict: Verdict;
}

export function add(t: Tally, s: Scored): void {
  t.cases++;
  t[s.verdict]++;
  if (s.outcome.crashed) t.crashed++;
  if (
    s.verdict === "wrong" &&
    s.case.expected.kind === "apply" &&
    sameIgnoringWhitespace(s.outcome.after, s.case.expected.text)
  ) {
    t.wrong_whitespace_only++;
  }
}

/** One tally per class (in CLASSES order, classes without cases left out) and a total. */
export function tallyByClass(scored: readonly Scored[]): {
  rows: [CaseClass, Tally][];
  total: Tally;
} {
  const by = new Map<CaseClass, Tally>();
  const total = emptyTally();
  for (const s of scored) {
    let t = by.get(s.case.cls);
    if (!t) {
      t = emptyTally();
      by.set(s.case.cls, t);
    }
    add(t, s);
    add(total, s);
  }
  return { rows: CLASSES.filter((c) => by.has(c)).map((c) => [c, by.get(c)!]), total };
}

export interface Targets {
  wrong: number;
  /** Correct applications among the apply-class (certain-target) cases. */
  certainApplied: number;
  certainCases: number;
  /** Refusals among the ambiguous, ambiguous_fuzzy and hallucinated cases. */
  mustRefuseRefused: number;
  mustRefuseCases: number;
}

/** The targets: zero wrong; >= 95% of certain targets applied; every ambiguous/hallucinated case refused. */
export const MUST_REFUSE: readonly CaseClass[] = ["ambiguous", "ambiguous_fuzzy", "hallucinated"];
export const APPLY_TARGET = 0.95;

export function targets(scored: readonly Scored[]): Targets {
  const out: Targets = {
    wrong: 0,
    certainApplied: 0,
    certainCases: 0,
    mustRefuseRefused: 0,
    mustRefuseCases: 0,
  };
  for (const s of scored) {
    if (s.verdict === "wrong") out.wrong++;
    if ((APPLY_CLASSES as readonly string[]).includes(s.case.cls)) {
      out.certainCases++;
      if (s.verdict === "applied_ok") out.certainApplied++;
    }
    if (MUST_REFUSE.includes(s.case.cls)) {
      out.mustRefuseCases++;
      if (s.verdict === "refused_ok") out.mustRefuseRefused++;
    }
  }
  return out;
}

export function targetStatus(t: Targets): {
  zeroWrong: boolean;
  applied: boolean;
  refused: boolean;
} {
  return {
    zeroWrong: t.wrong === 0,
    applied: t.certainCases > 0 && t.certainApplied / t.certainCases >= APPLY_TARGET,
    refused: t.mustRefuseRefused === t.mustRefuseCases,
  };
}

/** The delta classes' targets: most misremembered quotes applied, no wrong write where a refusal is due. */
export const DELTA_APPLY_TARGET = 0.9;
const DELTA_MUST_REFUSE: readonly CaseClass[] = [
  "ambiguous",
  "ambiguous_fuzzy",
  "hallucinated",
  "near_duplicate",
  "typo_in_changed",
];

export interface DeltaTargets {
  applied: number;
  cases: number;
  wrongOnRefusals: number;
}

export function deltaTargets(scored: readonly Scored[]): DeltaTargets {
  const out: DeltaTargets = { applied: 0, cases: 0, wrongOnRefusals: 0 };
  for (const s of scored) {
    if ((DELTA_APPLY_CLASSES as readonly string[]).includes(s.case.cls)) {
      out.cases++;
      if (s.verdict === "applied_ok") out.applied++;
    }
    if (DELTA_MUST_REFUSE.includes(s.case.cls) && s.verdict === "wrong") out.wrongOnRefusals++;
  }
  return out;
}
