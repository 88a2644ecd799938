/**
 * The doc actions (get, set, delete, delete_where, append, merge, ensure)
 * over any format editor. Every action becomes a few primitive set/remove
 * steps; afterwards the new text is parsed again and the part of the
 * document the steps touched must read back as exactly what they meant, or
 * nothing is written.
 */

import { useTool } from "../errors.js";
import type { DocEditor, Missing, OpenEditor, Probe } from "./editor.js";
import { DocError } from "./errors.js";
import { readBack, replay, type Step, scopeOf } from "./read-back.js";
import { asIndex, formatSelector, parseSelector, type Segment } from "./selector.js";
import { deepEqual, describe, isObject, type Json, matches, shownAs, toJson } from "./values.js";

export type DocAction = "get" | "set" | "delete" | "delete_where" | "append" | "merge" | "ensure";

export interface DocRequest {
  action: DocAction;
  selector: string;
  value?: Json;
  where?: Json;
}

export interface DocOutcome {
  text: string;
  changed: boolean;
  /** delete and delete_where: how many values were removed. */
  removed?: number;
  /** get: the value; ensure: the value now there. */
  value?: Json;
  warnings: string[];
}

const NOTHING = "Nothing was written.";

class Run {
  readonly steps: Step[] = [];
  readonly warnings: string[] = [];

  constructor(
    readonly editor: DocEditor,
    readonly label: string,
  ) {}

  set(path: Segment[], given: Json): void {
    const typed = this.editor.typed?.(path, given);
    const value = typed ? typed.value : given;
    if (typed) this.warnings.push(...typed.warnings);
    this.editor.set(path, value);
    this.steps.push({ op: "set", path, value });
  }

  remove(path: Segment[]): void {
    this.editor.remove(path);
    this.steps.push({ op: "remove", path });
  }
}

function where(path: readonly Segment[]): string {
  return path.length === 0 ? "the document" : `\`${formatSelector(path)}\``;
}

function keyList(keys: string[]): string {
  if (keys.length === 0) return "it has no keys";
  const shown = keys.slice(0, 12).map((k) => JSON.stringify(k));
  return `its keys: ${shown.join(", ")}${keys.length > 12 ? `, … (${keys.length} in all)` : ""}`;
}

/** Why `path` stops at `miss`, as a clause. */
function whyMissing(path: readonly Segment[], miss: Missing): string {
  const parent = where(path.slice(0, miss.depth));
  const next = path[miss.depth]!;
  if (miss.kind === "object") {
    if (typeof next === "number")
      return `${parent} is an object, so [${next}] names nothing (${keyList(miss.keys)})`;
    return `${parent} has no key ${JSON.stringify(next)} (${keyList(miss.keys)})`;
  }
  if (miss.kind === "array") {
    const index = asIndex(next);
    if (index === undefined) {
      return `${parent} is an array; address its items by index, e.g. ${formatSelector([...path.slice(0, miss.depth), 0])}`;
    }
    return `${parent} has ${miss.size} item${miss.size === 1 ? "" : "s"}, so [${index}] is out of range`;
  }
  return `${parent} is ${describe(miss.scalar)}, which has no keys or items`;
}

/** Turns negative indexes into positions from the end, where the array exists. */
function resolveNegatives(editor: DocEditor, path: Segment[]): Segment[] {
  const out = [...path];
  for (let i = 0; i < out.length; i++) {
    const segment = out[i]!;
    if (typeof segment !== "number" || segment >= 0) continue;
    const parent = editor.probe(out.slice(0, i));
    if (parent.found && parent.kind === "array") out[i] = parent.size + segment;
  }
  return out;
}

function refuseShared(path: readonly Segment[], shared: string | undefined): void {
  if (shared === undefined) return;
  throw new DocError(
    "invalid_input",
    `Cannot change ${where(path)}: it lives inside ${shared}, so the change would also change every other place that uses it. Change the anchored value where it is defined, or replace the alias as a whole. ${NOTHING}`,
    { reason: "shared" },
  );
}

