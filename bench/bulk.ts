/**
 * Bulk changes (issue 19): `ast_edit` with mode apply over 120 TypeScript test
 * files beside `ast-grep --update-all` on the same files, the change's one
 * validation pass (tsgo, warm), undo of a 100-file session, and patch calls over
 * a warm MCP server (`splice serve` on stdio) beside `git apply` on this
 * repository's recent commits. Every row is measured in each durability mode
 * (the default, SPLICE_DURABLE=full and SPLICE_DURABLE=0), in the same run.
 * Each ast_edit run changes versions new to history, as a real change does;
 * ast-grep and ast_edit run in turn, each on a project planted afresh and
 * synced to disk first.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createToolkit } from "../src/toolkit/index.js";
import type { Durability } from "../src/util/durable.js";
import { BULK_FILES, plantBulkProject } from "./bulk-fixture.js";
import {
  defineBenchmark,
  formatTable,
  measure,
  measureInTurn,
  ms,
  type Stats,
  withScratchDir,
} from "./lib.js";

const HERE = import.meta.dirname;
const AST_GREP = join(HERE, "..", "node_modules", ".bin", "ast-grep");
const TSX = join(HERE, "..", "node_modules", "tsx", "dist", "esm", "index.mjs");
const MAIN = join(HERE, "..", "src", "cli", "main.ts");
const OPS = [{ pat: "expect($A).toBe($B)", out: "expect($A).toStrictEqual($B)" }];
const RUNS = 5;
const COMMITS = 40;

type Row = string[];
const row = (what: string, mode: string, s: Stats, base?: Stats, note = ""): Row => [
  what,
  mode,
  ms(s.median),
  ms(s.p95),
  base ? `${(s.median / base.median).toFixed(2)}×` : "",
  note,
];

/** The durability modes, each with the SPLICE_DURABLE value that selects it. */
const MODES: { durable: Durability; env?: string; label: string }[] = [
  { durable: "relaxed", label: "default" },
  { durable: "full", env: "full", label: "SPLICE_DURABLE=full" },
  { durable: "none", env: "0", label: "SPLICE_DURABLE=0" },
];

async function astRows(dir: string, durable: Durability, mode: string): Promise<Row[]> {
  const root = join(dir, `ast-${durable}`);
  let version = 0;
  const plantNew = () => plantBulkProject(root, undefined, ++version);
  plantNew();
  const kit = createToolkit({ root, history: { session: "bench" }, durable });
  let session = "";
  // A project's files are on disk long before a change to them. Just planted, they are not yet:
  // the first fsync of a run would write them out too (ext4 orders data before its journal),
  // which only the tool that fsyncs pays.
  const plantSettled = () => {
    plantNew();
    execFileSync("sync");
  };
  const [theirs, ours] = await measureInTurn(
    { warmup: 1, runs: RUNS, before: plantSettled },
    () =>
      execFileSync(AST_GREP, ["run", "-p", OPS[0]!.pat, "-r", OPS[0]!.out, "-U", "test"], {
        cwd: root,
      }),
    () => kit.call("ast_edit", { ops: OPS, paths: ["test"], validate: false }),
  );
  const undo = await measure(
    {
      warmup: 1,
      runs: RUNS,
      before: async () => {
        const paths = plantNew().slice(0, 100);
        const r = (await kit.call("ast_edit", { ops: OPS, paths, validate: false })) as {
          backup_session: string;
        };
        session = r.backup_session;
      },
    },
    () => kit.call("undo", { backup_session: session }),
  );
  // The validation pass, warm: the first call starts tsgo, the next ones are timed.
  const passes: number[] = [];
  let timedOut = 0;
  for (let i = 0; i < 3; i++) {
    plantNew();
    const r = (await kit.call("ast_edit", { ops: OPS, paths: ["test"] })) as {
      validation?: { ms: number; timed_out: boolean; files: number };
    };
    if (i > 0 && r.validation) passes.push(r.validation.ms);
    if (r.validation?.timed_out) timedOut++;
  }
  const pass = passes.length > 0 ? passes.sort((a, b) => a - b)[passes.length >> 1]! : Number.NaN;
  // Its language server and watch stop here: left running, they took CPU from the next mode's rows.
  await kit.close();
  return [
    row(`ast-grep -U, ${BULK_FILES} files`, mode, theirs),
    row(`ast_edit apply, ${BULK_FILES} files, validate false`, mode, ours, theirs, "target ≤ 2×"),
    [
      `validation pass, ${BULK_FILES} files (tsgo, warm)`,
      mode,
      ms(pass),
      "",
      "",
      `target ≤ 5,000 ms; ${timedOut} timed out`,
    ],
    row("undo of a 100-file session", mode, undo, undefined, "target ≤ 2,000 ms"),
  ];
}

