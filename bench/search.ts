/**
 * splice search over a large tree against the bare rg binary on the same
 * query in the same run. The tree is generated (seeded): tens of thousands of
 * source-like files in nested folders, with a .gitignore'd folder and some
 * binary files, so both tools do the same filtering work.
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { rgPath } from "@vscode/ripgrep";
import { createToolkit } from "../src/toolkit/index.js";
import {
  defineBenchmark,
  environment,
  fixed,
  formatTable,
  measure,
  ms,
  Rng,
  withScratchDir,
} from "./lib.js";

const run = promisify(execFile);
const FILES = 30_000;
const WORDS = ["alpha", "beta", "gamma", "delta", "value", "result", "handler", "config", "index"];

function buildTree(root: string): number {
  const rng = new Rng(0x5ea7c4);
  let bytes = 0;
  writeFileSync(join(root, ".gitignore"), "ignored/\n");
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `pkg${i % 40}`, `mod${i % 25}`);
    mkdirSync(dir, { recursive: true });
    const lines: string[] = [];
    for (let l = 0; l < 40; l++) {
      const w = rng.pick(WORDS);
      lines.push(`export const ${w}${l} = compute("${rng.pick(WORDS)}", ${rng.int(0, 9999)});`);
    }
    if (i % 997 === 0) lines.push("// needle: the rare marker the benchmark looks for");
    const text = `${lines.join("\n")}\n`;
    writeFileSync(join(dir, `file${i}.ts`), text);
    bytes += text.length;
  }
  mkdirSync(join(root, "ignored"), { recursive: true });
  writeFileSync(join(root, "ignored", "skip.ts"), "needle: must not be found\n");
  writeFileSync(join(root, "blob.bin"), Buffer.from([0, 1, 2, 110, 101, 101, 100, 108, 101]));
  return bytes;
}

defineBenchmark({
  name: "search",
  description: "splice search vs bare ripgrep over a generated tree of 30,000 files",
  async run() {
    await withScratchDir("splice-bench-search-", async (root) => {
      const bytes = buildTree(root);
      console.log(environment(root));
      console.log(`tree: ${FILES.toLocaleString()} files, ${fixed(bytes / 1e6)} MB\n`);
      const kit = createToolkit({ root, history: { session: "bench" } });
      const queries: [string, string, string[]][] = [
        ["rare literal (31 hits)", "needle", ["--fixed-strings"]],
        ["regex, hits capped at 200", 'compute\\("delta", 9\\d\\d\\)', []],
      ];
      const rows: string[][] = [];
      for (const [label, pattern, flags] of queries) {
        const regex = flags.length === 0;
        const rgArgs = [
          "--json",
          "--no-config",
          ...flags,
          "--max-count",
          "200",
          "--",
          pattern,
          ".",
        ];
        const bare = await measure({ warmup: 2, runs: 10 }, () =>
          run(rgPath, rgArgs, { cwd: root, maxBuffer: 1 << 30 }),
        );
        const ours = await measure({ warmup: 2, runs: 10 }, () =>
          kit.call("search", { pattern, regex }),
        );
        const ratio = ours.median / bare.median;
        rows.push([label, "rg --json", ms(bare.median), ms(bare.p95), "", ""]);
        rows.push([
          label,
          "splice search",
          ms(ours.median),
          ms(ours.p95),
          `${fixed(ratio, 2)}x`,
          ratio <= 1.2 ? "ok" : "over",
        ]);
      }
      console.log(
        formatTable(
          [
            { header: "query" },
            { header: "engine" },
            { header: "median ms", right: true },
            { header: "p95 ms", right: true },
            { header: "splice/rg", right: true },
            { header: "target <= 1.2x" },
          ],
          rows,
        ),
      );
      console.log(`
Median and p95 over 10 runs after 2 warm-up runs. Bare rg prints JSON for every match
(--max-count 200 per file); splice search also parses rg's JSON, passes every hit through
the guard, groups and renders them, and stops rg once its result cap (200) is passed.`);
    });
  },
});
