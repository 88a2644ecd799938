/**
 * The engine benchmark: read+render, a one-line edit and a stale edit that
 * needs a 3-way merge, through the library API on files of 1 MB, 10 MB and
 * exactly 100,000 lines, next to a bare-fs baseline measured in the same run.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { createSplice, type Splice } from "../src/splice.js";
import {
  defineBenchmark,
  environment,
  fixed,
  formatTable,
  type MeasureOptions,
  measure,
  ms,
  Rng,
  runChild,
  type Stats,
  sendToParent,
  withScratchDir,
} from "./lib.js";

interface Corpus {
  name: string;
  /** Stop at this many bytes or lines, whichever is given. */
  bytes?: number;
  lines?: number;
  warmup: number;
  runs: number;
}

const CORPORA: Corpus[] = [
  { name: "1mb.ts", bytes: 1_000_000, warmup: 3, runs: 30 },
  { name: "100k-lines.ts", lines: 100_000, warmup: 2, runs: 15 },
  { name: "10mb.ts", bytes: 10_000_000, warmup: 2, runs: 10 },
];

/** Budgets from the issue, for 1 MB; larger files get the same budget per MB. */
const TARGET_MS_PER_MB: Record<string, number> = {
  "read+render": 20,
  edit: 30,
  "stale edit (merge)": 30,
};

const SEED = 0x5eed_2024;

// ---------------------------------------------------------------- corpus

const WORDS = `value index result config buffer node entry path count items options state
  cache token line range source target handler error`.split(/\s+/);
const TYPES = "string|number|boolean|Uint8Array|Map<string, number>|Entry[]".split("|");
const PROSE =
  `Returns the|first|matching|entry|or undefined|when|nothing|fits;|keeps|the order|stable
  |across calls.|naïve|café|größer|→|日本語|ok`.split(/\s*\|\s*/);

function name(rng: Rng, capital = false): string {
  const a = rng.pick(WORDS);
  const b = rng.pick(WORDS);
  const joined = a + b[0]!.toUpperCase() + b.slice(1);
  return capital ? joined[0]!.toUpperCase() + joined.slice(1) : joined;
}

function statement(rng: Rng, indent: string): string[] {
  switch (rng.int(0, 9)) {
    case 0:
      return [`${indent}const ${name(rng)} = ${name(rng)}.${rng.pick(WORDS)}(${rng.int(0, 999)});`];
    case 1:
      return [
        `${indent}if (${name(rng)} > ${rng.int(0, 64)}) {`,
        `${indent}  ${name(rng)} += ${rng.int(1, 9)};`,
        `${indent}}`,
      ];
    case 2:
      return [
        `${indent}// ${rng.pick(PROSE)} ${rng.pick(PROSE)} ${rng.pick(PROSE)} ${rng.pick(PROSE)}`,
      ];
    case 3:
      return [
        `${indent}${name(rng)}.push({ ${rng.pick(WORDS)}: "${rng.pick(PROSE)}", at: ${rng.int(0, 1e5)} });`,
      ];
    case 4:
      return [
        `${indent}for (const ${rng.pick(WORDS)} of ${name(rng)}) {`,
        `${indent}  yield* ${name(rng)}(${rng.pick(WORDS)});`,
        `${indent}}`,
      ];
    case 5:
      return [
        `${indent}throw new Error(\`${rng.pick(PROSE)} \${${name(rng)}} ${rng.pick(PROSE)}\`);`,
      ];
    case 6:
      return [
        `${indent}const ${name(rng)}: ${rng.pick(TYPES)} = await ${name(rng)}.${rng.pick(WORDS)}(${name(rng)}, { ${rng.pick(WORDS)}: true });`,
      ];
    case 7:
      return [
        `${indent}${rng.pick(WORDS)} = ${name(rng)}.filter((${rng.pick(WORDS)}) => ${rng.pick(WORDS)}.${rng.pick(WORDS)} !== undefined).map(${name(rng)});`,
      ];
    case 8:
      return [`${indent}return ${name(rng)}(${name(rng)}, ${rng.int(0, 99)}) ?? ${name(rng)};`];
    default:
      return [""];
  }
}

