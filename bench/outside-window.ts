/**
 * The last outside-write window (issue #37): what an in-place writer (an
 * editor's save, `echo >`) racing splice's rename-based write can still lose.
 *
 * 1. The compare-to-rename window, in µs: from the end of the last read of
 *    the old file before the rename (the compare) to the end of the rename,
 *    timed inside the write (node:fs wrapped, `syncBuiltinESMExports`). A
 *    program that writes into the old file in it is caught by the read after
 *    the rename, so this window loses nothing by itself; it is the time in
 *    which a program can open the file that is about to be replaced without
 *    its bytes having been compared.
 * 2. The horizon of the looks after the rename: a writer opens the file
 *    (without truncating it) just before the edit's rename, then writes into
 *    it `d` ms later. Rows by `d`: how many outside versions are on disk,
 *    named in the result, kept in history and told later (the
 *    `outside_changes` event), and lost. A loss splice detected is always
 *    told; a write later than its last look at the replaced file is not seen
 *    by anyone (the file has no path): that is the physical limit of a
 *    rename-based write against an in-place writer that takes no lock.
 *
 * Baseline in the same run: a plain rename (write a temp, rename it over)
 * with no look after, which loses every such write.
 */
import { spawn } from "node:child_process";
import fs, { existsSync, readFileSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { identify } from "../src/util/hash.js";
import { Project } from "../test/helpers/project.js";
import { defineBenchmark, formatTable } from "./lib.js";

const WRITER = `
const fs = require("node:fs");
process.on("message", ({ path, text, openAfterUs, writeAfterMs }) => {
  const until = process.hrtime.bigint() + BigInt(openAfterUs) * 1000n;
  while (process.hrtime.bigint() < until) {}
  const fd = fs.openSync(path, "r+"); // in place, not truncated: the compare sees the old bytes
  process.send("opened");
  setTimeout(() => {
    fs.writeSync(fd, text, 0);
    fs.ftruncateSync(fd, Buffer.byteLength(text));
    fs.closeSync(fd);
    process.send("wrote");
  }, writeAfterMs);
});
`;

/** Times from the last readSync before a renameSync to the rename's end, in µs. */
function timeRenames(): { windows: number[]; stop: () => void } {
  const { readSync, renameSync } = fs;
  const windows: number[] = [];
  let lastRead = 0;
  fs.readSync = ((...args: Parameters<typeof readSync>) => {
    const n = readSync(...args);
    lastRead = performance.now();
    return n;
  }) as typeof readSync;
  fs.renameSync = ((from: fs.PathLike, to: fs.PathLike) => {
    renameSync(from, to);
    // Only the edit's own rename over the raced file (history and spares rename too).
    if (lastRead > 0 && String(to).endsWith("/a.txt")) {
      windows.push((performance.now() - lastRead) * 1000);
    }
    lastRead = 0;
  }) as typeof renameSync;
  syncBuiltinESMExports();
  return {
    windows,
    stop: () => {
      fs.readSync = readSync;
      fs.renameSync = renameSync;
      syncBuiltinESMExports();
    },
  };
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

interface Row {
  onDisk: number;
  named: number;
  toldLater: number;
  lost: number;
}

/** `rounds` edits, each raced by a writer that opens the file first and writes `writeAfterMs` later. */
async function race(rounds: number, writeAfterMs: number, plain: boolean): Promise<Row> {
  const p = new Project();
  const path = join(p.root, "a.txt");
  const splice = p.splice({ lsp: false });
  const child = spawn(process.execPath, ["-e", WRITER], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const row: Row = { onDisk: 0, named: 0, toldLater: 0, lost: 0 };
  try {
    for (let i = 0; i < rounds; i++) {
      writeFileSync(path, "keep me\nbase\n");
      const outside = `keep me\noutside ${i}\n`;
      const opened = new Promise((resolve) => child.once("message", resolve));
      const wrote = opened.then(() => new Promise((resolve) => child.once("message", resolve)));
      child.send({ path, text: outside, openAfterUs: 0, writeAfterMs });
      await opened; // open before the rename: the edit is started once the writer holds the file
      let result: unknown;
      if (plain) {
        writeFileSync(`${path}.tmp`, `kept ${i}\nbase\n`);
        fs.renameSync(`${path}.tmp`, path);
      } else {
        result = await splice
          .call("edit", {
            targets: [{ path: "a.txt", edits: [{ old_text: "keep me", new_text: `kept ${i}` }] }],
          })
          .catch((error: unknown) => ({ error: String(error) }));
      }
      await wrote;
      const { tag, sha } = identify(Buffer.from(outside));
      const blob = join(p.root, ".splice", "blobs", sha.slice(0, 2), sha.slice(2));
      const now = readFileSync(path, "utf8");
      if (now === outside) row.onDisk++;
      else if (JSON.stringify(result ?? "").includes(`tag ${tag}`)) row.named++;
      else if (!plain && (await appears(blob, 600))) row.toldLater++;
      else row.lost++;
    }
  } finally {
    child.kill();
  }
  return row;
}

async function appears(path: string, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    if (existsSync(path)) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return existsSync(path);
}

defineBenchmark({
  name: "outside-window",
  description:
    "the last outside-write window: compare-to-rename in µs, and how late an in-place write into the replaced file is still seen (baseline: a plain rename)",
  async run() {
    const ROUNDS = Number(process.env.SPLICE_BENCH_ROUNDS ?? 40);
    const timed = timeRenames();
    let row: Row;
    try {
      row = await race(ROUNDS * 5, 0, false);
    } finally {
      timed.stop();
    }
    const w = timed.windows;
    console.log(
      `compare-to-rename window over ${w.length} renames (${ROUNDS * 5} raced edits): median ${percentile(w, 0.5).toFixed(0)} µs, p95 ${percentile(w, 0.95).toFixed(0)} µs, max ${Math.max(...w).toFixed(0)} µs; a write into it is caught by the read after the rename (that race: ${JSON.stringify(row)})`,
    );
    const rows: string[][] = [];
    for (const ms of [0, 2, 10, 50, 90, 150, 400]) {
      const plain = await race(ROUNDS, ms, true);
      const ours = await race(ROUNDS, ms, false);
      rows.push([
        `${ms} ms`,
        String(ROUNDS),
        `${ours.onDisk}`,
        `${ours.named}`,
        `${ours.toldLater}`,
        `${ours.lost}`,
        `${plain.lost}`,
      ]);
    }
    console.log(
      `\nan in-place writer opens the file before the edit's rename and writes d later\n${formatTable(
        [
          { header: "d" },
          { header: "rounds", right: true },
          { header: "on disk", right: true },
          { header: "named in result", right: true },
          { header: "told later", right: true },
          { header: "lost", right: true },
          { header: "lost, plain rename", right: true },
        ],
        rows,
      )}`,
    );
  },
});
