/**
 * Classes for quotes with misremembered lines anywhere, the first and last
 * included (where the anchored rung cannot help): one or two typos in
 * context lines of a 2..12-line quote, which should apply with the file's
 * own context kept; and two kinds that must still refuse — a typo in a line
 * the edit changes, and a near-duplicate region the typo makes as likely.
 */
import type { Rng } from "../lib.js";
import { applyCase, certainEdit, type Draft, type Edit, refuseCase } from "./drafts.js";
import {
  applyChange,
  countExact,
  type FileInfo,
  fileInfo,
  joinText,
  misremember,
  withSpan,
} from "./spans.js";

export const DELTA_APPLY_CLASSES = [
  "delta_first",
  "delta_last",
  "delta_middle",
  "delta_runner_up",
] as const;
export const DELTA_REFUSE_CLASSES = ["near_duplicate", "typo_in_changed"] as const;

type Where = "first" | "last" | "middle";

/** Lines a typo can go on: long enough that one slip leaves them recognisable. */
const typoable = (line: string) => line.replace(/\s/g, "").length >= 12;

/** Span indexes the change leaves alone (an insertion touches no quoted line). */
function untouched(e: Edit, k: number): boolean {
  return e.change.kind === "insert" || e.change.at !== k;
}

function positionOf(where: Where, n: number, rng: Rng): number {
  if (where === "first") return 0;
  if (where === "last") return n - 1;
  return rng.int(1, n - 2);
}

/** One or two slips on line `k` of `lines`, or undefined when none applies. */
function slip(line: string, rng: Rng, twice: boolean): string | undefined {
  const once = misremember(line, rng);
  if (once === undefined || !twice) return once;
  const again = misremember(once, rng);
  return again === undefined || again === line ? once : again;
}

function misremembered(where: Where): (info: FileInfo, rng: Rng) => Draft | undefined {
  return (info, rng) => {
    const e = certainEdit(info, rng, { min: where === "middle" ? 3 : 2, max: 12 });
    if (!e) return undefined;
    const n = e.span.length;
    const j = positionOf(where, n, rng);
    if (!untouched(e, j) || !typoable(e.span[j]!)) return undefined;
    const old = [...e.span];
    const two = rng.chance(0.4);
    const notes: string[] = [];
    // A second typo goes on the same line or on another context line.
    const other = [...Array(n).keys()].filter(
      (k) => k !== j && untouched(e, k) && typoable(e.span[k]!),
    );
    const sameLine = two && (other.length === 0 || rng.chance(0.5));
    const altered = slip(old[j]!, rng, sameLine);
    if (altered === undefined) return undefined;
    old[j] = altered;
    notes.push(`line ${j + 1}${sameLine ? " (2 typos)" : ""}: ${JSON.stringify(altered.trim())}`);
    if (two && !sameLine) {
      const k = rng.pick(other);
      const second = slip(old[k]!, rng, false);
      if (second === undefined) return undefined;
      old[k] = second;
      notes.push(`line ${k + 1}: ${JSON.stringify(second.trim())}`);
    }
    const what = `context misremembered in old_text and new_text, ${notes.join("; ")}`;
    return applyCase(info, e, old, applyChange(old, e.change), what);
  };
}

export const deltaFirst = misremembered("first");
export const deltaLast = misremembered("last");
export const deltaMiddle = misremembered("middle");

/**
 * The model's typo sits in the line it changes (at an edge of the quote, so
 * no anchored match covers it): writing its new line would write its typo
 * over a line it never saw as it is.
 */
export function typoInChanged(info: FileInfo, rng: Rng): Draft | undefined {
  const e = certainEdit(info, rng, { min: 2, max: 12 }, () => ({ kinds: ["rename", "literal"] }));
  if (e?.change.kind !== "replace") return undefined;
  const j = e.change.at;
  if (j !== 0 && j !== e.span.length - 1) return undefined;
  if (!typoable(e.span[j]!)) return undefined;
  const altered = misremember(e.span[j]!, rng);
  if (altered === undefined) return undefined;
  const old = [...e.span];
  old[j] = altered;
  const changed = applyChange(e.span, e.change);
  // new_text carries the typo too: the model edits the line as it remembers it.
  const next = applyChange(old, e.change, misremember(changed[j]!, rng) ?? changed[j]!);
  const oldText = joinText(old, e.nl);
  if (countExact(info.text, oldText, 1) > 0) return undefined;
  const what = `${e.change.what}; the changed span line ${j + 1} misremembered: ${JSON.stringify(altered.trim())}`;
  return refuseCase(info.text, info.text, [e.from + 1, e.to], oldText, joinText(next, e.nl), what);
}

