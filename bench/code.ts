/**
 * The syntax layer on a large real codebase: this project's own installed
 * packages (node_modules: the TypeScript and JavaScript of the SDKs, zod,
 * vitest, hono, …), copied into a scratch folder so both tools see exactly
 * the same files. Times a folder-wide symbol search, a folder outline and an
 * ast_edit preview, and runs the ast-grep CLI on the same pattern over the
 * same files in the same run.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { CodeEditResult } from "../src/codebase/code-edit.js";
import { createToolkit } from "../src/toolkit/index.js";
import type { OutlineResult } from "../src/tools/outline/index.js";
import type { ReadResult } from "../src/tools/read/index.js";
import { SKIPPED_FOLDERS } from "../src/workspace/walk.js";
import { indexTable } from "./code-index.js";
import {
  defineBenchmark,
  environment,
  fixed,
  formatTable,
  measure,
  ms,
  type Stats,
  summarize,
  withScratchDir,
} from "./lib.js";

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));
const SOURCE = join(HERE, "..", "node_modules");
const AST_GREP = join(HERE, "..", "node_modules", ".bin", "ast-grep");
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
/** Larger files are bundles: one of them would dominate every figure. */
const MAX_FILE_BYTES = 1_000_000;
const MAX_FILES = 8_000;

interface Corpus {
  files: number;
  bytes: number;
}

/** Copies the code files of the package tree (no nested node_modules, no hidden names). */
function buildCorpus(into: string): Corpus {
  let files = 0;
  let bytes = 0;
  const visit = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of entries) {
      if (files >= MAX_FILES) return;
      if (name.startsWith(".") || SKIPPED_FOLDERS.has(name)) continue;
      const path = join(dir, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) visit(path);
      else if (stat.isFile() && CODE.test(name) && stat.size <= MAX_FILE_BYTES) {
        const target = join(into, relative(SOURCE, path));
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(path, target);
        files++;
        bytes += stat.size;
      }
    }
  };
  for (const name of readdirSync(SOURCE).sort()) {
    if (!name.startsWith(".")) visit(join(SOURCE, name));
  }
  return { files, bytes };
}

/** The number of matches the ast-grep CLI finds (its JSON output, one object per match). */
async function cliMatches(
  root: string,
  pattern: string,
): Promise<{ matches: number; files: number }> {
  const { stdout } = await run(AST_GREP, ["run", "-p", pattern, "--json=stream", "."], {
    cwd: root,
    maxBuffer: 1 << 30,
  });
  const lines = stdout.split("\n").filter(Boolean);
  const files = new Set(lines.map((l) => (JSON.parse(l) as { file: string }).file));
  return { matches: lines.length, files: files.size };
}

/** The CPU time (user + system, all threads) of one CLI run, via /usr/bin/time when there is one. */
async function cliCpu(root: string, pat: string, out: string): Promise<string | undefined> {
  try {
    const { stderr } = await run(
      "/usr/bin/time",
      ["-f", "%U %S", AST_GREP, "run", "-p", pat, "-r", out, "."],
      { cwd: root, maxBuffer: 1 << 30 },
    );
    const [user, system] = stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
    return ms(((user ?? 0) + (system ?? 0)) * 1000);
  } catch {
    return undefined;
  }
}

/** Like measure, and also the median CPU time (user + system) this process spent per call. */
async function measureCpu(
  options: { warmup: number; runs: number },
  fn: () => Promise<unknown>,
): Promise<Stats & { cpu: number }> {
  const cpu: number[] = [];
  let mark = process.cpuUsage();
  const stats = await measure(
    {
      ...options,
      before: () => {
        mark = process.cpuUsage();
      },
      after: (i) => {
        const used = process.cpuUsage(mark);
        if (i >= options.warmup) cpu.push((used.user + used.system) / 1000);
      },
    },
    fn,
  );
  return { ...stats, cpu: summarize(cpu).median };
}

