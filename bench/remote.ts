/**
 * A remote root over a real OpenSSH server on 127.0.0.1 (the one the tests
 * start: throwaway keys, a random port) against the same calls on the local
 * disk, and against bare `ssh host cat` / `ssh host sh -c 'cat > t && mv t f'`
 * / `ssh host rg` moving the same bytes, all over the same shared connection
 * (ControlMaster) in the same run. Target: a read within 1.5x one bare cat.
 * The far side's login shell starts on every call (it runs the command); its
 * start-up time is in every row alike, the bare ones included.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { rgPath } from "@vscode/ripgrep";
import { createToolkit, type Toolkit } from "../src/toolkit/index.js";
import { shQuote, type Transport } from "../src/workspace/remote/transport.js";
import { sshdMissing, startSshd } from "../test/helpers/sshd.js";
import {
  defineBenchmark,
  environment,
  formatTable,
  measure,
  ms,
  type Stats,
  withScratchDir,
} from "./lib.js";

const run = promisify(execFile);
const RUNS = 15;
const FILES = 200;

function plant(root: string): string {
  const lines = Array.from({ length: 300 }, (_, i) => `export const value${i} = compute(${i});`);
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `src/mod${i % 10}`);
    mkdirSync(dir, { recursive: true });
    const extra = i % 50 === 0 ? "// needle\n" : "";
    writeFileSync(join(dir, `file${i}.ts`), `${lines.join("\n")}\n${extra}`);
  }
  return "src/mod0/file0.ts";
}

interface Row {
  what: string;
  where: string;
  stats: Stats;
  baseline?: Stats;
  /** Scripts run through the transport per call ("-": no transport). */
  trips: string;
}

