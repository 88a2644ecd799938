/**
 * The patch rows of the docs benchmark: a 100-hunk unified diff over 50
 * files, applied by splice's engine in memory and by the patch tool on disk
 * (history, locks, one backup session), next to the `diff` package's
 * parsePatch+applyPatch on the same strings in memory, measured in the same
 * run. Also with the files drifted (lines inserted above the hunks) and with
 * every line re-indented (context that only the fuzzy ladder finds).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { applyPatch as diffApplyPatch, parsePatch as diffParsePatch } from "diff";
import { applyHunks } from "../src/patch/apply.js";
import { parsePatch } from "../src/patch/parse.js";
import { createSplice } from "../src/splice.js";
import { unifiedDiff } from "../src/text/diff.js";
import { type DocsRow, measure, Rng } from "./lib.js";

const FILES = 50;
const HUNKS_PER_FILE = 2;
const LINES_PER_FILE = 400;
/** In-memory cases are cheap: warm the JIT well, so the ratio compares code, not compilation. */
const RUNS = { warmup: 30, runs: 40 };
const DISK_RUNS = { warmup: 2, runs: 10 };

interface Corpus {
  /** path -> content before the patch. */
  files: Map<string, string>;
  patch: string;
  /** path -> content the patch should produce. */
  expected: Map<string, string>;
}

function sourceFile(rng: Rng, n: number, tag: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const depth = rng.int(0, 3);
    lines.push(
      `${"  ".repeat(depth)}const v${tag}_${i} = compute(${rng.int(0, 9999)}, "${rng.pick(["a", "b", "c"])}");`,
    );
  }
  return lines;
}

function corpus(seed: number): Corpus {
  const rng = new Rng(seed);
  const files = new Map<string, string>();
  const expected = new Map<string, string>();
  const parts: string[] = [];
  for (let f = 0; f < FILES; f++) {
    const path = `src/mod${f}/file${f}.ts`;
    const before = sourceFile(rng, LINES_PER_FILE, f);
    const after = [...before];
    const span = Math.floor(LINES_PER_FILE / HUNKS_PER_FILE);
    // Edit bottom-up so earlier indexes stay valid.
    for (let h = HUNKS_PER_FILE - 1; h >= 0; h--) {
      const at = h * span + rng.int(10, span - 10);
      after.splice(
        at,
        rng.int(1, 3),
        `  const changed${f}_${h} = ${rng.int(0, 999)};`,
        `  log(changed${f}_${h});`,
      );
    }
    files.set(path, `${before.join("\n")}\n`);
    expected.set(path, `${after.join("\n")}\n`);
    parts.push(`diff --git a/${path} b/${path}\n${unifiedDiff(before, after, { path })}`);
  }
  return { files, patch: parts.join(""), expected };
}

/** The same files with 7 lines inserted at the top and 5 between the two hunks: offsets, exact context. */
function drifted(c: Corpus): Map<string, string> {
  const out = new Map<string, string>();
  const block = (n: number, at: number) =>
    Array.from({ length: n }, (_, k) => `// drift ${at}.${k}`);
  for (const [path, text] of c.files) {
    const lines = text.replace(/\n$/, "").split("\n");
    const mid = LINES_PER_FILE / HUNKS_PER_FILE;
    const shifted = [...block(7, 0), ...lines.slice(0, mid), ...block(5, mid), ...lines.slice(mid)];
    out.set(path, `${shifted.join("\n")}\n`);
  }
  return out;
}

/** The same files with every line indented two more spaces (the fuzzy ladder's indentation rung). */
function reindented(c: Corpus): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, text] of c.files) {
    out.set(path, text.replace(/^/gm, "  ").replace(/ {2}$/, ""));
  }
  return out;
}

function spliceInMemory(patch: string, files: Map<string, string>): number {
  const parsed = parsePatch(patch);
  let hunks = 0;
  for (const op of parsed.files) {
    if (op.kind !== "update") continue;
    const text = files.get(op.path)!;
    const lines = text.replace(/\n$/, "").split("\n");
    const out = applyHunks({ lines, finalNewline: true }, op.hunks, op.path);
    hunks += out.hunks.length;
  }
  return hunks;
}