interface Diff {
  sha: string;
  diff: string;
  before: Map<string, Buffer>;
}

/** Recent commits of this repository that only modify existing files (no adds, deletes, renames). */
function recentDiffs(repo: string): Diff[] {
  const git = (args: string[]) =>
    execFileSync("git", ["-C", repo, ...args], { maxBuffer: 1 << 28 });
  const shas = git(["log", "--no-merges", "--format=%H", "-n", String(COMMITS * 3)])
    .toString()
    .trim()
    .split("\n");
  const out: Diff[] = [];
  for (const sha of shas) {
    if (out.length >= COMMITS) break;
    const status = git(["diff", "--name-status", "--no-renames", `${sha}^`, sha])
      .toString()
      .trim();
    const lines = status.split("\n");
    if (lines.length > 30 || lines.some((l) => !l.startsWith("M\t"))) continue;
    const paths = lines.map((l) => l.slice(2));
    const diff = git(["diff", "--no-color", "--no-ext-diff", `${sha}^`, sha]).toString();
    if (diff.includes("Binary files")) continue;
    const before = new Map(paths.map((p) => [p, git(["show", `${sha}^:${p}`])]));
    out.push({ sha, diff, before });
  }
  return out;
}

function plant(root: string, files: Map<string, Buffer>): void {
  for (const [path, bytes] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
}

async function patchRows(
  dir: string,
  { durable, env: durableEnv, label: mode }: (typeof MODES)[number],
  diffs: Diff[],
): Promise<Row[]> {
  const root = join(dir, `patch-${durable}`);
  const gitRoot = join(dir, `git-${durable}`);
  mkdirSync(root, { recursive: true });
  const client = new Client({ name: "bench-bulk", version: "1.0.0" });
  const env: Record<string, string> = durableEnv ? { SPLICE_DURABLE: durableEnv } : {};
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["--import", TSX, MAIN, "serve", "--root", root],
      stderr: "ignore",
      env: { ...getDefaultEnvironment(), ...env },
    }),
  );
  const call = async (args: object) => {
    const r = (await client.callTool({
      name: "patch",
      arguments: args as Record<string, unknown>,
    })) as CallToolResult;
    if (r.isError) throw new Error(`patch failed: ${JSON.stringify(r.content).slice(0, 300)}`);
    return r;
  };
  const n = diffs.length;
  const ours = await measure(
    { warmup: 1, runs: n, before: (i) => plant(root, diffs[i % n]!.before) },
    (i) => call({ patch: diffs[i % n]!.diff, validate: false }),
  );
  const validated = await measure(
    { warmup: 1, runs: n, before: (i) => plant(root, diffs[i % n]!.before) },
    (i) => call({ patch: diffs[i % n]!.diff }),
  );
  await client.close();
  const theirs = await measure(
    {
      warmup: 1,
      runs: n,
      before: (i) => {
        rmSync(gitRoot, { recursive: true, force: true });
        plant(gitRoot, diffs[i % n]!.before);
        writeFileSync(join(dir, "commit.diff"), diffs[i % n]!.diff);
      },
    },
    () => {
      const r = spawnSync("git", ["apply", "--whitespace=nowarn", join(dir, "commit.diff")], {
        cwd: gitRoot,
        env: { ...process.env, GIT_CEILING_DIRECTORIES: dir },
      });
      if (r.status !== 0) throw new Error(`git apply failed: ${r.stderr}`);
    },
  );
  return [
    row(`git apply, ${n} real diffs, per call`, mode, theirs),
    row("patch over warm MCP, validate false", mode, ours, theirs, "target ≤ 2×"),
    row(
      "patch over warm MCP, validated (default)",
      mode,
      validated,
      theirs,
      "validation's own figure",
    ),
  ];
}

defineBenchmark({
  name: "bulk",
  description:
    "bulk changes: ast_edit over 120 files vs ast-grep -U, the validation pass, undo of 100 files, patch over MCP vs git apply",
  async run() {
    const diffs = recentDiffs(resolve(HERE, ".."));
    const rows: Row[] = [];
    await withScratchDir("splice-bench-bulk-", async (dir) => {
      for (const mode of MODES) {
        rows.push(...(await astRows(dir, mode.durable, mode.label)));
        rows.push(...(await patchRows(dir, mode, diffs)));
      }
    });
    console.log(
      formatTable(
        [
          { header: "operation" },
          { header: "durability" },
          { header: "median ms", right: true },
          { header: "p95 ms", right: true },
          { header: "× baseline", right: true },
          { header: "note" },
        ],
        rows,
      ),
    );
  },
});
