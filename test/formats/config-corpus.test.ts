/**
 * Real config files (test/fixtures/configs, from public repositories: see its
 * README) with their scalar values changed one at a time through the doc
 * tool's `set` (its engine, `runDocAction`): the file must still parse, only
 * that value may differ (the data before and after, compared whole), and
 * only that value's own lines may change (a line diff against the lines the
 * format's own parser says the value spans). Strings get suffixes a format
 * must quote or escape. Up to 16 values a file, taken evenly; with
 * SPLICE_CONFIG_CORPUS_ALL=1 every value of every file. The first value of
 * each file also goes through the doc tool itself, on a real file with
 * history, which must write exactly what the engine made.
 */
import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { runDocAction } from "../../src/formats/actions.js";
import { formatOf } from "../../src/formats/formats.js";
import { editorFor } from "../../src/formats/open.js";
import { formatSelector } from "../../src/formats/selector.js";
import { Project } from "../helpers/project.js";
import {
  dataOf,
  type Leaf,
  leavesOf,
  parseErrors,
  type Scalar,
  withValue,
} from "./config-leaves.js";
import { span } from "./helpers.js";

const ROOT = join(import.meta.dirname, "../fixtures/configs");

/** Every file under the corpus folder (ecosystem/source/name), root-relative, sorted. */
const FILES = (readdirSync(ROOT, { recursive: true, withFileTypes: true }) as Dirent[])
  .filter((d) => d.isFile() && d.name !== "README.md")
  .map((d) => relative(ROOT, join(d.parentPath, d.name)))
  .sort();

/**
 * What strings get appended, in turn: plain text, then text each format must
 * quote or escape (a comment sign, a key-value colon, quotes, a backslash,
 * a character outside ASCII, a leading-looking number).
 */
const SUFFIXES = ["x", " #1", ": y", '"q"', "\\d", "é", " 2", "'s", "${{ x }}", "*"];

/** The value the `n`th change sets: the same kind, visibly different, a string's trailing newlines kept. */
function changed(value: Scalar, n = 0): Scalar | undefined {
  if (typeof value === "boolean") return !value;
  if (typeof value === "number") {
    if (Number.isInteger(value)) return Number.isSafeInteger(value + 1) ? value + 1 : undefined;
    return value + 0.25;
  }
  const suffix = SUFFIXES[n % SUFFIXES.length]!;
  return value.replace(/(\n*)$/, `${suffix}$1`);
}

/** The old lines a change replaced: [first, last] 1-based, or [n, n - 1] for a pure insertion before line n. */
function touched(before: string, after: string): [number, number] {
  const { removed } = span(before, after);
  const a = before.split("\n");
  const b = after.split("\n");
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  return [p + 1, p + removed.length];
}

interface Tally {
  files: number;
  /** Scalar values in the files, changed or not. */
  values: number;
  changes: number;
  ownLines: number;
  skipped: number;
  failures: string[];
}

/**
 * Changes per file: a big file's values are taken evenly (a TOML change
 * re-reads the whole file), so the suite stays quick; SPLICE_CONFIG_CORPUS_ALL=1
 * changes every value of every file (about a minute).
 */
const PER_FILE = process.env.SPLICE_CONFIG_CORPUS_ALL ? Number.POSITIVE_INFINITY : 16;

/** At most `most` of `items`, spread evenly from the first to the last. */
function spread<T>(items: readonly T[], most: number): T[] {
  if (items.length <= most) return [...items];
  if (most < 2) return items.slice(0, most);
  return Array.from(
    { length: most },
    (_, i) => items[Math.round((i * (items.length - 1)) / (most - 1))]!,
  );
}

function changeEach(rel: string, tally: Tally): void {
  const format = formatOf(rel)!;
  const text = readFileSync(join(ROOT, rel), "utf8");
  const editor = editorFor(format, rel);
  const before = dataOf(format, text);
  const leaves = leavesOf(format, text);
  tally.values += leaves.length;
  for (const leaf of spread(leaves, PER_FILE)) {
    const value = changed(leaf.value, tally.values + tally.changes);
    if (value === undefined) {
      tally.skipped++;
      continue;
    }
    const selector = formatSelector(leaf.path);
    const where = `${rel} ${selector} (lines ${leaf.lines.join("..")})`;
    let after: string;
    try {
      after = runDocAction(editor, rel, text, { action: "set", selector, value }).text;
    } catch (error) {
      tally.failures.push(`${where}: refused: ${(error as Error).message}`);
      continue;
    }
    tally.changes++;
    const errors = parseErrors(format, after);
    if (errors.length > 0) {
      tally.failures.push(`${where}: no longer parses: ${errors[0]}`);
      continue;
    }
    const expected = JSON.stringify(withValue(before, leaf.path, value));
    if (JSON.stringify(dataOf(format, after)) !== expected) {
      tally.failures.push(`${where}: other values changed too`);
      continue;
    }
    const [first, last] = touched(text, after);
    if (first >= leaf.lines[0] && last <= leaf.lines[1]) tally.ownLines++;
    else tally.failures.push(`${where}: changed lines ${first}..${last}`);
  }
}

const ECOSYSTEMS = [...new Set(FILES.map((rel) => rel.split("/")[0]!))];
const empty = (): Tally => ({
  files: 0,
  values: 0,
  changes: 0,
  ownLines: 0,
  skipped: 0,
  failures: [],
});
const total = empty();

describe("the config corpus, its scalar values changed one at a time", () => {
  it.each(ECOSYSTEMS)(
    "%s: each file still parses, only that value changes, only its own lines",
    (eco) => {
      const tally = empty();
      for (const rel of FILES.filter((f) => f.startsWith(`${eco}/`))) {
        tally.files++;
        changeEach(rel, tally);
      }
      for (const key of ["files", "values", "changes", "ownLines", "skipped"] as const)
        total[key] += tally[key];
      expect(tally.failures).toEqual([]);
      expect(tally.ownLines).toBe(tally.changes);
    },
    // Every value of every file (SPLICE_CONFIG_CORPUS_ALL) takes about a minute.
    PER_FILE === Number.POSITIVE_INFINITY ? 600_000 : undefined,
  );

  it("covers at least 60 files and 300 changes", () => {
    console.log(
      `config corpus: ${total.files} files, ${total.values} scalar values, ${total.changes} changed, ${total.ownLines} touched only their own lines, ${total.skipped} skipped`,
    );
    expect(total.files).toBeGreaterThanOrEqual(60);
    expect(total.changes).toBeGreaterThanOrEqual(300);
  });

  it("writes through the doc tool exactly what the engine makes, for each file's first value", async () => {
    const p = new Project();
    const s = p.splice();
    let written = 0;
    for (const rel of FILES) {
      const format = formatOf(rel);
      if (!format) continue;
      const text = readFileSync(join(ROOT, rel), "utf8");
      const leaf: Leaf | undefined = leavesOf(format, text)[0];
      const value = leaf && changed(leaf.value);
      if (!leaf || value === undefined) continue;
      p.write(rel, text);
      const selector = formatSelector(leaf.path);
      const engine = runDocAction(editorFor(format, rel), rel, text, {
        action: "set",
        selector,
        value,
      }).text;
      await s.call("doc", { action: "set", path: rel, selector, value });
      expect(p.text(rel), `${rel} ${selector}`).toBe(engine);
      written++;
    }
    expect(written).toBeGreaterThanOrEqual(60);
  });
});
