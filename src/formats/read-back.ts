/**
 * The check after every doc change: the new text is parsed again (by an
 * independent parser where there is one) and the part of the document the
 * change touched must equal the old part with exactly the planned steps
 * applied — or nothing is written.
 */

import { useTool } from "../errors.js";
import type { OpenEditor, Probe } from "./editor.js";
import { DocError } from "./errors.js";
import { asIndex, formatSelector, type Segment } from "./selector.js";
import { clone, deepEqual, type Json } from "./values.js";

export type Step = { op: "set"; path: Segment[]; value: Json } | { op: "remove"; path: Segment[] };

function where(path: readonly Segment[]): string {
  return path.length === 0 ? "the document" : `\`${formatSelector(path)}\``;
}

/** Applies `steps` to plain data (the part of the document they touch). */
export function replay(data: unknown, base: number, steps: Step[]): unknown {
  let root = clone(data);
  for (const step of steps) {
    const rel = step.path.slice(base);
    if (rel.length === 0) {
      root = step.op === "set" ? clone(step.value) : undefined;
      continue;
    }
    let node = root as Record<string, unknown> | unknown[];
    for (const segment of rel.slice(0, -1)) {
      node = (Array.isArray(node) ? node[asIndex(segment)!] : node[String(segment)]) as typeof node;
    }
    const last = rel.at(-1)!;
    if (Array.isArray(node)) {
      const i = asIndex(last)!;
      if (step.op === "remove") node.splice(i, 1);
      else node[i] = clone(step.value);
    } else if (step.op === "remove") {
      delete node[String(last)];
    } else {
      node[String(last)] = clone(step.value);
    }
  }
  return root;
}

/** The deepest part of the document every step stays inside. */
export function scopeOf(path: Segment[], probe: Probe): Segment[] {
  const depth = probe.found ? path.length - 1 : Math.min(probe.depth, path.length - 1);
  return path.slice(0, Math.max(0, depth));
}

export function readBack(
  open: OpenEditor,
  label: string,
  text: string,
  scope: Segment[],
  expected: unknown,
): void {
  const refuse = (why: string) =>
    new DocError(
      "invalid_input",
      `splice could not make this change to ${label} without disturbing the rest of it (${why}), so nothing was written.`,
      { reason: "read_back" },
      useTool("edit", (edit) => `Make this change with ${edit} instead.`),
    );
  let probe: Probe;
  try {
    const editor = (open.reread ?? open)(text);
    editor.validate?.();
    probe = editor.probe(scope);
  } catch (error) {
    throw refuse(`the result did not parse: ${error instanceof Error ? error.message : error}`);
  }
  if (!probe.found || !deepEqual(probe.raw(), expected)) {
    throw refuse(`${where(scope)} did not read back as intended`);
  }
}

/** Runs one doc action on a document's text. Throws DocError; writes nothing itself. */
