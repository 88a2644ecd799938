/**
 * TOML editing with @decimalturn/toml-patch: the document is read into plain
 * data, changed there, and `patch` writes back only what differs, keeping
 * comments, quoting, table layout and blank lines. Like that library, a
 * removed entry takes the comment directly above it (no blank line between)
 * and its same-line comment along.
 */
import { parse, patch, TomlFormat } from "@decimalturn/toml-patch";
import { childOf, probeData } from "./data-probe.js";
import type { DocEditor, Probe } from "./editor.js";
import { DocError } from "./errors.js";
import { asIndex, type Segment } from "./selector.js";
import { clone, isObject, type Json } from "./values.js";

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
      `${label} does not parse as TOML${place}: ${reason}. Fix the file first (the edit tool can), then retry. Nothing was written.`,
      { line, column },
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
      return patch(this.original, this.data, writeFormat(this.original));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new DocError(
        "invalid_input",
        `TOML cannot hold this change in ${this.label} as it is laid out (${reason}). Nothing was written; make the change with the edit tool.`,
        { reason: "unsupported" },
      );
    }
  }
}

export function openToml(text: string, label: string): DocEditor {
  return new TomlEditor(text, label);
}
