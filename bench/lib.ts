/**
 * Shared pieces for benchmarks: the registry `bench/run.ts` reads, timing
 * with warm-up and percentiles, a seeded PRNG, a scratch directory that is
 * always removed, and plain-text tables. Benchmarks print figures; they never
 * assert on time.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface Benchmark {
  /** What `npm run bench -- <name>` selects. */
  name: string;
  description: string;
  run(): Promise<void>;
}

const registry: Benchmark[] = [];

/** Registers a benchmark; importing its module is all `bench/run.ts` needs. */
export function defineBenchmark(benchmark: Benchmark): Benchmark {
  registry.push(benchmark);
  return benchmark;
}

export function registeredBenchmarks(): readonly Benchmark[] {
  return registry;
}

// ---------------------------------------------------------------- timing

export interface Stats {
  runs: number;
  median: number;
  /** Nearest-rank 95th percentile (with 10 runs, the slowest run). */
  p95: number;
  min: number;
}

/** One row of the docs and patch tables: an operation on one file, with its baseline. */
export interface DocsRow {
  /** What was measured, e.g. "doc.set (tool, on disk)". */
  operation: string;
  /** The file it ran on, e.g. "5mb.json". */
  file: string;
  bytes: number;
  stats: Stats;
  /** The baseline's label, for the ratio column; omit for a baseline row itself. */
  baseline?: string;
  note?: string;
}

export function summarize(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { runs: sorted.length, median, p95: at(0.95), min: sorted[0]! };
}

export interface MeasureOptions {
  warmup: number;
  runs: number;
  /** Untimed, before each call (warm-up included); `i` counts every call from 0. */
  before?: (i: number) => unknown;
  /** Untimed, after each call, with what the call returned. */
  after?: (i: number, result: unknown) => unknown;
}

type Timed = (i: number) => unknown | Promise<unknown>;

/** Milliseconds per call of `fn`, measured with performance.now() after `warmup` untimed calls. */
export async function measure(options: MeasureOptions, fn: Timed): Promise<Stats> {
  return (await inTurn(options, [fn]))[0]!;
}

/**
 * Two measurements taken in turn (a, b, a, b, …), each run after its own
 * `before`: drift in a shared machine then hits both alike, and a ratio of
 * their medians means what it says.
 */
export async function measureInTurn(
  options: MeasureOptions,
  a: Timed,
  b: Timed,
): Promise<[Stats, Stats]> {
  const [first, second] = await inTurn(options, [a, b]);
  return [first!, second!];
}

async function inTurn(options: MeasureOptions, fns: Timed[]): Promise<Stats[]> {
  const samples = fns.map((): number[] => []);
  for (let i = 0; i < options.warmup + options.runs; i++) {
    for (const [k, fn] of fns.entries()) {
      await options.before?.(i);
      const start = performance.now();
      const result = await fn(i);
      const elapsed = performance.now() - start;
      await options.after?.(i, result);
      if (i >= options.warmup) samples[k]!.push(elapsed);
    }
  }
  return samples.map(summarize);
}

// ---------------------------------------------------------------- data

/** A seeded PRNG (xorshift32): the same seed gives the same corpus on every machine. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** A float in [0, 1). */
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 0x1_0000_0000;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

/**
 * Runs `fn` in a fresh directory under os.tmpdir() (set TMPDIR to measure
 * another disk) and removes it afterwards, also on Ctrl-C.
 */
export async function withScratchDir<T>(
  prefix: string,
  fn: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const onSignal = () => {
    remove();
    process.exit(130);
  };
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  try {
    return await fn(dir);
  } finally {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
    remove();
  }
}

/**
 * Runs `file` in a child process (same tsx loader) and hands over each message
 * it sends. A child that sends nothing for `idleMs` is killed: one runaway call
 * must not hang the whole run. Resolves once the child is gone.
 */
export function runChild(
  file: URL,
  env: Record<string, string>,
  idleMs: number,
  onMessage: (message: unknown) => void,
): Promise<{ timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(file), [], { env: { ...process.env, ...env } });
    const kill = () => child.kill("SIGKILL");
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, idleMs);
    };
    process.once("exit", kill);
    arm();
    child.on("message", (message) => {
      arm();
      onMessage(message);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      process.off("exit", kill);
      if (timedOut || code === 0) resolve({ timedOut });
      else reject(new Error(`${fileURLToPath(file)} failed (exit ${code ?? signal})`));
    });
  });
}

/** Sends a message to the parent of a runChild process; resolves once it is handed over. */
export function sendToParent(message: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) return reject(new Error("not started by runChild"));
    process.send(message, undefined, {}, (error) => (error ? reject(error) : resolve()));
  });
}

const FS_TYPES: Record<number, string> = {
  16914836: "tmpfs (fsync costs nothing here)",
  61267: "ext4",
  1481003842: "xfs",
  2435016766: "btrfs",
  2035054128: "overlayfs",
};

/** One line saying where and on what the figures were taken. */
export function environment(dir: string): string {
  let fs = "unknown fs";
  try {
    const type = statfsSync(dir).type;
    fs = FS_TYPES[type] ?? `fs type 0x${type.toString(16)}`;
  } catch {}
  const cpu = cpus();
  const load = loadavg()[0]!.toFixed(1);
  return `node ${process.version}, ${process.platform}/${process.arch}, ${cpu.length} x ${cpu[0]?.model.trim() ?? "cpu"} (load ${load}), scratch ${dir} on ${fs}`;
}

// ---------------------------------------------------------------- output

export interface Column {
  header: string;
  /** Right-align (numbers). */
  right?: boolean;
}

/** A plain-text table: aligned columns, a rule under the header. */
export function formatTable(columns: Column[], rows: string[][]): string {
  const widths = columns.map((c, i) =>
    Math.max(c.header.length, ...rows.map((r) => (r[i] ?? "").length)),
  );
  const line = (cells: string[]) =>
    columns
      .map((c, i) =>
        c.right ? (cells[i] ?? "").padStart(widths[i]!) : (cells[i] ?? "").padEnd(widths[i]!),
      )
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(columns.map((c) => c.header)), rule, ...rows.map(line)].join("\n");
}

/** Milliseconds with a precision that suits their size. */
export function ms(value: number): string {
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

export function fixed(value: number, digits = 1): string {
  return value.toFixed(digits);
}
