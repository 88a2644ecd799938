/**
 * old_text -> new_text as a line diff: which of old_text's lines new_text
 * keeps (context) and which it removes or replaces. The matcher needs it to
 * judge a delta match (only the changed lines must be in the file as quoted)
 * and the applier to write only what changed.
 */
import { diffArrays } from "diff";

/** old_text/new_text diffs with more edits than this become one replaced block. */
const MAX_EDIT_LENGTH = 2000;

export type Change = { value: string[]; count: number; added: boolean; removed: boolean };

/**
 * old_text -> new_text as runs of kept, removed and added lines. The common
 * head and tail are taken out first: with repeated lines a diff may otherwise
 * call the edited line's twin the changed one, which in the file can be a
 * different line.
 */
export function lineChanges(olds: readonly string[], news: readonly string[]): Change[] {
  const min = Math.min(olds.length, news.length);
  let head = 0;
  while (head < min && olds[head] === news[head]) head++;
  let tail = 0;
  while (tail < min - head && olds[olds.length - 1 - tail] === news[news.length - 1 - tail]) tail++;
  const a = olds.slice(head, olds.length - tail);
  const b = news.slice(head, news.length - tail);
  const middle: Change[] = diffArrays(a, b, { maxEditLength: MAX_EDIT_LENGTH }) ?? [
    { value: a, count: a.length, added: false, removed: true },
    { value: b, count: b.length, added: true, removed: false },
  ];
  const kept = (value: string[]): Change => ({
    value,
    count: value.length,
    added: false,
    removed: false,
  });
  return [kept(olds.slice(0, head)), ...middle, kept(olds.slice(olds.length - tail))].filter(
    (c) => c.count > 0,
  );
}

/**
 * Per old_text line, whether new_text changes it (removes or replaces it);
 * and per gap (before old line k, k = 0..n), whether new_text inserts lines
 * there without removing any.
 */
export function changedLines(
  olds: readonly string[],
  news: readonly string[],
): { changed: boolean[]; insertsBefore: boolean[] } {
  const changed = new Array<boolean>(olds.length).fill(false);
  const insertsBefore = new Array<boolean>(olds.length + 1).fill(false);
  let oi = 0;
  const changes = lineChanges(olds, news);
  for (let c = 0; c < changes.length; c++) {
    const change = changes[c]!;
    if (!change.added && !change.removed) {
      oi += change.count;
      continue;
    }
    let removed = 0;
    let added = 0;
    while (c < changes.length && (changes[c]!.added || changes[c]!.removed)) {
      if (changes[c]!.removed) removed += changes[c]!.count;
      else added += changes[c]!.count;
      c++;
    }
    c--;
    for (let k = 0; k < removed; k++) changed[oi + k] = true;
    if (added > removed) insertsBefore[oi + removed] = true;
    oi += removed;
  }
  return { changed, insertsBefore };
}