/** Builds `{a: {b: value}}` for the missing keys `rest`; an index cannot be created. */
function nest(path: Segment[], from: number, value: Json): Json {
  let out = value;
  for (let i = path.length - 1; i > from; i--) {
    const segment = path[i]!;
    if (typeof segment === "number") {
      throw new DocError(
        "invalid_input",
        `Cannot create ${where(path)}: ${where(path.slice(0, i))} does not exist, and an index like [${segment}] needs an existing array. Set ${where(path.slice(0, i))} to an array first (or use append). ${NOTHING}`,
      );
    }
    out = { [segment]: out };
  }
  return out;
}

/** Writes `value` at a path that does not exist yet, creating missing objects on the way. */
function create(run: Run, path: Segment[], miss: Missing, value: Json): void {
  if (path.length === 0) {
    run.set(path, value);
    return;
  }
  refuseShared(path.slice(0, miss.depth), miss.shared);
  const at = path.slice(0, miss.depth);
  const next = path[miss.depth]!;
  if (miss.kind === "scalar") {
    if (miss.isNull && typeof next === "string") {
      run.set(at, nest(path, miss.depth - 1, value));
      run.warnings.push(`${where(at)} was null; it is now an object.`);
      return;
    }
    throw new DocError(
      "invalid_input",
      `Cannot set ${where(path)}: ${whyMissing(path, miss)}. Set ${where(at)} itself to an object or array first, or choose another selector. ${NOTHING}`,
      { reason: "scalar_parent" },
    );
  }
  if (miss.kind === "array") {
    const index = asIndex(next);
    const hint =
      index === undefined
        ? ""
        : ` (indexes 0..${miss.size - 1}, or -1 for the last). Use the "append" action to add an item`;
    throw new DocError(
      "invalid_input",
      `Cannot set ${where(path)}: ${whyMissing(path, miss)}${hint}. ${NOTHING}`,
      { reason: "index_out_of_range" },
    );
  }
  if (typeof next === "number") {
    throw new DocError(
      "invalid_input",
      `Cannot set ${where(path)}: ${whyMissing(path, miss)}. Use a key. ${NOTHING}`,
    );
  }
  run.set(path.slice(0, miss.depth + 1), nest(path, miss.depth, value));
  if (miss.depth < path.length - 1) {
    run.warnings.push(`Created ${where(path.slice(0, miss.depth + 1))}, which did not exist.`);
  }
}

function requireValue(request: DocRequest): Json {
  if (request.value === undefined) {
    throw new DocError(
      "invalid_input",
      `The "${request.action}" action needs a "value" (any JSON). ${NOTHING}`,
    );
  }
  return request.value;
}

function set(run: Run, path: Segment[], probe: Probe, value: Json): void {
  if (!probe.found) return create(run, path, probe, value);
  if (deepEqual(probe.data(), value) && !probe.inherited) return;
  refuseShared(path, probe.shared);
  if (probe.inherited) {
    run.warnings.push(
      `${where(path)} came from ${probe.inherited}; it is now set on ${where(path.slice(0, -1))} itself and the anchored value is unchanged.`,
    );
  }
  run.set(path, value);
}

function merge(run: Run, path: Segment[], value: Json): void {
  const probe = run.editor.probe(path);
  if (!probe.found) return create(run, path, probe, value);
  if (probe.kind === "scalar" && probe.size === 0 && probe.data() === null) {
    refuseShared(path, probe.shared);
    run.set(path, value);
    return;
  }
  if (probe.kind !== "object") {
    throw new DocError(
      "invalid_input",
      `Cannot merge into ${where(path)}: it is ${describe(probe.data())}, not an object. Use "set" to replace it. ${NOTHING}`,
    );
  }
  for (const [key, v] of Object.entries(value as Record<string, Json>)) {
    const child = [...path, key];
    const current = run.editor.probe(child);
    if (current.found && current.kind === "object" && isObject(v) && !current.inherited) {
      merge(run, child, v);
    } else {
      set(run, child, current, v);
    }
  }
}

type Acted = Omit<DocOutcome, "text" | "changed" | "warnings">;

function act(run: Run, request: DocRequest, path: Segment[]): Acted {
  const probe = run.editor.probe(path);
  switch (request.action) {
    case "get":
      return getAt(run, path, probe);
    case "set":
      set(run, path, probe, requireValue(request));
      return {};
    case "ensure":
      return ensureAt(run, path, probe, requireValue(request));
    case "delete":
      return deleteAt(run, path, probe);
    case "delete_where":
      return deleteWhere(run, request, path, probe);
    case "append":
      return appendAt(run, path, probe, requireValue(request));
    case "merge": {
      const value = requireValue(request);
      if (!isObject(value)) {
        throw new DocError(
          "invalid_input",
          `The "merge" action takes an object (the keys to add or replace), not ${describe(value)}. Use "set" to replace a value. ${NOTHING}`,
        );
      }
      merge(run, path, value);
      return {};
    }
  }
}

