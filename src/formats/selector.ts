/**
 * Selectors name one value in a document: dotted keys, `[n]` indexes and
 * quoted keys, e.g. `scripts.test`, `jobs.build.steps[2]`, `"a.b".c`.
 */
import { DocError } from "./errors.js";

/** A key (string) or an array index (number; negative counts from the end). */
export type Segment = string | number;

const EXAMPLES = 'e.g. scripts.test, jobs.build.steps[2], "a.b".c or deps[-1]';

function fail(selector: string, column: number, what: string): never {
  throw new DocError(
    "invalid_input",
    `The selector ${JSON.stringify(selector)} is not valid: ${what} at column ${column}. Write keys separated by dots and indexes in brackets (${EXAMPLES}); quote a key that contains dots, brackets or quotes.`,
    { selector, column },
  );
}

/** Reads a quoted key starting at `i` (a `"` or `'`); returns the key and the index after it. */
function quoted(selector: string, i: number): [string, number] {
  const quote = selector[i]!;
  let j = i + 1;
  let key = "";
  for (; j < selector.length; j++) {
    const c = selector[j]!;
    if (c === "\\" && j + 1 < selector.length) {
      const next = selector[++j]!;
      key += next === "n" ? "\n" : next === "t" ? "\t" : next;
    } else if (c === quote) {
      if (quote === "'" && selector[j + 1] === "'") {
        key += "'";
        j++;
      } else {
        return [key, j + 1];
      }
    } else {
      key += c;
    }
  }
  return fail(selector, i + 1, `the quote ${quote} is never closed`);
}

function bracket(selector: string, i: number): [Segment, number] {
  let j = i + 1;
  while (selector[j] === " ") j++;
  if (selector[j] === '"' || selector[j] === "'") {
    const [key, after] = quoted(selector, j);
    let k = after;
    while (selector[k] === " ") k++;
    if (selector[k] !== "]") fail(selector, k + 1, 'expected "]" after the quoted key');
    return [key, k + 1];
  }
  const close = selector.indexOf("]", j);
  if (close === -1) fail(selector, i + 1, 'the "[" is never closed');
  const inside = selector.slice(j, close).trim();
  if (!/^-?\d+$/.test(inside)) {
    fail(selector, i + 2, `[${inside}] is not an index (a whole number; quote keys: ["a.b"])`);
  }
  return [Number(inside), close + 1];
}

export function parseSelector(selector: string): Segment[] {
  const s = selector.trim();
  const segments: Segment[] = [];
  // jq and JSONPath habits: a leading "$" or "." names the root.
  let i = s === "$" || s.startsWith("$.") || s.startsWith("$[") ? 1 : 0;
  if (s[i] === ".") i++;
  if (i >= s.length) return segments;
  let expectKey = true;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "[") {
      const [segment, next] = bracket(s, i);
      segments.push(segment);
      i = next;
      expectKey = false;
    } else if (c === ".") {
      if (expectKey) fail(s, i + 1, "an empty key");
      expectKey = true;
      i++;
      if (i >= s.length) fail(s, i, "a trailing dot");
    } else if (!expectKey) {
      fail(s, i + 1, `expected "." or "[" before ${JSON.stringify(c)}`);
    } else if (c === '"' || c === "'") {
      const [key, next] = quoted(s, i);
      segments.push(key);
      i = next;
      expectKey = false;
    } else {
      let j = i;
      while (j < s.length && !".[]\"'".includes(s[j]!)) j++;
      if (s[j] === "]") fail(s, j + 1, 'a "]" without "["');
      if (s[j] === '"' || s[j] === "'")
        fail(s, j + 1, "a quote inside a key (quote the whole key)");
      segments.push(s.slice(i, j));
      i = j;
      expectKey = false;
    }
  }
  return segments;
}

const BARE = /^[^.[\]"'\s]+$/;

/** The canonical text of a path; `parseSelector(formatSelector(p))` gives `p` back. */
export function formatSelector(path: readonly Segment[]): string {
  if (path.length === 0) return "(the whole document)";
  let out = "";
  for (const [i, segment] of path.entries()) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (BARE.test(segment) && !(i === 0 && segment === "$")) {
      out += i === 0 ? segment : `.${segment}`;
    } else out += i === 0 ? JSON.stringify(segment) : `.${JSON.stringify(segment)}`;
  }
  return out;
}

/** A digits-only key used on an array means that index (`a.0` as well as `a[0]`). */
export function asIndex(segment: Segment): number | undefined {
  if (typeof segment === "number") return segment;
  return /^\d+$/.test(segment) ? Number(segment) : undefined;
}
