/** Line ranges as models write them: `5..7`, `5-7`, `5,7`, or a single `5`. */

const RANGE = /^\s*(\d+)\s*(?:(?:\.\.|-|,)\s*(\d+))?\s*$/;

/** [start, end], 1-based inclusive, or undefined when the text is not a range. */
export function parseRange(text: string): [number, number] | undefined {
  const m = RANGE.exec(text);
  if (!m) return undefined;
  const start = Number(m[1]);
  const end = m[2] === undefined ? start : Number(m[2]);
  return [start, end];
}

export function formatRange([start, end]: [number, number]): string {
  return start === end ? `${start}` : `${start}..${end}`;
}
