/**
 * Plain-data helpers shared by the format editors: what a value is, whether
 * two values are equal, and how a value reads in a sentence.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}

/**
 * JSON-safe data: TOML dates become their TOML text (the library's Date
 * subclasses print themselves), big integers become numbers when exact.
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
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") {
    return value;
  }
  return String(value);
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