function diffInMemory(patch: string, files: Map<string, string>): number {
  let applied = 0;
  for (const p of diffParsePatch(patch)) {
    const path = p.oldFileName!.replace(/^a\//, "");
    const out = diffApplyPatch(files.get(path)!, p);
    if (out === false) throw new Error(`diff.applyPatch refused ${path}`);
    applied += p.hunks.length;
  }
  return applied;
}

function plant(root: string, files: Map<string, string>): void {
  for (const [path, text] of files) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const BASE = "baseline: diff parsePatch+applyPatch (memory)";

const totalBytes = (files: Map<string, string>) =>
  [...files.values()].reduce((n, t) => n + Buffer.byteLength(t), 0);

/**
 * The patch rows of the docs table: `dir` is a scratch folder for the tool
 * rows (a project is made under it).
 */
export async function patchRows(dir: string): Promise<DocsRow[]> {
  const c = corpus(0x9a7c4);
  // Correctness first: the baseline produces the expected files.
  for (const p of diffParsePatch(c.patch)) {
    const path = p.oldFileName!.replace(/^a\//, "");
    if (diffApplyPatch(c.files.get(path)!, p) !== c.expected.get(path)) {
      throw new Error(`diff differs on ${path}`);
    }
  }
  const shifted = drifted(c);
  const indented = reindented(c);
  // One untimed pass over every in-memory case first, so each is measured with optimized code.
  for (let i = 0; i < 100; i++) {
    diffInMemory(c.patch, c.files);
    diffInMemory(c.patch, shifted);
    spliceInMemory(c.patch, c.files);
    spliceInMemory(c.patch, shifted);
    if (i % 10 === 0) spliceInMemory(c.patch, indented);
  }
  const file = `${FILES} files, ${FILES * HUNKS_PER_FILE} hunks`;
  const bytes = totalBytes(c.files);
  const rows: DocsRow[] = [
    {
      operation: BASE,
      file,
      bytes,
      stats: await measure(RUNS, () => diffInMemory(c.patch, c.files)),
    },
    {
      operation: "patch engine: parse+apply (memory)",
      file,
      bytes,
      stats: await measure(RUNS, () => spliceInMemory(c.patch, c.files)),
      baseline: BASE,
      note: "exact, at the stated lines",
    },
  ];
  const driftedFile = `${file}, drifted`;
  rows.push(
    {
      operation: BASE,
      file: driftedFile,
      bytes: totalBytes(shifted),
      stats: await measure(RUNS, () => diffInMemory(c.patch, shifted)),
      note: "offsets of 7 and 12 lines",
    },
    {
      operation: "patch engine: parse+apply (memory)",
      file: driftedFile,
      bytes: totalBytes(shifted),
      stats: await measure(RUNS, () => spliceInMemory(c.patch, shifted)),
      baseline: BASE,
      note: "found by content",
    },
    {
      operation: "patch engine: parse+apply (memory)",
      file: `${file}, re-indented`,
      bytes: totalBytes(indented),
      stats: await measure(RUNS, () => spliceInMemory(c.patch, indented)),
      note: "fuzzy indentation rung; diff.applyPatch refuses these",
    },
  );

  const root = join(dir, "patch-project");
  mkdirSync(root);
  plant(root, c.files);
  const splice = createSplice({ root, history: { session: "bench" }, lsp: false });
  rows.push({
    operation: "patch tool: preview (disk)",
    file,
    bytes,
    stats: await measure(DISK_RUNS, () =>
      splice.call("patch", { patch: c.patch, mode: "preview" }),
    ),
    baseline: BASE,
    note: "guard, read, plan, diff; no writes",
  });
  rows.push({
    operation: "patch tool: apply (disk)",
    file,
    bytes,
    stats: await measure({ ...DISK_RUNS, before: () => plant(root, c.files) }, () =>
      splice.call("patch", { patch: c.patch }),
    ),
    baseline: BASE,
    note: "one backup session; history fsyncs each original",
  });
  return rows;
}
