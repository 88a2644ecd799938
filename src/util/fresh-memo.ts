/**
 * Answers of a lookup on disk kept for a moment: an installed language
 * server or a project's marker file is looked up on every edit, but a
 * long-lived server must still see `splice lang add` or a new tsconfig.json
 * soon after it happens, so an answer is asked again once it is `ttlMs` old.
 */
const MAX_KEYS = 256;

export function freshMemo<A extends string[], V>(
  ttlMs: number,
  lookup: (...args: A) => V,
  now: () => number = Date.now,
): (...args: A) => V {
  const answers = new Map<string, { value: V; at: number }>();
  return (...args) => {
    const key = args.join("\0");
    const t = now();
    const kept = answers.get(key);
    if (kept && t - kept.at < ttlMs) return kept.value;
    const value = lookup(...args);
    answers.delete(key);
    answers.set(key, { value, at: t });
    if (answers.size > MAX_KEYS) answers.delete(answers.keys().next().value as string);
    return value;
  };
}
