/**
 * Row 1 of the warm benchmark: `splice edit` in a Python and a TypeScript
 * project, each call a fresh process. The first call on a fresh engine (it
 * starts the engine, and the engine the language server, without waiting
 * for it), then once lsp-health says the server is ready the next calls,
 * each checked to carry the type verdict; the baseline is the same edit with
 * `--no-engine --validate`, a cold server every time, in a copy of the project.
 */
import { join } from "node:path";
import { formatTable, ms, summarize } from "./lib.js";
import { type EditProject, PYTHON, TYPESCRIPT } from "./warm-fixtures.js";
import {
  type BenchEngine,
  mark,
  NO_VERDICT,
  type Ran,
  ratio,
  slowest,
  type Target,
  throughSocket,
  withinMs,
} from "./warm-lib.js";

const FIRST_RUNS = 3;
const WARM_EDITS = 8;
const SOCKET_EDITS = 5;
const BASE_EDITS = 3;
const WARM_TARGET_MS = 250;
const FIRST_TARGET_MS = 1_500;

/** One copy of a project and the edit that comes next in it: RETRIES = n becomes n + 1. */
class Editor {
  #n = 0;
  constructor(
    readonly project: EditProject,
    readonly dir: string,
  ) {
    project.make(dir);
  }

  args(...extra: string[]): string[] {
    const n = this.#n++;
    const file = this.project.file;
    return ["edit", file, "--old", `RETRIES = ${n}`, "--new", `RETRIES = ${n + 1}`, ...extra];
  }
}

interface Figures {
  label: string;
  server: string;
  first: Ran[];
  readyAfterMs: number;
  warm: Ran[];
  socket: number[];
  base: Ran[];
}

const typed = (runs: Ran[]) => runs.filter((r) => !NO_VERDICT.test(r.stderr)).length;
const median = (runs: number[]) => summarize(runs).median;

export async function editRow(engine: BenchEngine, scratch: string): Promise<Target[]> {
  const projects = [PYTHON, TYPESCRIPT].map((p) => ({
    warm: new Editor(p, join(scratch, `edit-${p.language}`)),
    base: new Editor(p, join(scratch, `edit-${p.language}-baseline`)),
  }));
  const first = new Map(projects.map((p) => [p, [] as Ran[]]));
  // Each first call on an engine stopped just before; the last leaves its server starting.
  for (let k = 0; k < FIRST_RUNS; k++) {
    for (const p of projects) {
      await engine.stop();
      first.get(p)!.push(engine.splice(p.warm.args(), p.warm.dir));
    }
  }
  const figures: Figures[] = [];
  for (const p of projects) {
    const { dir, project } = p.warm;
    const started = performance.now();
    engine.splice(p.warm.args(), dir); // starts the server when the stop above ended it
    const health = await engine.waitReady(dir, project.language);
    const readyAfterMs = performance.now() - started;
    const warm = Array.from({ length: WARM_EDITS }, () => engine.splice(p.warm.args(), dir));
    const socket: number[] = [];
    const path = engine.status()!.socket;
    for (let i = 0; i < SOCKET_EDITS; i++) {
      socket.push((await throughSocket(path, p.warm.args(), dir, engine.env)).total);
    }
    const base = Array.from({ length: BASE_EDITS }, () =>
      engine.splice(p.base.args("--no-engine", "--validate"), p.base.dir),
    );
    figures.push({
      label: project.label,
      server: health.server,
      first: first.get(p)!,
      readyAfterMs,
      warm,
      socket,
      base,
    });
  }
  printEdits(figures);
  return figures.flatMap((f) => {
    const warm = median(f.warm.map((r) => r.ms));
    const all = typed(f.warm) === f.warm.length;
    return [
      {
        ...withinMs(
          `${f.label} edit, 2nd call on, with the verdict`,
          warm,
          WARM_TARGET_MS,
          "<= 250 ms",
        ),
        ...(all
          ? {}
          : { value: `${ms(warm)} ms, ${typed(f.warm)}/${f.warm.length} typed`, pass: false }),
      },
      withinMs(
        `${f.label} edit, first call`,
        median(f.first.map((r) => r.ms)),
        FIRST_TARGET_MS,
        "<= 1.5 s",
      ),
    ];
  });
}

function printEdits(figures: Figures[]): void {
  const rows: string[][] = [];
  for (const f of figures) {
    const base = summarize(f.base.map((r) => r.ms));
    const line = (what: string, runs: number[], note: string, target = "") => {
      const s = summarize(runs);
      return [
        `${f.label}: ${what}`,
        ms(s.median),
        ms(slowest(s)),
        String(s.runs),
        ratio(s.median, base.median),
        target,
        note,
      ];
    };
    const verdicts = (runs: Ran[]) => `verdict in ${typed(runs)}/${runs.length}`;
    const warm = summarize(f.warm.map((r) => r.ms));
    rows.push(
      line(
        "first call, fresh engine",
        f.first.map((r) => r.ms),
        verdicts(f.first),
        mark(median(f.first.map((r) => r.ms)) <= FIRST_TARGET_MS),
      ),
      line(
        `2nd..${WARM_EDITS + 1}th call (${f.server} ready)`,
        f.warm.map((r) => r.ms),
        `${verdicts(f.warm)}; server ready ${ms(f.readyAfterMs)} ms after the priming edit`,
        mark(warm.median <= WARM_TARGET_MS && typed(f.warm) === f.warm.length),
      ),
      line(
        "  of which the engine (socket, no client process)",
        f.socket,
        "connect, hello, edit, exit",
      ),
      line(
        "--no-engine --validate (baseline)",
        f.base.map((r) => r.ms),
        verdicts(f.base),
      ),
    );
  }
  const columns = ["edit", "median ms", "max ms", "runs", "vs baseline", "target", "note"];
  console.log(
    formatTable(
      columns.map((header, i) => ({ header, right: i >= 1 && i <= 4 })),
      rows,
    ),
  );
  console.log(
    `\nEach call a fresh bin/splice process. "First call": the engine stopped before it, so the call
starts the engine and the engine starts the language server without waiting for it (median of
${FIRST_RUNS}). Then one edit (untimed) starts the server again and lsp-health is polled until it
is ready; the next ${WARM_EDITS} edits are timed, each one's stderr checked for "not type-checked".
The baseline edits a copy of the project in its own process with a cold server each time.
Targets: 2nd call on <= ${WARM_TARGET_MS} ms with the verdict; first call <= ${FIRST_TARGET_MS / 1000} s.`,
  );
}
