/**
 * Linear search for a run of line keys: keys become integer ids (LineView)
 * and the id sequence is searched with Knuth-Morris-Pratt, so 16,000 identical lines cost
 * the same as 16,000 different ones (a naive scan would be O(n·m)).
 */

export interface SequenceHits {
  /** 0-based start lines, ascending, overlapping hits included. */
  starts: number[];
  /** True when more than `limit` hits exist; `starts` then holds `limit + 1`. */
  truncated: boolean;
}

/**
 * Every start where `pattern` occurs in `seq`, stopping after `limit + 1`
 * hits. Ids are ≥ 0 in the pattern; -1 in `seq` matches nothing. O(seq + pattern).
 */
export function findIdSequence(seq: Int32Array, pattern: Int32Array, limit: number): SequenceHits {
  const m = pattern.length;
  if (m === 0 || m > seq.length || pattern.includes(-1)) return { starts: [], truncated: false };
  const fail = failureTable(pattern);
  const starts: number[] = [];
  let q = 0;
  for (let i = 0; i < seq.length; i++) {
    const c = seq[i]!;
    while (q > 0 && pattern[q] !== c) q = fail[q - 1]!;
    if (pattern[q] === c) q++;
    if (q === m) {
      starts.push(i - m + 1);
      if (starts.length > limit) return { starts, truncated: true };
      q = fail[q - 1]!;
    }
  }
  return { starts, truncated: false };
}

/** fail[k]: length of the longest proper border of pat[0..k]. */
function failureTable(pat: Int32Array): Int32Array {
  const fail = new Int32Array(pat.length);
  let k = 0;
  for (let i = 1; i < pat.length; i++) {
    while (k > 0 && pat[i] !== pat[k]) k = fail[k - 1]!;
    if (pat[i] === pat[k]) k++;
    fail[i] = k;
  }
  return fail;
}

/** Leftmost-first non-overlapping subset of sorted spans [start, start + length). */
export function nonOverlapping<T extends { from: number; to: number }>(spans: readonly T[]): T[] {
  const out: T[] = [];
  let end = -1;
  for (const s of spans) {
    if (s.from >= end) {
      out.push(s);
      end = s.to;
    }
  }
  return out;
}