function getAt(run: Run, path: Segment[], probe: Probe): Acted {
  if (!probe.found) {
    throw new DocError(
      "not_found",
      `${run.label} has no value at ${where(path)}: ${whyMissing(path, probe)}.`,
    );
  }
  const data = probe.data();
  run.warnings.push(...shownAs(data, path));
  return { value: toJson(data) };
}

function ensureAt(run: Run, path: Segment[], probe: Probe, value: Json): Acted {
  if (probe.found) {
    run.warnings.push(`${where(path)} already exists; it was left as it is.`);
    return { value: toJson(probe.data()) };
  }
  create(run, path, probe, value);
  return { value };
}

function deleteAt(run: Run, path: Segment[], probe: Probe): Acted {
  if (!probe.found) return { removed: 0 };
  if (probe.inherited) {
    run.warnings.push(
      `${where(path)} comes from ${probe.inherited} and was not removed; remove it where the anchor is defined.`,
    );
    return { removed: 0 };
  }
  refuseShared(path, probe.shared);
  run.remove(path);
  return { removed: 1 };
}

function deleteWhere(run: Run, request: DocRequest, path: Segment[], probe: Probe): Acted {
  if (request.where === undefined) {
    throw new DocError(
      "invalid_input",
      `Deleting by match needs "where": an object of keys and values an item must have, e.g. \`{"name": "left-pad"}\`. ${NOTHING}`,
    );
  }
  if (!probe.found) return { removed: 0 };
  if (probe.kind !== "array") {
    throw new DocError(
      "invalid_input",
      `"delete_where" removes items from an array, but ${where(path)} is ${describe(probe.data())}. Use "delete" with the key's selector instead. ${NOTHING}`,
    );
  }
  const items = probe.data() as unknown[];
  const hits = items.flatMap((item, i) => (matches(item, request.where) ? [i] : []));
  if (hits.length > 0) refuseShared([...path, 0], run.editor.probe([...path, hits[0]!]).shared);
  for (const i of hits.reverse()) run.remove([...path, i]);
  return { removed: hits.length };
}

function appendAt(run: Run, path: Segment[], probe: Probe, value: Json): Acted {
  if (!probe.found) {
    create(run, path, probe, [value]);
    run.warnings.push(`${where(path)} did not exist; it is now an array with the one item.`);
    return {};
  }
  if (probe.kind !== "array") {
    throw new DocError(
      "invalid_input",
      `Cannot append to ${where(path)}: it is ${describe(probe.data())}, not an array. Use "set" to replace it, or "merge" to add keys to an object. ${NOTHING}`,
    );
  }
  const inside = run.editor.probe([...path, probe.size]);
  refuseShared([...path, probe.size], inside.found ? inside.shared : inside.shared);
  run.set([...path, probe.size], value);
  return {};
}

export function runDocAction(
  open: OpenEditor,
  label: string,
  text: string,
  request: DocRequest,
): DocOutcome {
  const editor = open(text);
  const path = resolveNegatives(editor, parseSelector(request.selector));
  if (path.length === 0 && ["set", "delete", "ensure"].includes(request.action)) {
    throw new DocError(
      "invalid_input",
      `The selector names the whole document; "${request.action}" needs a key or index inside it (e.g. scripts.test).`,
      {},
      useTool("write", (write) => `To replace the whole file use ${write}. ${NOTHING}`),
    );
  }
  const run = new Run(editor, label);
  const before = editor.probe(path);
  const scope = scopeOf(path, before);
  const scopeProbe = editor.probe(scope);
  const scopeRaw = scopeProbe.found ? scopeProbe.raw() : undefined;
  const result = act(run, request, path);
  if (run.steps.length === 0) return { text, changed: false, ...result, warnings: run.warnings };
  const next = editor.text();
  readBack(open, label, next, scope, replay(scopeRaw, scope.length, run.steps));
  return { text: next, changed: next !== text, ...result, warnings: run.warnings };
}