/** Endless TypeScript-like source: doc comments, functions, classes, blank lines. */
function* sourceLines(rng: Rng): Generator<string> {
  for (;;) {
    yield "";
    yield "/**";
    for (let i = rng.int(1, 3); i > 0; i--)
      yield ` * ${rng.pick(PROSE)} ${rng.pick(PROSE)} ${rng.pick(PROSE)}`;
    yield " */";
    if (rng.chance(0.3)) {
      yield `export class ${name(rng, true)} {`;
      for (let m = rng.int(1, 4); m > 0; m--) {
        yield `  ${name(rng)}(${rng.pick(WORDS)}: ${rng.pick(TYPES)}): ${rng.pick(TYPES)} {`;
        for (let s = rng.int(1, 6); s > 0; s--) yield* statement(rng, "    ");
        yield "  }";
      }
      yield "}";
    } else {
      yield `export function ${name(rng)}(${rng.pick(WORDS)}: ${rng.pick(TYPES)}): ${rng.pick(TYPES)} {`;
      for (let s = rng.int(2, 12); s > 0; s--) yield* statement(rng, "  ");
      yield `  return ${name(rng)};`;
      yield "}";
    }
  }
}

function generate(corpus: Corpus, seed: number): { text: string; lines: number } {
  const out: string[] = [];
  let bytes = 0;
  for (const line of sourceLines(new Rng(seed))) {
    if (corpus.lines !== undefined && out.length >= corpus.lines) break;
    if (corpus.bytes !== undefined && bytes >= corpus.bytes) break;
    out.push(line);
    bytes += Buffer.byteLength(line) + 1;
  }
  return { text: `${out.join("\n")}\n`, lines: out.length };
}

// ---------------------------------------------------------------- measurements

/**
 * Each corpus is measured in its own child process, watched by the parent: a
 * call that runs longer than this is killed and reported, not waited for.
 */
const CALL_TIMEOUT_MS = 30_000;
const CHILD_ENV = "SPLICE_BENCH_ENGINE_CORPUS";

interface Row {
  file: string;
  bytes: number;
  lines: number;
  operation: string;
  /** Absent when a call ran into CALL_TIMEOUT_MS. */
  stats?: Stats;
  /** The operation this row is compared with, by name. */
  baseline?: string;
}

type Message =
  | { kind: "file"; file: string; bytes: number; lines: number }
  | { kind: "call"; operation: string }
  | { kind: "row"; operation: string; stats: Stats; baseline?: string };

/** Parent side: runs one corpus in a child and collects its rows. */
async function measureCorpus(dir: string, index: number): Promise<Row[]> {
  const rows: Row[] = [];
  let file = { file: "", bytes: 0, lines: 0 };
  let running = "";
  const { timedOut } = await runChild(
    new URL(import.meta.url),
    { [CHILD_ENV]: JSON.stringify({ dir, index }) },
    CALL_TIMEOUT_MS,
    (message) => {
      const m = message as Message;
      if (m.kind === "file") file = { file: m.file, bytes: m.bytes, lines: m.lines };
      else if (m.kind === "call") running = m.operation;
      else rows.push({ ...file, operation: m.operation, stats: m.stats, baseline: m.baseline });
    },
  );
  if (timedOut) rows.push({ ...file, operation: running });
  return rows;
}

