/**
 * Plain-data helpers shared by the format editors: what a value is, whether
 * two values are equal, and how a value reads in a sentence.
 */
import { formatSelector, type Segment } from "./selector.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

/**
 * JSON-safe data: TOML dates become their TOML text (the library's Date
 * subclasses print themselves), big integers become numbers when exact (else
 * strings), nan and inf become null — what JSON.stringify would show anyway.
 */
export function toJson(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") {
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === "object") {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJson(v);
    return out;
  }
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" || typeof value === "boolean") return value;
  return String(value);
}

/** How `toJson` shows a value JSON cannot carry, as a clause; undefined when JSON carries it. */
function shownInstead(value: unknown): string | undefined {
  if (value instanceof Date) {
    return `is a TOML date/time, shown as the string ${JSON.stringify(toJson(value))}`;
  }
  if (typeof value === "bigint" && !Number.isSafeInteger(Number(value))) {
    return `is an integer beyond JSON's exact range (2^53), shown as the string "${value}"`;
  }
  if (typeof value === "number" && !Number.isFinite(value)) {
    const name = Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
    return `is ${name}, which JSON has no number for, shown as null`;
  }
  return undefined;
}

/** A sentence for every value inside `value` (at `path`) that JSON shows as another type. */
export function shownAs(value: unknown, path: readonly Segment[], limit = 5): string[] {
  const out: string[] = [];
  let more = 0;
  const visit = (node: unknown, at: readonly Segment[]): void => {
    const clause = shownInstead(node);
    if (clause === undefined) {
      const entries = Array.isArray(node)
        ? node.entries()
        : isObject(node)
          ? Object.entries(node)
          : [];
      for (const [k, v] of entries) visit(v, [...at, k]);
    } else if (out.length < limit) {
      const name = at.length === 0 ? "The value" : `\`${formatSelector(at)}\``;
      out.push(`${name} ${clause}.`);
    } else {
      more++;
    }
  };
  visit(value, path);
  if (more > 0) out.push(`${more} more value${more === 1 ? "" : "s"} like these.`);
  return out;
}

/** Structural equality of data; object key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "bigint" || typeof b === "bigint") return String(a) === String(b);
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.toISOString() === b.toISOString();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b);
}

/**
 * Whether an item matches a `where` pattern: an object pattern matches an
 * object that has every one of its keys with a matching value (recursively);
 * any other pattern must be equal.
 */
export function matches(item: unknown, pattern: unknown): boolean {
  if (isObject(pattern)) {
    if (!isObject(item)) return false;
    return Object.entries(pattern).every(([k, p]) => Object.hasOwn(item, k) && matches(item[k], p));
  }
  return deepEqual(item, pattern);
}

/** "a string (\"vitest\")", "an object with 3 keys", ... */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value))
    return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`;
  if (isObject(value)) {
    const n = Object.keys(value).length;
    return `an object with ${n} key${n === 1 ? "" : "s"}`;
  }
  const shown = JSON.stringify(toJson(value));
  const brief = shown.length > 40 ? `${shown.slice(0, 37)}...` : shown;
  if (typeof value === "string") return `a string (${brief})`;
  if (typeof value === "boolean") return `a boolean (${brief})`;
  if (typeof value === "number" || typeof value === "bigint") return `a number (${brief})`;
  return `a value (${brief})`;
}

/** A deep copy of plain data (null-prototype objects become plain ones). */
export function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = clone(v);
    return out as T;
  }
  return value;
}