defineBenchmark({
  name: "remote",
  description: "read, edit and search of a remote root over a local sshd vs local disk vs bare ssh",
  async run() {
    const missing = sshdMissing();
    if (missing) {
      console.log(`skipped: ${missing}`);
      return;
    }
    const sshd = await startSshd();
    const control = mkdtempSync(join(tmpdir(), "splice-bench-ssh-"));
    // The bare baseline shares one connection the way splice's transport does.
    const bare = [
      "-o",
      "ControlMaster=auto",
      "-o",
      `ControlPath=${join(control, "%C")}`,
      "-o",
      "ControlPersist=60",
      ...sshd.ssh.slice(1),
    ];
    const ssh = (line: string, input?: Buffer) =>
      new Promise<void>((resolve, reject) => {
        const child = execFile("ssh", [...bare, line], { maxBuffer: 1 << 26 }, (error) =>
          error ? reject(error) : resolve(),
        );
        child.stdin?.end(input);
      });
    // rg on the far side's PATH (the same machine here): the one splice ships.
    const rgDir = dirname(rgPath);
    const withRg = [...sshd.ssh, "env", `PATH=${rgDir}:/usr/local/bin:/usr/bin:/bin`];
    try {
      await withScratchDir("splice-bench-remote-", async (scratch) => {
        const localRoot = join(scratch, "local");
        const remoteRoot = join(scratch, "remote");
        const file = plant(localRoot);
        plant(remoteRoot);
        console.log(environment(scratch));
        console.log(`${FILES} files of 300 lines; the read and edit file is ${file}\n`);
        const local = createToolkit({ root: localRoot, history: { session: "bench" } });
        const remote = createToolkit({
          root: `box:${remoteRoot}`,
          remotes: { box: withRg },
          history: { dir: join(scratch, "history"), session: "bench" },
        });
        await ssh("true"); // the shared connection is up before anything is timed
        const remoteFile = join(remoteRoot, file);
        const rows: Row[] = [];
        const time = (fn: (i: number) => Promise<unknown>) =>
          measure({ warmup: 2, runs: RUNS }, fn);
        const { transport } = remote.context.workspace as unknown as { transport: Transport };
        // The round trips of the timed calls only (a `before` hook's read is not counted).
        let counted = { trips: 0, calls: 0 };
        const counting =
          (kit: Toolkit, fn: (i: number) => Promise<unknown>) => async (i: number) => {
            const before = transport.trips;
            await fn(i);
            if (kit === remote)
              counted = {
                trips: counted.trips + transport.trips - before,
                calls: counted.calls + 1,
              };
          };
        const tripsPerCall = (kit: Toolkit) => {
          const figure = kit === remote ? (counted.trips / counted.calls).toFixed(1) : "-";
          counted = { trips: 0, calls: 0 };
          return figure;
        };

        const catStats = await time(() => ssh(`cat ${shQuote(remoteFile)}`));
        rows.push({ what: "read", where: "bare ssh cat", stats: catStats, trips: "1" });
        for (const [where, kit] of [
          ["local disk", local],
          ["remote (sshd)", remote],
        ] as const) {
          rows.push({
            what: "read",
            where,
            stats: await time(counting(kit, () => kit.call("read", { targets: [{ path: file }] }))),
            baseline: catStats,
            trips: tripsPerCall(kit),
          });
        }

        const bytes = Buffer.from(`${"x".repeat(9000)}\n`);
        const mvLine = `cat > ${shQuote(`${remoteFile}.t`)} && mv ${shQuote(`${remoteFile}.t`)} ${shQuote(remoteFile)}`;
        const mvStats = await time(() => ssh(`sh -c ${shQuote(mvLine)}`, bytes));
        rows.push({ what: "edit", where: "bare ssh cat > t && mv", stats: mvStats, trips: "1" });
        plant(remoteRoot);
        let tag = "";
        for (const [where, kit] of [
          ["local disk", local],
          ["remote (sshd)", remote],
        ] as const) {
          rows.push({
            what: "edit",
            where,
            stats: await measure(
              { warmup: 2, runs: RUNS, before: async () => (tag = await tagOf(kit, file)) },
              counting(kit, (i) =>
                kit.call("edit", {
                  targets: [
                    { path: file, file_hash: tag, ops: `replace 1:\n+export const value0 = ${i};` },
                  ],
                }),
              ),
            ),
            baseline: mvStats,
            trips: tripsPerCall(kit),
          });
        }

        const rgLine = `PATH=${shQuote(rgDir)}:$PATH rg --json needle ${shQuote(remoteRoot)}`;
        const rgStats = await time(() => ssh(`sh -c ${shQuote(rgLine)}`));
        rows.push({ what: "search", where: "bare ssh rg", stats: rgStats, trips: "1" });
        for (const [where, kit] of [
          ["local disk", local],
          ["remote (sshd)", remote],
        ] as const) {
          rows.push({
            what: "search",
            where,
            stats: await time(counting(kit, () => kit.call("search", { pattern: "needle" }))),
            baseline: rgStats,
            trips: tripsPerCall(kit),
          });
        }
        await transport.close();
        console.log(
          formatTable(
            [
              { header: "operation" },
              { header: "where" },
              { header: "median ms", right: true },
              { header: "p95 ms", right: true },
              { header: "vs bare ssh", right: true },
              { header: "trips/call", right: true },
            ],
            rows.map((r) => [
              r.what,
              r.where,
              ms(r.stats.median),
              ms(r.stats.p95),
              r.baseline ? `${(r.stats.median / r.baseline.median).toFixed(2)}x` : "baseline",
              r.trips,
            ]),
          ),
        );
        console.log(
          `\nper call, ${RUNS} runs after 2 warm-up; trips/call counts the scripts run through the transport: a read is one, an edit two (the lock with the file's snapshot; then stage, compare, swap and unlock, history recording here in between), a search a stat, the search there, then its shown files read side by side.`,
        );
      });
    } finally {
      await run("ssh", ["-O", "exit", ...bare]).catch(() => {});
      await sshd.stop();
    }
  },
});

/** The file's tag from a fresh read (untimed: the edit is what is measured). */
async function tagOf(kit: Toolkit, file: string): Promise<string> {
  const read = (await kit.call("read", { targets: [{ path: file, line_range: "1..2" }] })) as {
    results: { file_hash: string }[];
  };
  return read.results[0]!.file_hash;
}
