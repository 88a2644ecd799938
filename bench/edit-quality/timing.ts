/**
 * Matcher timing: a 1 MB file of real code and a 40-line old_text with two
 * misremembered middle lines, which only the anchored rung finds. findMatch
 * and replaceText against an indexOf of the same old_text (the exact-only
 * baseline, a full scan that finds nothing) in the same run.
 */
import { findMatch } from "../../src/text/match.js";
import { replaceText } from "../../src/text/replace.js";
import { measure, Rng, type Stats } from "../lib.js";
import type { CorpusFile } from "./corpus.js";
import {
  anchorCount,
  applyChange,
  fileInfo,
  isBlank,
  joinText,
  looseCount,
  makeChange,
  misremember,
} from "./spans.js";

export const TIMING_BYTES = 1_000_000;
export const TIMING_LINES = 40;
export const TIMING_RUNS = 30;
export const TIMING_TARGET_MS = 50;

export interface TimingCase {
  text: string;
  oldText: string;
  newText: string;
  /** 1-based first line of the span. */
  line: number;
  rung: string;
}

/** Whole files, in order, until the text reaches TIMING_BYTES. */
export function timingText(files: readonly CorpusFile[]): string {
  const parts: string[] = [];
  let bytes = 0;
  for (const f of files) {
    if (bytes >= TIMING_BYTES) break;
    const text = f.text.endsWith("\n") ? f.text : `${f.text}\n`;
    parts.push(text);
    bytes += Buffer.byteLength(text);
  }
  return parts.join("");
}

/** A 40-line span near the middle with two middle lines misremembered, found only by the anchored rung. */
export function timingCase(files: readonly CorpusFile[], seed: number): TimingCase {
  const text = timingText(files);
  const info = fileInfo({ path: "1mb.ts", text });
  const rng = new Rng(seed);
  const n = TIMING_LINES;
  for (let attempt = 0; attempt < 2000; attempt++) {
    const from = rng.int(Math.floor(info.usable * 0.4), Math.floor(info.usable * 0.6));
    const to = from + n;
    const span = info.lines.slice(from, to);
    if (isBlank(span[0]!) || isBlank(span.at(-1)!) || span.some((l) => l.length > 200)) continue;
    if (looseCount(info, from, to) !== 1 || anchorCount(info, from, to) !== 1) continue;
    const middle = [...Array(n - 4).keys()]
      .map((i) => i + 2)
      .filter((i) => span[i]!.replace(/\s/g, "").length >= 12);
    if (middle.length < 3) continue;
    const a = rng.pick(middle);
    const b = rng.pick(middle.filter((i) => Math.abs(i - a) > 1));
    if (b === undefined) continue;
    const old = [...span];
    const ma = misremember(span[a]!, rng);
    const mb = misremember(span[b]!, rng);
    if (ma === undefined || mb === undefined) continue;
    old[a] = ma;
    old[b] = mb;
    const change = makeChange(span, info.idents, rng, {
      kinds: ["rename", "literal"],
      avoid: (i) => i === a || i === b,
    });
    if (!change) continue;
    const oldText = joinText(old, true);
    const newText = joinText(applyChange(old, change), true);
    const found = findMatch(text, oldText, { newText });
    if (!found.ok || found.kind !== "lines" || found.spans[0]!.from !== from) continue;
    return { text, oldText, newText, line: from + 1, rung: found.rung };
  }
  throw new Error("no 40-line span that only the anchored rung finds");
}

export interface TimingResult {
  bytes: number;
  line: number;
  rung: string;
  findMatch: Stats;
  replaceText: Stats;
  indexOf: Stats;
}

export async function timeMatcher(
  files: readonly CorpusFile[],
  seed: number,
): Promise<TimingResult> {
  const t = timingCase(files, seed);
  const options = { warmup: 3, runs: TIMING_RUNS };
  // Each call returns its result, so the work cannot be optimized away.
  const indexOf = await measure(options, () => t.text.indexOf(t.oldText));
  const find = await measure(options, () => {
    const m = findMatch(t.text, t.oldText, { newText: t.newText });
    if (!m.ok) throw new Error(`findMatch refused: ${m.code}`);
    return m;
  });
  const replace = await measure(options, () => {
    const r = replaceText(t.text, { oldText: t.oldText, newText: t.newText });
    if (!r.ok) throw new Error(`replaceText refused: ${r.code}`);
    return r;
  });
  return {
    bytes: Buffer.byteLength(t.text),
    line: t.line,
    rung: t.rung,
    findMatch: find,
    replaceText: replace,
    indexOf,
  };
}
