/**
 * TOML editing with @decimalturn/toml-patch: the document is read into plain
 * data, changed there, and `patch` writes back only what differs, keeping
 * comments, quoting, table layout and blank lines. Like that library, a
 * removed entry takes the comment directly above it (no blank line between)
 * and its same-line comment along.
 */
import { parse, patch, TomlFormat } from "@decimalturn/toml-patch";
import { useTool } from "../errors.js";
import { diffLines } from "../text/myers.js";
import { childOf, probeData } from "./data-probe.js";
import type { DocEditor, Probe } from "./editor.js";
import { DocError, FIX_FIRST } from "./errors.js";
import { asIndex, formatSelector, type Segment } from "./selector.js";
import { clone, deepEqual, isObject, type Json } from "./values.js";

type Container = Record<string, unknown> | unknown[];

function readToml(text: string, label: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const at = /\((\d+), (\d+)\)/.exec(message);
    const reason = message.split("\n").at(-1)?.trim() ?? message;
    const line = at ? Number(at[1]) : undefined;
    const column = at ? Number(at[2]) : undefined;
    const place = at ? ` at line ${line}, column ${column}` : "";
    throw new DocError(
      "invalid_input",
      `${label} does not parse as TOML${place}: ${reason}.`,
      { line, column },
      FIX_FIRST,
    );
  }
}

function refuseNull(value: unknown, label: string): void {
  if (value === null) {
    throw new DocError(
      "invalid_input",
      `TOML has no null, so ${label} cannot hold one. Use the "delete" action to remove a key, or give a string, number, boolean, array or object. Nothing was written.`,
    );
  }
  if (Array.isArray(value)) for (const v of value) refuseNull(v, label);
  else if (isObject(value)) for (const v of Object.values(value)) refuseNull(v, label);
}

/** Characters a TOML date/time literal is made of: nothing that could start another key. */
const DATE_TIME_CHARS = /^[0-9:.+\-TtZz ]+$/;
const INTEGER = /^[+-]?\d+$/;

/** A TOML date/time literal as the library's date value, or undefined. */
function asDateTime(text: string): Date | undefined {
  if (!DATE_TIME_CHARS.test(text)) return undefined;
  try {
    const value: unknown = parse(`v = ${text}`).v;
    return value instanceof Date ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `value` with the TOML types JSON cannot carry put back where `old` had them,
 * from the forms `get` shows them in: a string in date/time form stays a
 * date/time, a string of digits a big integer, null a nan or inf. A string
 * that is no such form replaces the old value with a warning.
 */
function retype(old: unknown, value: unknown, at: Segment[], warnings: string[]): unknown {
  if (typeof value === "string" && (old instanceof Date || typeof old === "bigint")) {
    const kept =
      old instanceof Date ? asDateTime(value) : INTEGER.test(value) ? BigInt(value) : undefined;
    if (kept !== undefined) return kept;
    const was = old instanceof Date ? "a TOML date/time" : "an integer";
    warnings.push(
      `\`${formatSelector(at)}\` was ${was}; ${JSON.stringify(value)} is not one, so it is now a string.`,
    );
    return value;
  }
  if (value === null && typeof old === "number" && !Number.isFinite(old)) return old;
  if (Array.isArray(value) && Array.isArray(old)) {
    return value.map((v, i) => retype(old[i], v, [...at, i], warnings));
  }
  if (isObject(value) && isObject(old)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = retype(old[k], v, [...at, k], warnings);
    return out;
  }
  return value;
}

/**
 * The file's own layout, but never a trailing comma in what patch writes: the
 * library's one option covers inline tables too, and TOML 1.0 parsers (Cargo's,
 * Python's tomllib) reject `{ a = 1, }`. Existing arrays keep their own commas.
 */
function writeFormat(original: string): TomlFormat {
  const format = TomlFormat.autoDetectFormat(original);
  format.trailingComma = false;
  return format;
}

const squashed = (line: string) => line.replace(/\s+/g, "");

/**
 * `patched` with every line the library only re-spaced put back as it was:
 * it re-renders a neighbour of what changed (`"UP",  # pyupgrade` loses its
 * aligning space). A line is put back only when it differs from the old one
 * in whitespace alone, and the whole only when it still parses to the same
 * data (whitespace inside a string is a value).
 */
function keepRespaced(original: string, patched: string): string {
  const a = original.split("\n");
  const b = patched.split("\n");
  const runs = diffLines(a, b, 4000);
  if (!runs) return patched;
  const out: string[] = [];
  let i = 0;
  let j = 0;
  for (let r = 0; r < runs.length; r++) {
    const run = runs[r]!;
    const next = runs[r + 1];
    if (run.tag === "-" && next?.tag === "+" && next.count === run.count) {
      for (let k = 0; k < run.count; k++) {
        const [old, now] = [a[i + k]!, b[j + k]!];
        out.push(squashed(old) === squashed(now) ? old : now);
      }
      i += run.count;
      j += run.count;
      r++;
      continue;
    }
    if (run.tag !== "-") out.push(...b.slice(j, j + run.count));
    if (run.tag !== "+") i += run.count;
    if (run.tag !== "-") j += run.count;
  }
  const kept = out.join("\n");
  if (kept === patched) return patched;
  try {
    return deepEqual(parse(kept), parse(patched)) ? kept : patched;
  } catch {
    return patched;
  }
}

class TomlEditor implements DocEditor {
  private data: Record<string, unknown>;
  private dirty = false;

  constructor(
    private readonly original: string,
    private readonly label: string,
  ) {
    this.data = readToml(original, label);
  }

  probe(path: readonly Segment[]): Probe {
    const probe = probeData(this.data, path);
    // TOML has no null: a missing value is never a null one.
    return probe.found ? probe : { ...probe, isNull: false };
  }

  private container(path: readonly Segment[]): Container {
    let node: unknown = this.data;
    for (const segment of path) node = childOf(node, segment).value;
    return node as Container;
  }

  typed(path: readonly Segment[], value: Json): { value: Json; warnings: string[] } {
    const old = probeData(this.data, path);
    if (!old.found) return { value, warnings: [] };
    const warnings: string[] = [];
    // The library's dates and bigints travel where JSON goes; clone, deepEqual and read-back take them.
    const typed = retype(old.data(), value, [...path], warnings) as Json;
    return { value: typed, warnings };
  }

  set(path: readonly Segment[], value: Json): void {
    refuseNull(value, this.label);
    if (path.length === 0) {
      this.data = clone(value) as Record<string, unknown>;
    } else {
      const parent = this.container(path.slice(0, -1));
      const segment = path.at(-1)!;
      if (Array.isArray(parent)) parent[asIndex(segment)!] = clone(value);
      else parent[String(segment)] = clone(value);
    }
    this.dirty = true;
  }

  remove(path: readonly Segment[]): void {
    const parent = this.container(path.slice(0, -1));
    const segment = path.at(-1)!;
    if (Array.isArray(parent)) parent.splice(asIndex(segment)!, 1);
    else delete parent[String(segment)];
    this.dirty = true;
  }

  text(): string {
    if (!this.dirty) return this.original;
    try {
      return keepRespaced(
        this.original,
        patch(this.original, this.data, writeFormat(this.original)),
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new DocError(
        "invalid_input",
        `TOML cannot hold this change in ${this.label} as it is laid out (${reason}). Nothing was written;`,
        { reason: "unsupported" },
        useTool("edit", (edit) => `make the change with ${edit}.`),
      );
    }
  }
}

export function openToml(text: string, label: string): DocEditor {
  return new TomlEditor(text, label);
}
