/** Names close to one that was not found: a typo, another case, a longer or shorter name. */

/** Edit distance, giving up (returning max + 1) once it exceeds `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      row.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length]!;
}

/** A score for how close `candidate` is to `name` (lower is closer), or undefined when it is not close. */
export function closeness(name: string, candidate: string): number | undefined {
  if (candidate === name) return undefined;
  const a = name.toLowerCase();
  const b = candidate.toLowerCase();
  if (a === b) return 0;
  const max = Math.max(1, Math.floor(name.length / 4));
  const d = distance(a, b, max);
  if (d <= max) return d;
  if (a.length >= 3 && (b.includes(a) || (b.length >= 3 && a.includes(b)))) {
    return max + 1 + Math.abs(a.length - b.length) / 100;
  }
  return undefined;
}

/** The closest of `candidates` to `name`, best first, at most `limit`. */
export function nearNames(name: string, candidates: Iterable<string>, limit = 8): string[] {
  const scored = new Map<string, number>();
  for (const candidate of candidates) {
    if (scored.has(candidate)) continue;
    const score = closeness(name, candidate);
    if (score !== undefined) scored.set(candidate, score);
  }
  return [...scored.entries()]
    .sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, limit)
    .map(([candidate]) => candidate);
}