defineBenchmark({
  name: "code",
  description:
    "symbol search, folder outline and ast_edit preview over node_modules, vs the ast-grep CLI",
  async run() {
    await withScratchDir("splice-bench-code-", async (root) => {
      const corpus = buildCorpus(root);
      console.log(environment(root));
      console.log(
        `corpus: ${corpus.files.toLocaleString("en-US")} .ts/.js files (each <= 1 MB) from node_modules, ${fixed(corpus.bytes / 1e6)} MB`,
      );
      const kit = createToolkit({ root, history: { session: "bench" } });
      const rows: string[][] = [];
      const perSecond = (files: number, millis: number) =>
        Math.round(files / (millis / 1000)).toLocaleString("en-US");

      // Symbol search: a rare definition and a common name.
      for (const symbol of ["StdioServerTransport", "McpServer.connect", "parse"]) {
        const stats = await measureCpu({ warmup: 1, runs: 3 }, () =>
          kit.call("read", { targets: [{ path: ".", symbol }] }),
        );
        const { results } = (await kit.call("read", { targets: [{ path: ".", symbol }] })) as {
          results: ReadResult[];
        };
        const found = results.reduce((n, r) => n + (r.definitions?.length ?? 0), 0);
        rows.push([
          `read symbol "${symbol}" (${found} defs)`,
          corpus.files.toLocaleString("en-US"),
          ms(stats.median),
          ms(stats.p95),
          ms(stats.cpu),
          perSecond(corpus.files, stats.median),
          "",
          stats.median < 3000 ? "< 3 s: ok" : "< 3 s: over",
        ]);
      }

      // Folder outline of every file: no line cap, so every file is parsed and outlined.
      const uncapped = createToolkit({ root, history: { session: "bench" }, max_lines: 1e9 });
      const outlineArgs = { path: ".", max_files: 100_000 };
      const outline = await measureCpu({ warmup: 0, runs: 2 }, () =>
        uncapped.call("outline", outlineArgs),
      );
      const outlined = (await uncapped.call("outline", outlineArgs)) as OutlineResult;
      rows.push([
        `outline "." (${outlined.files_outlined.toLocaleString("en-US")} with definitions)`,
        outlined.files_found.toLocaleString("en-US"),
        ms(outline.median),
        ms(outline.p95),
        ms(outline.cpu),
        perSecond(outlined.files_found, outline.median),
        "",
        "",
      ]);

      // ast_edit preview against the ast-grep CLI (which prints the same diffs).
      const checks: string[] = [];
      for (const [pat, out] of [
        ["console.log($$$A)", "logger.info($$$A)"],
        ["JSON.stringify($A, null, 2)", "pretty($A)"],
      ] as const) {
        const cli = await measure({ warmup: 1, runs: 3 }, () =>
          run(AST_GREP, ["run", "-p", pat, "-r", out, "."], { cwd: root, maxBuffer: 1 << 30 }),
        );
        const ours = await measureCpu({ warmup: 1, runs: 3 }, () =>
          kit.call("ast_edit", {
            ops: [{ pat, out }],
            paths: ["."],
            max_files: 100_000,
            mode: "preview",
          }),
        );
        const result = (await kit.call("ast_edit", {
          ops: [{ pat, out }],
          paths: ["."],
          max_files: 100_000,
          mode: "preview",
        })) as CodeEditResult;
        const theirs = await cliMatches(root, pat);
        checks.push(
          `${pat}: splice ${result.matches} matches in ${result.files_matched} files; ast-grep CLI ${theirs.matches} matches in ${theirs.files} files`,
        );
        const ratio = ours.median / cli.median;
        rows.push([
          `ast-grep CLI run -p '${pat}' -r …`,
          corpus.files.toLocaleString("en-US"),
          ms(cli.median),
          ms(cli.p95),
          (await cliCpu(root, pat, out)) ?? "",
          perSecond(corpus.files, cli.median),
          "",
          "",
        ]);
        rows.push([
          `ast_edit preview '${pat}'`,
          result.files_scanned.toLocaleString("en-US"),
          ms(ours.median),
          ms(ours.p95),
          ms(ours.cpu),
          perSecond(result.files_scanned, ours.median),
          `${fixed(ratio, 2)}x`,
          ratio <= 1.5 ? "<= 1.5x CLI: ok" : "<= 1.5x CLI: over",
        ]);
      }

      console.log(
        `\n${formatTable(
          [
            { header: "operation" },
            { header: "files", right: true },
            { header: "median ms", right: true },
            { header: "p95 ms", right: true },
            { header: "cpu ms", right: true },
            { header: "files/s", right: true },
            { header: "splice/CLI", right: true },
            { header: "target" },
          ],
          rows,
        )}`,
      );
      console.log(`\nSame matches? ${checks.join("; ")}.`);
      console.log(`
Medians over 3 runs (symbol search), 2 (outline) and 3 (rewrite preview), after one warm-up
run (none for the outline); cpu ms is the CPU time of the call (the CLI's: one run, all
threads), which a busy machine inflates less than wall time. The ast-grep CLI uses all
${cpus().length} cores and prints a diff per match; splice parses on libuv's thread pool (its cpu ms
count every thread too), and parses only the files ripgrep finds holding a literal word of the
pattern (symbol search: the name, as a whole word; it stops after 51 definitions). Outline
parses every file.`);
    });
    await withScratchDir("splice-bench-index-", indexTable);
  },
});
