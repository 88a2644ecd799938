/**
 * A burst of 10,000 outside changes on real files with the real watcher: the
 * watch stops naming paths past its bound, says it lost track, walks the root
 * again and finds every change; what it keeps is capped by the rate bound.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VERSIONS_PER_MINUTE } from "../../src/checkpoint/outside.js";
import { Project } from "../helpers/project.js";
import { watched } from "../helpers/watched.js";

const FILES = 10_000;

describe.skipIf(process.env.SPLICE_TEST_REMOTE)("the root watch under a burst", () => {
  it("rewrites of 10,000 files: lost track, walked again, every change named, versions capped", async () => {
    const p = new Project();
    for (let i = 0; i < FILES; i++) p.write(`d${i % 50}/f${i}.txt`, `v1 ${i}\n`);
    const { told } = await watched(p);
    for (let i = 0; i < FILES; i++)
      writeFileSync(join(p.root, `d${i % 50}/f${i}.txt`), `v2 ${i}\n`);
    const named = () => told.reduce((n, e) => n + e.changes.length + e.more, 0);
    const deadline = Date.now() + 60_000;
    while (named() < FILES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(named()).toBe(FILES);
    expect(told.some((e) => e.lostTrack)).toBe(true);
    expect(told.every((e) => e.changes.every((c) => c.kind === "changed"))).toBe(true);
    const recorded = told.reduce((n, e) => n + e.recorded, 0);
    const skipped = told.reduce((n, e) => n + e.notRecorded, 0);
    expect(recorded).toBe(VERSIONS_PER_MINUTE);
    expect(recorded + skipped).toBe(FILES);
    // Nothing is named twice: once found, a change is in the watch's table.
    await new Promise((r) => setTimeout(r, 500));
    expect(named()).toBe(FILES);
  }, 120_000);
});
