import { readFileSync } from "node:fs";
import { type DocOutcome, type DocRequest, runDocAction } from "../../src/formats/actions.js";
import { formatOf } from "../../src/formats/formats.js";
import { editorFor } from "../../src/formats/open.js";

export function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
}

/** Runs a doc action on a fixture's text (or on `text`, read as the fixture's format). */
export function run(name: string, request: DocRequest, text = fixture(name)): DocOutcome {
  return runDocAction(editorFor(formatOf(name)!, name), name, text, request);
}

/**
 * The lines that differ between two texts: everything before the first and
 * after the last differing line is byte-identical by construction, so a test
 * that pins `removed` and `added` pins the whole result.
 */
export function span(before: string, after: string): { removed: string[]; added: string[] } {
  const a = before.split("\n");
  const b = after.split("\n");
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  return { removed: a.slice(p, a.length - s), added: b.slice(p, b.length - s) };
}

/** The error a call threw, failing the test when it returned. */
export function thrown(fn: () => unknown): {
  code: string;
  message: string;
  details: Record<string, unknown>;
} {
  try {
    fn();
  } catch (error) {
    return error as { code: string; message: string; details: Record<string, unknown> };
  }
  throw new Error("expected an error");
}