/** Child side: generates the corpus, measures every operation, sends a row for each. */
async function measureInChild(dir: string, corpus: Corpus, seed: number): Promise<void> {
  const root = join(dir, corpus.name.replace(/\.ts$/, ""));
  mkdirSync(root);
  const path = corpus.name;
  const file = join(root, path);
  const { text, lines } = generate(corpus, seed);
  writeFileSync(file, text);
  await sendToParent({ kind: "file", file: path, bytes: Buffer.byteLength(text), lines });
  const mid = Math.floor(lines / 2);
  const splice: Splice = createSplice({ root, history: { session: "bench" } });

  /** Measures one operation with a heartbeat per call, then reports its row. */
  const op = async (
    operation: string,
    fn: (i: number) => unknown,
    hooks: Pick<MeasureOptions, "before" | "after"> = {},
    baseline?: string,
  ) => {
    const stats = await measure(
      {
        warmup: corpus.warmup,
        runs: corpus.runs,
        after: hooks.after,
        before: async (i) => {
          await sendToParent({ kind: "call", operation });
          await hooks.before?.(i);
        },
      },
      fn,
    );
    await sendToParent({ kind: "row", operation, stats, baseline });
  };

  const decoder = new TextDecoder("utf-8", { fatal: true });
  await op(BASE_READ, () => decoder.decode(readFileSync(file)).split("\n").length);

  let tag = "";
  const readOnce = async (target: string) => {
    const [result] = (await splice.read({ targets: [{ path: target }] })).results;
    if (!result?.file_hash || result.error)
      throw new Error(`read failed: ${result?.error?.message}`);
    if (result.total_lines !== lines)
      throw new Error(`read saw ${result.total_lines} lines, not ${lines}`);
    tag = result.file_hash;
  };
  // First sight: every call reads a file this process has never seen, so
  // nothing decoded earlier can be reused. This is the row the target is for.
  const fresh = (i: number) => `fresh-${i}-${path}`;
  await op(
    "read+render",
    (i) => readOnce(fresh(i)),
    { before: (i) => writeFileSync(join(root, fresh(i)), text) },
    BASE_READ,
  );
  // The same bytes again (a model re-reading a file): the decoded version is reused.
  await op("read+render (unchanged)", () => readOnce(path), {}, BASE_READ);

  const editOnce = async (line: number, i: number) => {
    const ops = `replace ${line}:\n+${edited(i)}`;
    const [result] = (await splice.edit({ targets: [{ path, file_hash: tag, ops }] })).results;
    if (!result?.changed) throw new Error("the edit changed nothing");
    tag = result.file_hash;
  };

  const scratch = join(root, "baseline.out");
  const bytes = readFileSync(file);
  await op(BASE_WRITE, () => writeFileSync(scratch, bytes));
  await op(BASE_FSYNC, () => {
    const fd = openSync(scratch, "w");
    writeSync(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
  });

  // Each edit goes against the tag the previous one returned.
  await op(
    "edit",
    (i) => editOnce(mid, i),
    { after: (i) => checkLine(file, mid, edited(i)) },
    BASE_WRITE,
  );

  // Change line 10 behind splice's back, then edit line mid-10 with the tag
  // from before: splice must merge the two. The next round uses the fresh tag.
  const theirs = (i: number) => `// changed outside splice, round ${i}`;
  await op(
    "stale edit (merge)",
    (i) => editOnce(mid - 10, i),
    {
      before: (i) => {
        const current = readFileSync(file, "utf8").split("\n");
        current[9] = theirs(i);
        writeFileSync(file, current.join("\n"));
      },
      after: (i) => {
        checkLine(file, 10, theirs(i));
        checkLine(file, mid - 10, edited(i));
      },
    },
    BASE_WRITE,
  );
}

const BASE_READ = "baseline: readFileSync+decode+split";
const BASE_WRITE = "baseline: writeFileSync";
const BASE_FSYNC = "baseline: writeFileSync+fsync";

function edited(i: number): string {
  return `  const benchEdit = ${i}; // edited by the benchmark`;
}

function checkLine(file: string, n: number, expected: string): void {
  const actual = readFileSync(file, "utf8").split("\n")[n - 1];
  if (actual !== expected) {
    throw new Error(
      `line ${n} of ${file} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`,
    );
  }
}

// ---------------------------------------------------------------- report

function report(rows: Row[]): void {
  const timeout = `> ${CALL_TIMEOUT_MS / 1000} s`;
  const table = rows.map((r) => {
    const mb = r.bytes / 1e6;
    const base = rows.find((b) => b.file === r.file && b.operation === r.baseline)?.stats;
    const perMb = TARGET_MS_PER_MB[r.operation];
    const target = perMb === undefined ? undefined : perMb * Math.max(1, mb);
    const median = r.stats?.median ?? Number.POSITIVE_INFINITY;
    return [
      r.file,
      fixed(mb, 2),
      r.lines.toLocaleString("en-US"),
      r.operation,
      r.stats ? ms(r.stats.median) : timeout,
      r.stats ? ms(r.stats.p95) : "",
      r.stats ? fixed(mb / (r.stats.median / 1000), 0) : "",
      base && r.stats ? `${fixed(r.stats.median / base.median)}x` : "",
      target === undefined ? "" : `< ${ms(target)}`,
      target === undefined ? "" : median <= target ? "ok" : r.stats ? "over" : "over (timed out)",
    ];
  });
  console.log(
    formatTable(
      [
        { header: "file" },
        { header: "size MB", right: true },
        { header: "lines", right: true },
        { header: "operation" },
        { header: "median ms", right: true },
        { header: "p95 ms", right: true },
        { header: "MB/s", right: true },
        { header: "x baseline", right: true },
        { header: "target ms", right: true },
        { header: "status" },
      ],
      table,
    ),
  );

  const small = rows.filter((r) => r.file === "1mb.ts");
  const large = rows.filter((r) => r.file === "10mb.ts");
  const scaling = small.map((s) => {
    const l = large.find((r) => r.operation === s.operation);
    const ratio = s.stats && l?.stats ? l.stats.median / s.stats.median : undefined;
    const sizeRatio = l ? l.bytes / s.bytes : undefined;
    return [
      s.operation,
      s.stats ? ms(s.stats.median) : timeout,
      l?.stats ? ms(l.stats.median) : l ? timeout : "not run",
      ratio === undefined ? "n/a" : fixed(ratio),
      sizeRatio === undefined ? "" : fixed(sizeRatio),
      ratio === undefined || sizeRatio === undefined
        ? "unknown"
        : ratio <= 2 * sizeRatio
          ? "linear"
          : "SUPERLINEAR",
    ];
  });
  console.log("\nScaling, 10 MB vs 1 MB (linear cost gives a ratio near the size ratio, ~10):\n");
  console.log(
    formatTable(
      [
        { header: "operation" },
        { header: "1 MB ms", right: true },
        { header: "10 MB ms", right: true },
        { header: "ratio", right: true },
        { header: "size ratio", right: true },
        { header: "verdict" },
      ],
      scaling,
    ),
  );
  console.log(`
Medians and nearest-rank p95 over ${CORPORA.map((c) => `${c.runs} (${c.name})`).join(", ")} runs
after warm-up. A call that takes over ${CALL_TIMEOUT_MS / 1000} s is killed and shown as "${timeout}".
Targets from the issue: read+render of 1 MB < 20 ms (a file the process has never read);
edit < 30 ms end to end (the stale edit is held to the edit target too, though it must also
store the outside version durably). Larger files get the same budget per MB; baselines have
none. "read+render (unchanged)" re-reads bytes already decoded, which splice reuses.
"x baseline" divides by the bare-fs row: read+decode+split for reads, writeFileSync of the
same bytes (no fsync, no history) for edits; the write+fsync row shows what durability alone
costs (an edit fsyncs the file, the history blob and the journal). Scaling says "linear"
while the ratio stays under twice the size ratio.`);
}

export const engine = defineBenchmark({
  name: "engine",
  description: "read+render, edit and stale-edit merge on 1 MB, 100k-line and 10 MB files",
  async run() {
    await withScratchDir("splice-bench-", async (dir) => {
      console.log(environment(dir));
      const rows: Row[] = [];
      for (const [i, corpus] of CORPORA.entries()) {
        const started = performance.now();
        rows.push(...(await measureCorpus(dir, i)));
        const took = ((performance.now() - started) / 1000).toFixed(1);
        console.log(`  measured ${corpus.name} (${took} s)`);
      }
      console.log();
      report(rows);
    });
  },
});

const childTask = process.env[CHILD_ENV];
if (childTask) {
  const { dir, index } = JSON.parse(childTask) as { dir: string; index: number };
  await measureInChild(dir, CORPORA[index]!, SEED + index);
  process.disconnect();
}
