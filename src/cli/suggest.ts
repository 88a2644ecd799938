/**
 * "Did you mean": the nearest of a few known names to a mistyped one. The
 * names are flags and commands, a few dozen short words, so a full distance
 * table per candidate costs nothing.
 */

/** Farther than this is a different word, not a typo. */
const MAX_DISTANCE = 2;

/**
 * Edits (insert, delete, substitute, swap two neighbours) between a and b:
 * the optimal-string-alignment form of Damerau-Levenshtein, where `lsit` is
 * one swap from `list`.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  const at = (i: number, j: number) => d[i * cols + j]!;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return at(rows - 1, cols - 1);
}

/**
 * The known name closest to `typed`: within two edits (and fewer edits than
 * `typed` has letters, so `--x` is not "near" every short flag), or one that
 * `typed` starts. The first of equally near names wins, so callers list the
 * likelier ones first.
 */
export function nearest(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const name of known) {
    const distance = editDistance(typed, name);
    const near = distance <= MAX_DISTANCE && distance < typed.length;
    const prefix = typed.length > 0 && name.startsWith(typed);
    if (!near && !prefix) continue;
    // A started name ranks between one edit and two: `--app` is `--apply` cut short.
    const score = Math.min(near ? distance : MAX_DISTANCE + 1, prefix ? 1.5 : MAX_DISTANCE + 1);
    if (score < bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}
