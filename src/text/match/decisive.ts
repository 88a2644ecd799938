/**
 * A clear winner among regions a quote nearly matches. Two sibling blocks a
 * name apart score a fraction of a line apart over a whole quote, so once the
 * quote has a slip of its own a margin on the mean cannot tell them apart.
 * The lines where the two regions differ can: a slip on a line both regions
 * share says nothing about which was meant, while a line only one region
 * holds, quoted exactly, names that region.
 */

/**
 * A misremembered line must still be this similar to its file line: the
 * delta rung's bound, which the anchored rung's tie-break also keeps.
 */
export const DELTA_LINE_MIN = 0.75;

/** How a quote's lines sit in one region. */
export interface Evidence {
  /** Per quoted line: the 0-based file line it stands for, -1 for none. */
  align: readonly number[];
  /** Per quoted line: its similarity to that file line (1: the same text). */
  sim: readonly number[];
}

/** What the regions are judged by. */
export interface Judge {
  /** The quote's line keys; "" for a blank line, which tells nothing. */
  keys: readonly string[];
  /** A file line's key, in the normalisation `sim` was measured in. */
  keyAt: (line: number) => string;
  /** How close a misremembered line must still be to its file line. */
  lineMin: number;
}

/** The quoted lines (indexes) where two regions hold different text. */
export function telling(a: Evidence, b: Evidence, judge: Judge): number[] {
  const { keys, keyAt } = judge;
  const out: number[] = [];
  for (let k = 0; k < keys.length; k++) {
    if (keys[k] === "") continue;
    const fa = a.align[k]!;
    const fb = b.align[k]!;
    const ka = fa >= 0 ? keyAt(fa) : undefined;
    const kb = fb >= 0 ? keyAt(fb) : undefined;
    if (ka !== kb) out.push(k);
  }
  return out;
}

/**
 * Whether `best` is the region the quote means rather than `other`, judged on
 * the quoted lines where the two regions hold different text: `best` must
 * hold some of them exactly as quoted where `other` does not (or has no line
 * at all), and on fewer others be merely closer than `other` — a slip on the
 * one line that tells them apart could have come from either. Regions with
 * the same text everywhere the quote reaches are never told apart: that is an
 * ambiguity, whatever the scores.
 */
export function outweighs(best: Evidence, other: Evidence, judge: Judge): boolean {
  let exact = 0;
  let closer = 0;
  for (const k of telling(best, other, judge)) {
    if (best.align[k]! < 0) return false;
    const sb = best.sim[k]!;
    const so = other.align[k]! < 0 ? 0 : other.sim[k]!;
    if (sb === 1 && so < 1) exact++;
    else if (sb >= judge.lineMin && sb > so) closer++;
    else return false;
  }
  return exact > closer;
}

/** Whether `best` outweighs every region in `others` (see `outweighs`). */
export function outweighsAll(best: Evidence, others: readonly Evidence[], judge: Judge): boolean {
  return others.every((o) => outweighs(best, o, judge));
}