/** A line at least 10 lines away from the span, where a copy of it can go; undefined when none is found. */
function awayFrom(info: FileInfo, e: Edit, rng: Rng): number | undefined {
  for (let attempt = 0; attempt < 10; attempt++) {
    const at = rng.int(0, info.usable);
    if (at < e.from - 10 || at > e.to + 10) return at;
  }
  return undefined;
}

/** The file with `copy` inserted before line `q`. */
function withCopy(info: FileInfo, q: number, copy: readonly string[]): string {
  const offset = info.offsets[q]!;
  return `${info.text.slice(0, offset)}${copy.map((l) => `${l}\n`).join("")}${info.text.slice(offset)}`;
}

/**
 * A copy of the span elsewhere in the file differs in one context line by a
 * typo's worth, and the quote has a different typo in that very line: the
 * line that would tell the two regions apart is the one the model got wrong.
 */
export function nearDuplicate(info: FileInfo, rng: Rng): Draft | undefined {
  const e = certainEdit(info, rng, { min: 2, max: 8 });
  if (!e) return undefined;
  const n = e.span.length;
  const choices = [...Array(n).keys()].filter((k) => untouched(e, k) && typoable(e.span[k]!));
  if (choices.length === 0) return undefined;
  const j = rng.pick(choices);
  const theirs = misremember(e.span[j]!, rng);
  const ours = misremember(e.span[j]!, rng);
  if (theirs === undefined || ours === undefined || theirs === ours) return undefined;
  const q = awayFrom(info, e, rng);
  if (q === undefined) return undefined;
  const copy = [...e.span];
  copy[j] = theirs;
  const file = withCopy(info, q, copy);
  const old = [...e.span];
  old[j] = ours;
  const oldText = joinText(old, e.nl);
  if (countExact(file, oldText, 1) > 0) return undefined;
  const newText = joinText(applyChange(old, e.change), e.nl);
  const line = e.from + 1 + (q <= e.from ? n : 0);
  const what = `${e.change.what}; a copy inserted at line ${q + 1} has span line ${j + 1} as ${JSON.stringify(theirs.trim())}, old_text has ${JSON.stringify(ours.trim())}`;
  return refuseCase(file, file, [line, line + n - 1], oldText, newText, what);
}

/**
 * One region at 0.98+ with a runner-up close behind: a copy of the span
 * elsewhere differs from it in one context line (a sibling block, a field
 * name apart), old_text quotes that line exactly and has a typo in another
 * context line. Over the whole quote the two regions are a fraction of a line
 * apart; on the line that tells them apart only the span reads as quoted, so
 * the edit belongs there, with the file's own text kept on the typo's line.
 */
export function deltaRunnerUp(info: FileInfo, rng: Rng): Draft | undefined {
  const e = certainEdit(info, rng, { min: 4, max: 12 });
  if (!e) return undefined;
  const n = e.span.length;
  const choices = [...Array(n).keys()].filter((k) => untouched(e, k) && typoable(e.span[k]!));
  if (choices.length < 2) return undefined;
  const j = rng.pick(choices);
  const k = rng.pick(choices.filter((x) => x !== j));
  const theirs = misremember(e.span[j]!, rng);
  const ours = misremember(e.span[k]!, rng);
  if (theirs === undefined || ours === undefined) return undefined;
  const q = awayFrom(info, e, rng);
  if (q === undefined) return undefined;
  const copy = [...e.span];
  copy[j] = theirs;
  const file = withCopy(info, q, copy);
  const old = [...e.span];
  old[k] = ours;
  const oldText = joinText(old, e.nl);
  if (countExact(file, oldText, 1) > 0) return undefined;
  const from = e.from + (q <= e.from ? n : 0);
  const edited = fileInfo({ path: info.path, text: file });
  const expected = withSpan(edited, from, from + n, applyChange(e.span, e.change));
  return {
    line: from + 1,
    endLine: from + n,
    what: `${e.change.what}; a copy inserted at line ${q + 1} has span line ${j + 1} as ${JSON.stringify(theirs.trim())}; old_text has span line ${k + 1} as ${JSON.stringify(ours.trim())}`,
    read: file,
    original: file,
    oldText,
    newText: joinText(applyChange(old, e.change), e.nl),
    expected: { kind: "apply", text: expected },
  };
}
