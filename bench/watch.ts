/**
 * The root watch under a burst: 10,000 files rewritten outside splice (and
 * 10,000 created in new folders), timed from the burst's last write until the
 * watch has named every change; the versions it kept, the batches it told,
 * and what its process grew by. Beside it, in the same run, the burst's own
 * writes and one metadata walk of the tree (what a resync costs).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { takeSnapshot } from "../src/checkpoint/snapshot.js";
import type { SpliceEvent } from "../src/events.js";
import { createSplice } from "../src/splice.js";
import { defineBenchmark, environment, formatTable, ms, withScratchDir } from "./lib.js";

type Outside = Extract<SpliceEvent, { type: "outside_changes" }>;
const FILES = 10_000;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)}`;

defineBenchmark({
  name: "watch",
  description: "the root watch under a burst of 10,000 outside changes",
  async run() {
    const rows: string[][] = [];
    await withScratchDir("splice-bench-watch-", async (dir) => {
      console.log(environment(dir));
      for (let i = 0; i < FILES; i++) {
        if (i % 100 === 0) mkdirSync(join(dir, `d${i / 100}`));
        writeFileSync(join(dir, `d${Math.floor(i / 100)}/f${i}.ts`), `export const v = ${i};\n`);
      }
      const splice = createSplice({ root: dir, history: { session: "bench" }, watch: true });
      const started = await splice.watching();
      if (started) throw new Error(`no watch: ${started}`);
      const told: Outside[] = [];
      splice.events.on((e) => {
        if (e.type === "outside_changes") told.push(e);
      });
      const walk = performance.now();
      await takeSnapshot(splice.context, false);
      const walkMs = performance.now() - walk;
      const bursts: [string, (i: number) => void][] = [
        [
          "10,000 rewritten",
          (i) =>
            writeFileSync(
              join(dir, `d${Math.floor(i / 100)}/f${i}.ts`),
              `export const v = ${i + 1};\n`,
            ),
        ],
        [
          "10,000 created in 100 new folders",
          (i) => {
            if (i % 100 === 0) mkdirSync(join(dir, `n${i / 100}`));
            writeFileSync(
              join(dir, `n${Math.floor(i / 100)}/g${i}.ts`),
              `export const g = ${i};\n`,
            );
          },
        ],
      ];
      for (const [what, write] of bursts) {
        told.length = 0;
        global.gc?.();
        const rss = process.memoryUsage().rss;
        const begin = performance.now();
        for (let i = 0; i < FILES; i++) write(i);
        const written = performance.now();
        const named = () => told.reduce((n, e) => n + e.changes.length + e.more, 0);
        while (named() < FILES) await new Promise((r) => setTimeout(r, 5));
        const settled = performance.now();
        rows.push([
          what,
          ms(written - begin),
          ms(settled - written),
          String(told.length),
          told.some((e) => e.lostTrack) ? "yes" : "no",
          String(told.reduce((n, e) => n + e.recorded, 0)),
          String(told.reduce((n, e) => n + e.notRecorded, 0)),
          mib(process.memoryUsage().rss - rss),
          ms(walkMs),
        ]);
        // The rate cap is per minute: the next burst starts with a fresh budget only in a new minute.
        await new Promise((r) => setTimeout(r, 61_000));
      }
      await splice.close();
    });
    console.log(
      formatTable(
        [
          { header: "burst" },
          { header: "writes ms", right: true },
          { header: "settle ms", right: true },
          { header: "batches", right: true },
          { header: "lost track", right: true },
          { header: "versions kept", right: true },
          { header: "not kept", right: true },
          { header: "rss growth MiB", right: true },
          { header: "one walk ms", right: true },
        ],
        rows,
      ),
    );
    console.log(
      "\nsettle = from the burst's last write until every change was named; 'one walk' = a metadata pass of the tree (what a resync costs)",
    );
  },
});
