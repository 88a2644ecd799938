/**
 * The symbol index over a synthetic 30,000-file TypeScript tree: a cold
 * first lookup, a cold full build, warm folder symbol reads and outlines
 * (over a full index), and one changed file, each beside today's scan
 * (SPLICE_SYMBOL_INDEX=0) measured in the same run. `npm run bench --
 * code-index` runs this table alone; `code` runs it after its own.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { languageOf } from "../src/code/languages.js";
import { collectCodeFiles } from "../src/codebase/files.js";
import { symbolIndexFor } from "../src/codebase/symbol-index.js";
import { forgetWalkCaches } from "../src/codebase/symbol-index-walk.js";
import { createToolkit } from "../src/toolkit/index.js";
import { createContext } from "../src/toolkit/options.js";
import type { OutlineResult } from "../src/tools/outline/index.js";
import type { ReadResult } from "../src/tools/read/index.js";
import { defineBenchmark, fixed, formatTable, measure, ms, withScratchDir } from "./lib.js";

export const INDEX_FILES = 30_000;
const SPLICE = fileURLToPath(new URL("../bin/splice", import.meta.url));
const PER_FOLDER = 100;

/** One module: a class with methods, functions and a constant; `Target` is defined once. */
export function moduleText(i: number): string {
  const lines = [`import { helper${(i + 1) % INDEX_FILES} } from "./other";`, ""];
  lines.push(`export const LIMIT_${i} = ${i};`, "");
  lines.push(`export class Service${i} {`);
  for (let m = 0; m < 4; m++) {
    lines.push(`  method${m}(input: string): number {`, `    return input.length + ${m};`, "  }");
  }
  lines.push("}", "");
  for (let f = 0; f < 3; f++) {
    lines.push(`export function helper${i}_${f}(a: number, b: number): number {`);
    lines.push(`  const sum = a + b * ${f};`, "  return sum;", "}", "");
  }
  if (i === 12_345) lines.push("export function TargetService(): void {}", "");
  return lines.join("\n");
}

