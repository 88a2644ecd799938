/**
 * The engine's benchmark (#36): what a `splice` command costs from a shell
 * once the engine holds its root warm. Every figure is the median of fresh
 * `bin/splice` processes, beside a baseline taken in the same run:
 *
 * 1. an edit with its type verdict in a Python and a TypeScript project
 *    (warm-edit.ts), against `--no-engine --validate`;
 * 2. search, read, list and outline on a copy of src/, against `node -e 0`
 *    (and search against `node -e 0` + `rg`), with the `--no-engine` figure
 *    and the part the engine itself takes (spoken to over its socket);
 * 3. `splice ast --rewrite --apply` over 100 JavaScript files against
 *    `ast-grep -U` on an identical copy;
 * 4. a symbol read in a folder of node_modules, warm against first;
 * 5. `splice run true` on 100,000 committed files (the root watch running)
 *    against `git status --porcelain` (warm-big.ts; WARM_100K=0 skips it);
 * 6. the engine's memory and its language servers'.
 *
 * Targets are printed PASS/FAIL, never asserted.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { defineBenchmark, environment, formatTable, ms, withScratchDir } from "./lib.js";
import { BIG_FILES, bigRow } from "./warm-big.js";
import { editRow } from "./warm-edit.js";
import {
  CALLS_PER_FILE,
  copySource,
  gitInit,
  JS_FILES,
  javascriptFiles,
  LOG_CALL,
  LOG_CALL_OUT,
  sdkProject,
} from "./warm-fixtures.js";
import {
  AST_GREP,
  BenchEngine,
  type Line,
  mark,
  mb,
  print,
  processTree,
  RG,
  type Sampler,
  sampleInTurn,
  type Target,
  throughSocket,
  timed,
  withinMs,
  withinRatio,
} from "./warm-lib.js";

const ROOT_RUNS = 8;
const AST_RUNS = 6;
const SYMBOL_RUNS = 8;

const node: Sampler = () => timed(process.execPath, ["-e", "0"], process.cwd(), process.env).ms;

const heading = (text: string) => console.log(`\n--- ${text}\n`);

// ---------------------------------------------------------------- 2. a warm root

const PATTERN = "reachEngine";
const FILE = "src/engine/client.ts";
const COMMANDS: Record<string, string[]> = {
  search: ["search", PATTERN],
  read: ["read", FILE],
  list: ["list", "src"],
  outline: ["outline", FILE],
};

async function rootRow(engine: BenchEngine, scratch: string): Promise<Target[]> {
  const dir = join(scratch, "src-copy");
  const files = copySource(dir);
  engine.splice(["list"], dir); // opens the root in the engine
  const socket = engine.status()!.socket;
  const samplers: Record<string, Sampler> = {
    node,
    rg: () => timed(RG, [PATTERN], dir, engine.env).ms,
    roundTrip: async () => (await throughSocket(socket, ["--version"], dir, engine.env)).total,
  };
  for (const [name, args] of Object.entries(COMMANDS)) {
    samplers[name] = () => engine.splice(args, dir).ms;
    samplers[`${name}:socket`] = async () =>
      (await throughSocket(socket, args, dir, engine.env)).total;
    samplers[`${name}:no-engine`] = () => engine.splice([...args, "--no-engine"], dir).ms;
  }
  const s = await sampleInTurn(2, ROOT_RUNS, samplers);
  const floor = s.node!.median;
  const searchFloor = floor + s.rg!.median;
  const targets: Target[] = [];
  const lines: Line[] = [
    { what: "node -e 0 (baseline)", stats: s.node! },
    { what: `rg ${PATTERN}`, stats: s.rg! },
    { what: "the engine's round trip, no work (--version over its socket)", stats: s.roundTrip! },
  ];
  for (const [name, args] of Object.entries(COMMANDS)) {
    const base = name === "search" ? searchFloor : floor;
    const t = withinRatio(`${name} on a warm root`, s[name]!.median, base, 1.5);
    targets.push(t);
    lines.push(
      {
        what: `splice ${args.join(" ")}`,
        stats: s[name]!,
        base,
        target: `<= 1.5x: ${mark(t.pass)}`,
      },
      { what: "  of which the engine (socket, no client process)", stats: s[`${name}:socket`]! },
      { what: "  --no-engine", stats: s[`${name}:no-engine`]!, base },
    );
  }
  print(lines);
  console.log(
    `\nA copy of src/ (${files} files and folders, committed). ${ROOT_RUNS} rounds after 2 untimed, every
command once a round in turn. "vs baseline" is against node -e 0, and for search against
node -e 0 + rg (${ms(searchFloor)} ms). The socket rows speak to the engine from the benchmark's
process, as the client does, so fresh process minus socket is what the client process costs.`,
  );
  return targets;
}

// ---------------------------------------------------------------- 3. ast rewrite

async function astRow(engine: BenchEngine, scratch: string): Promise<Target[]> {
  const names = ["ast-splice", "ast-socket", "ast-no-engine", "ast-grep"];
  const dirs = names.map((name) => join(scratch, name));
  for (const dir of dirs) {
    javascriptFiles(dir);
    gitInit(dir, true);
  }
  const [root, viaSocket, solo, copy] = dirs as [string, string, string, string];
  // Even runs rewrite console.log to logger.info, odd runs back: each run starts from the same files.
  const turn = (i: number) => (i % 2 === 0 ? [LOG_CALL, LOG_CALL_OUT] : [LOG_CALL_OUT, LOG_CALL]);
  const matches = (JS_FILES * CALLS_PER_FILE).toLocaleString("en");
  const astArgs = (i: number, ...extra: string[]) => {
    const [pattern, rewrite] = turn(i);
    return ["ast", pattern!, "--rewrite", rewrite!, "lib", "--apply", ...extra];
  };
  const spliceAst = (dir: string, extra: string[]) => (i: number) => {
    const ran = engine.splice(astArgs(i, ...extra), dir);
    if (!ran.stdout.includes(`${matches} matches in ${JS_FILES} files`)) {
      throw new Error(`splice ast did not rewrite every call: ${ran.stdout.slice(-300)}`);
    }
    return ran.ms;
  };
  const socket = engine.status()!.socket;
  const s = await sampleInTurn(2, AST_RUNS, {
    astGrep: (i) => {
      const [pattern, rewrite] = turn(i);
      const ran = timed(
        AST_GREP,
        ["run", "-p", pattern!, "-r", rewrite!, "-U", "lib"],
        copy,
        engine.env,
      );
      if (!`${ran.stdout}${ran.stderr}`.includes(`Applied ${JS_FILES * CALLS_PER_FILE} changes`)) {
        throw new Error(`ast-grep did not rewrite every call: ${ran.stdout}${ran.stderr}`);
      }
      return ran.ms;
    },
    splice: spliceAst(root, []),
    socket: async (i) => (await throughSocket(socket, astArgs(i), viaSocket, engine.env)).total,
    noEngine: spliceAst(solo, ["--no-engine"]),
  });
  const t = withinRatio(
    "ast --rewrite --apply, 100 JS files",
    s.splice.median,
    s.astGrep.median,
    3,
  );
  print([
    { what: "ast-grep run -p P -r R -U lib (baseline)", stats: s.astGrep },
    {
      what: "splice ast P --rewrite R lib --apply",
      stats: s.splice,
      base: s.astGrep.median,
      target: `<= 3x: ${mark(t.pass)}`,
    },
    { what: "  of which the engine (socket, no client process)", stats: s.socket },
    { what: "  --no-engine", stats: s.noEngine, base: s.astGrep.median },
  ]);
  console.log(
    `\n${JS_FILES} JavaScript files with ${CALLS_PER_FILE} console.log calls each, four identical committed
copies; P=${LOG_CALL} R=${LOG_CALL_OUT}, and back on every other run (so each run
rewrites ${matches} calls from the same files). splice prints every file's diff; ast-grep -U prints a count.`,
  );
  return [t];
}

// ---------------------------------------------------------------- 4. a folder symbol read

async function symbolRow(engine: BenchEngine, scratch: string): Promise<Target[]> {
  const dir = join(scratch, "sdk");
  sdkProject(dir);
  const args = [
    "read",
    "node_modules/@modelcontextprotocol/sdk",
    "--symbol",
    "StdioServerTransport",
  ];
  const check = (out: string) => {
    if (!out.includes("class StdioServerTransport"))
      throw new Error(`no symbol read: ${out.slice(0, 300)}`);
  };
  const first = engine.splice(args, dir);
  check(first.stdout);
  const socket = engine.status()!.socket;
  const s = await sampleInTurn(1, SYMBOL_RUNS, {
    warm: () => {
      const ran = engine.splice(args, dir);
      check(ran.stdout);
      return ran.ms;
    },
    socket: async () => (await throughSocket(socket, args, dir, engine.env)).total,
    noEngine: () => engine.splice([...args, "--no-engine"], dir).ms,
  });
  const t = withinMs("folder symbol read, warm", s.warm.median, 400, "<= 400 ms");
  const once = { runs: 1, median: first.ms, p95: first.ms, min: first.ms };
  print([
    { what: "first call in the root (baseline; the engine up)", stats: once },
    {
      what: `splice ${args.join(" ")}, warm`,
      stats: s.warm,
      base: first.ms,
      target: `<= 400 ms: ${mark(t.pass)}`,
    },
    { what: "  of which the engine (socket, no client process)", stats: s.socket },
    { what: "  --no-engine", stats: s.noEngine, base: first.ms },
  ]);
  console.log(
    "\nA project with a copy of @modelcontextprotocol/sdk in node_modules (ignored by .gitignore).",
  );
  return [t];
}

// ---------------------------------------------------------------- 6. memory

function memoryRow(engine: BenchEngine): void {
  const status = engine.status();
  if (!status) return void console.log("No engine runs.");
  const tree = processTree(status.pid);
  const rows = tree.map((p, i) => [String(p.pid), i === 0 ? "engine" : p.name, mb(p.rssBytes)]);
  const total = tree.reduce((sum, p) => sum + p.rssBytes, 0);
  rows.push(["", "total", mb(total)]);
  const columns = [{ header: "pid" }, { header: "process" }, { header: "RSS", right: true }];
  console.log(formatTable(columns, rows));
  console.log(
    `\nThe engine says rssBytes ${mb(status.rssBytes)}; it holds ${status.roots.length} roots: ${status.roots.map((r) => r.split("/").pop()).join(", ")}.`,
  );
}

// ---------------------------------------------------------------- the run

defineBenchmark({
  name: "warm",
  description: "splice commands as fresh processes on roots the engine keeps warm (#36 targets)",
  async run() {
    await withScratchDir("splice-bench-warm-", async (scratch) => {
      console.log(environment(scratch));
      const engine = new BenchEngine();
      const targets: Target[] = [];
      // Made outside the scratch folder (row 5): removed after the engine stops, also on Ctrl-C.
      const leftovers: string[] = [];
      const removeLeftovers = () => {
        for (const dir of leftovers) rmSync(dir, { recursive: true, force: true });
      };
      const onExit = () => {
        engine.stopNow();
        removeLeftovers();
      };
      process.once("exit", onExit);
      const rows: [string, () => Promise<Target[]>][] = [
        ["1. CLI edit with the type verdict", () => editRow(engine, scratch)],
        ["2. search / read / list / outline on a warm root", () => rootRow(engine, scratch)],
        ["3. ast rewrite over 100 JavaScript files", () => astRow(engine, scratch)],
        ["4. a folder symbol read", () => symbolRow(engine, scratch)],
        [
          `5. run's checkpoint at ${BIG_FILES.toLocaleString("en")} files`,
          () => bigRow(engine, scratch, leftovers),
        ],
      ];
      try {
        for (const [title, row] of rows) {
          heading(title);
          if (title.startsWith("5.") && process.env.WARM_100K === "0") {
            console.log("Skipped (WARM_100K=0).");
            continue;
          }
          const start = performance.now();
          targets.push(...(await row()));
          console.log(`(${((performance.now() - start) / 1000).toFixed(1)} s)`);
        }
        heading("6. memory: the engine and its children, after the rows above");
        memoryRow(engine);
      } finally {
        await engine.dispose();
        removeLeftovers();
        process.off("exit", onExit);
      }
      heading("targets");
      for (const t of targets) console.log(`${mark(t.pass)}  ${t.what}: ${t.value} (${t.bound})`);
    });
  },
});
