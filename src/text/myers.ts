/**
 * A minimal line diff: Myers' O(ND) algorithm in linear space (the middle
 * snake, divide and conquer), over lines interned to integers in typed
 * arrays. It replaces jsdiff on the write path, where every edit's diff is
 * made: jsdiff keeps one object per path step and compares strings, which
 * cost more than the rest of a small file's write.
 */

/** A stretch of equal (" "), removed ("-") or added ("+") lines. */
export interface LineRun {
  tag: " " | "-" | "+";
  count: number;
}

/**
 * The runs that turn `a` into `b`, with as few lines removed and added as
 * possible, or undefined when that takes more than `maxEdits` of them.
 * Within a stretch of changes the removed lines come first, as in a unified diff.
 */
export function diffLines(
  a: readonly string[],
  b: readonly string[],
  maxEdits: number,
): LineRun[] | undefined {
  const ids = new Map<string, number>();
  const intern = (lines: readonly string[]) => {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  };
  const runs = new Runs();
  const ok = new Differ(intern(a), intern(b), runs).diff(0, a.length, 0, b.length, maxEdits);
  return ok ? runs.done() : undefined;
}

/** Collects runs, merging neighbours and putting a stretch's removals before its additions. */
class Runs {
  readonly #out: LineRun[] = [];
  #removed = 0;
  #added = 0;

  push(tag: LineRun["tag"], count: number): void {
    if (count <= 0) return;
    if (tag === "-") this.#removed += count;
    else if (tag === "+") this.#added += count;
    else {
      this.#flush();
      const last = this.#out.at(-1);
      if (last?.tag === " ") last.count += count;
      else this.#out.push({ tag, count });
    }
  }

  done(): LineRun[] {
    this.#flush();
    return this.#out;
  }

  #flush(): void {
    if (this.#removed > 0) this.#out.push({ tag: "-", count: this.#removed });
    if (this.#added > 0) this.#out.push({ tag: "+", count: this.#added });
    this.#removed = 0;
    this.#added = 0;
  }
}

class Differ {
  constructor(
    private readonly a: Int32Array,
    private readonly b: Int32Array,
    private readonly runs: Runs,
  ) {}

  /**
   * Diffs a[a0, a1) against b[b0, b1), pushing its runs in order; false
   * (and nothing pushed) when it takes more than `limit` edits.
   */
  diff(a0: number, a1: number, b0: number, b1: number, limit: number): boolean {
    const { a, b, runs } = this;
    let prefix = 0;
    while (a0 + prefix < a1 && b0 + prefix < b1 && a[a0 + prefix] === b[b0 + prefix]) prefix++;
    let suffix = 0;
    while (
      a1 - suffix > a0 + prefix &&
      b1 - suffix > b0 + prefix &&
      a[a1 - 1 - suffix] === b[b1 - 1 - suffix]
    )
      suffix++;
    const n = a1 - a0 - prefix - suffix;
    const m = b1 - b0 - prefix - suffix;
    if (n + m > limit && (n === 0 || m === 0)) return false;
    let split: { x: number; y: number; d: number } | undefined;
    if (n > 0 && m > 0) {
      split = this.#middle(a0 + prefix, n, b0 + prefix, m, limit);
      if (!split) return false;
    }
    runs.push(" ", prefix);
    if (!split) {
      runs.push("-", n);
      runs.push("+", m);
    } else {
      const { x, y, d } = split;
      const sa = a0 + prefix;
      const sb = b0 + prefix;
      // Each half takes at most the whole's edits, so neither can fail.
      this.diff(sa, sa + x, sb, sb + y, d);
      this.diff(sa + x, sa + n, sb + y, sb + m, d);
    }
    runs.push(" ", suffix);
    return true;
  }

  /**
   * Where a shortest edit path of a[a0, +n) x b[b0, +m) crosses its middle
   * (searching from both ends at once), with that path's length; undefined
   * when it is longer than `limit`. Both sides are non-empty and differ at
   * their first and last lines.
   */
  #middle(
    a0: number,
    n: number,
    b0: number,
    m: number,
    limit: number,
  ): { x: number; y: number; d: number } | undefined {
    const { a, b } = this;
    const maxD = Math.min(Math.ceil((n + m) / 2), Math.ceil(limit / 2) + 1);
    const offset = maxD + 1;
    const size = 2 * maxD + 3;
    // forward[offset + k]: furthest x on diagonal k = x - y, from the start;
    // backward[offset + k]: the same from the end, in the reversed problem,
    // whose diagonal k is the forward diagonal delta - k.
    const forward = new Int32Array(size).fill(-1);
    const backward = new Int32Array(size).fill(-1);
    forward[offset + 1] = 0;
    backward[offset + 1] = 0;
    const delta = n - m;
    const odd = (delta & 1) !== 0;
    // Diagonals that ran off the grid are skipped from then on.
    let fStart = 0;
    let fEnd = 0;
    let bStart = 0;
    let bEnd = 0;
    for (let d = 0; d <= maxD; d++) {
      for (let k = -d + fStart; k <= d - fEnd; k += 2) {
        const i = offset + k;
        let x =
          k === -d || (k !== d && forward[i - 1]! < forward[i + 1]!)
            ? forward[i + 1]!
            : forward[i - 1]! + 1;
        let y = x - k;
        while (x < n && y < m && a[a0 + x] === b[b0 + y]) {
          x++;
          y++;
        }
        forward[i] = x;
        if (x > n) fEnd += 2;
        else if (y > m) fStart += 2;
        else if (odd) {
          const j = offset + delta - k;
          if (j >= 0 && j < size && backward[j] !== -1 && x >= n - backward[j]!) {
            // A d-path from the start meets a (d - 1)-path from the end.
            const edits = 2 * d - 1;
            return edits > limit ? undefined : { x, y, d: edits };
          }
        }
      }
      for (let k = -d + bStart; k <= d - bEnd; k += 2) {
        const i = offset + k;
        let x =
          k === -d || (k !== d && backward[i - 1]! < backward[i + 1]!)
            ? backward[i + 1]!
            : backward[i - 1]! + 1;
        let y = x - k;
        while (x < n && y < m && a[a0 + n - 1 - x] === b[b0 + m - 1 - y]) {
          x++;
          y++;
        }
        backward[i] = x;
        if (x > n) bEnd += 2;
        else if (y > m) bStart += 2;
        else if (!odd) {
          const j = offset + delta - k;
          if (j >= 0 && j < size && forward[j] !== -1 && forward[j]! >= n - x) {
            // Two d-paths meet: split where the one from the start ends.
            const edits = 2 * d;
            const fx = forward[j]!;
            return edits > limit ? undefined : { x: fx, y: fx - (delta - k), d: edits };
          }
        }
      }
    }
    return undefined;
  }
}