export function buildTree(root: string): string[] {
  const old = new Date(Date.now() - 3_600_000);
  const rels: string[] = [];
  for (let i = 0; i < INDEX_FILES; i++) {
    const dir = `pkg${Math.floor(i / PER_FOLDER / 10)}/mod${Math.floor(i / PER_FOLDER) % 10}`;
    if (i % PER_FOLDER === 0) mkdirSync(join(root, dir), { recursive: true });
    const rel = `${dir}/file${i}.ts`;
    writeFileSync(join(root, rel), moduleText(i));
    // Files of a real checkout are older than a lookup: their stat alone can vouch for them.
    utimesSync(join(root, rel), old, old);
    rels.push(rel);
  }
  return rels;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export async function indexTable(root: string): Promise<void> {
  const started = performance.now();
  const rels = buildTree(root);
  console.log(
    `\nsymbol index: ${INDEX_FILES.toLocaleString("en-US")} synthetic .ts files (${fixed((performance.now() - started) / 1000, 1)} s to write)`,
  );
  const kit = createToolkit({ root, history: { session: "bench" } });
  const uncapped = createToolkit({ root, history: { session: "bench" }, maxLines: 1e9 });
  const symbol = { targets: [{ path: ".", symbol: "TargetService" }] };
  const outlineArgs = { path: ".", max_files: 100_000 };
  const scan = async <T>(fn: () => Promise<T>): Promise<T> => {
    process.env.SPLICE_SYMBOL_INDEX = "0";
    try {
      return await fn();
    } finally {
      delete process.env.SPLICE_SYMBOL_INDEX;
    }
  };

  // Today's scans: ripgrep then parse for the symbol; every file parsed for the full outline.
  const todaySymbol = await scan(() =>
    measure({ warmup: 1, runs: 3 }, () => kit.call("read", symbol)),
  );
  const todayOutline = await scan(() =>
    measure({ warmup: 1, runs: 3 }, () => kit.call("outline", outlineArgs)),
  );
  const todayFull = await scan(() => timed(() => uncapped.call("outline", outlineArgs)));

  // Cold means a new process over an empty index: no shards, no walk cache.
  const coldStart = () => {
    rmSync(join(root, ".splice", "index"), { recursive: true, force: true });
    forgetWalkCaches();
  };
  // A first lookup in a new process, as one `splice read` makes it: today's scan, then over an
  // empty index (which it starts to fill), each run in its own process.
  if (!existsSync(SPLICE.replace(/bin\/splice$/, "dist/cli-bundle/start.js"))) {
    throw new Error("dist/ is missing: run `npm run build` first.");
  }
  const cli = (env: NodeJS.ProcessEnv) => () =>
    execFileSync(SPLICE, ["read", ".", "--symbol", "TargetService", "--root", root], {
      env: { ...process.env, ...env },
      stdio: "pipe",
    });
  const emptyIndex = () => rmSync(join(root, ".splice", "index"), { recursive: true, force: true });
  const todayProcess = await measure({ warmup: 1, runs: 3 }, cli({ SPLICE_SYMBOL_INDEX: "0" }));
  const coldProcess = await measure({ warmup: 1, runs: 3, before: emptyIndex }, cli({}));
  const { context } = createContext({ root, history: { session: "bench" } });
  const indexContext = { ...context, backup: "bench" };
  coldStart();
  const cold = await timed(() => kit.call("read", symbol));
  // The full build `serve` runs in the background, without its pauses: walk, then every file.
  coldStart();
  const build = await timed(async () => {
    const collected = await collectCodeFiles(indexContext, ["."], { maxFiles: 100_000 });
    await symbolIndexFor(indexContext)!.lookup(indexContext, collected.files);
  });
  // Warm: the index holds every file, and the walk cache every folder.
  const warmSymbol = await measure({ warmup: 1, runs: 5 }, () => kit.call("read", symbol));
  const warmOutline = await measure({ warmup: 1, runs: 5 }, () => kit.call("outline", outlineArgs));
  const warmFull = await measure({ warmup: 0, runs: 2 }, () =>
    uncapped.call("outline", outlineArgs),
  );

  // One file changed from outside: re-indexing it alone, then the whole warm read around it.
  const index = symbolIndexFor(indexContext)!;
  const changed = rels[777]!;
  const file = join(root, changed);
  const code = {
    file: {
      input: changed,
      abs: file,
      real: file,
      rel: changed,
      display: changed,
      exists: true,
      link: false,
    },
    language: languageOf(changed)!,
    explicit: false,
  };
  const reindex = await measure({ warmup: 1, runs: 5 }, (i) => {
    writeFileSync(file, `${moduleText(777)}\nexport function changed${i}(): void {}\n`);
    return index.lookup(indexContext, [code]);
  });
  const afterChange = await measure({ warmup: 0, runs: 3 }, (i) => {
    writeFileSync(file, `${moduleText(777)}\nexport function again${i}(): void {}\n`);
    return kit.call("read", symbol);
  });

  const { results } = (await kit.call("read", symbol)) as { results: ReadResult[] };
  const outlined = (await kit.call("outline", outlineArgs)) as OutlineResult;
  const row = (
    name: string,
    value: number,
    base: number | undefined,
    target: string,
    ok: boolean,
  ) => [
    name,
    ms(value),
    base === undefined ? "" : ms(base),
    base === undefined ? "" : `${fixed(value / base, 2)}x`,
    `${target}: ${ok ? "ok" : "over"}`,
  ];
  const rows = [
    row(
      "cold first lookup, new process (splice read --symbol)",
      coldProcess.median,
      todayProcess.median,
      "<= today's symbol scan",
      coldProcess.median <= todayProcess.median,
    ),
    row("cold first lookup, in this process (empty index)", cold, todaySymbol.median, "", true),
    row(
      "cold full build (walk + parse every file)",
      build,
      todayFull,
      "<= today's full parse",
      build <= todayFull,
    ),
    row(
      "warm read symbol over the folder",
      warmSymbol.median,
      todaySymbol.median,
      "<= 100 ms",
      warmSymbol.median <= 100,
    ),
    row(
      "warm folder outline (line cap)",
      warmOutline.median,
      todayOutline.median,
      "<= 100 ms",
      warmOutline.median <= 100,
    ),
    row("warm folder outline, every file (no line cap)", warmFull.median, todayFull, "", true),
    row("one changed file re-indexed", reindex.median, undefined, "<= 50 ms", reindex.median <= 50),
    row("warm read symbol after one change", afterChange.median, todaySymbol.median, "", true),
  ];
  console.log(
    formatTable(
      [
        { header: "symbol index (30,000 files)" },
        { header: "median ms", right: true },
        { header: "today ms", right: true },
        { header: "ratio", right: true },
        { header: "target" },
      ],
      rows,
    ),
  );
  const defs = results.reduce((n, r) => n + (r.definitions?.length ?? 0), 0);
  console.log(
    `Same answers: read symbol found ${defs} definition(s), outline showed ${outlined.files_outlined} of ${outlined.files_found} files. "today" is the same call with SPLICE_SYMBOL_INDEX=0 in this run (medians of 3; the full parse once). The new-process rows are medians of 3 runs of the command, each over an emptied index; the other cold rows run once, each after emptying the index and the walk cache (this process's code is warm, today's scan ran before); the full build's "today" is the uncapped outline, which parses every file too.`,
  );
}

defineBenchmark({
  name: "code-index",
  description:
    "the symbol index over 30,000 synthetic files: cold, warm, one change, vs today's scan",
  run: () => withScratchDir("splice-bench-index-", indexTable),
});
