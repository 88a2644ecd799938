/**
 * The root watch (root-watch.ts) on a real tree with the real native
 * watcher: splice's temp files are ignored inside the watcher's thread
 * (STAGED_TEMP_PATH), and its own marks, also temp-named, still arrive.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PathGuard } from "../../src/guard/path-guard.js";
import { LocalWorkspace } from "../../src/workspace/local.js";
import { RootWatch } from "../../src/workspace/root-watch.js";
import { isTempName, MARK_STEM, STAGED_TEMP_PATH, tempName } from "../../src/workspace/temp.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("STAGED_TEMP_PATH", () => {
  it("matches every staged temp name, at the root and below, and no watch mark", () => {
    for (const name of ["a.ts", "x".repeat(250), "file with spaces.txt", ".env"]) {
      const temp = tempName(name);
      expect(isTempName(temp)).toBe(true);
      expect(STAGED_TEMP_PATH.test(temp)).toBe(true);
      expect(STAGED_TEMP_PATH.test(`src/deep/${temp}`)).toBe(true);
    }
    const mark = tempName(MARK_STEM);
    expect(isTempName(mark)).toBe(true);
    expect(STAGED_TEMP_PATH.test(mark)).toBe(false);
    for (const plain of ["a.ts", "src/a.splice-1-0123456789ab.tmp.ts", "notes.tmp"]) {
      expect(STAGED_TEMP_PATH.test(plain)).toBe(false);
    }
  });
});

describe("RootWatch", () => {
  it("tells a change beside a write's temp files, never the temp files, and its mark arrives", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "splice-root-watch-")));
    roots.push(root);
    mkdirSync(join(root, "src"));
    const guard = new PathGuard({ root });
    const batches: string[][] = [];
    const watch = await RootWatch.start(guard, new LocalWorkspace({ confineTo: root }), {
      onBatch: (batch) => {
        batches.push(batch.paths);
      },
      onError: (error) => {
        throw error;
      },
    });
    try {
      writeFileSync(join(root, tempName("a.ts")), "staged\n");
      writeFileSync(join(root, "src", tempName("b.ts")), "staged\n");
      writeFileSync(join(root, "src", "c.ts"), "export const c = 1;\n");
      const batch = await watch.sync(); // waits for its mark: lost when the mark never came
      expect(batch.lost).toBe(false);
      expect(batch.paths).toEqual(["src/c.ts"]);
      expect(batches).toEqual([]);
    } finally {
      await watch.close();
    }
  });
});

describe("RootWatch failures", () => {
  it("hands a batch that failed to onError and goes on telling the next ones", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "splice-root-watch-")));
    roots.push(root);
    const guard = new PathGuard({ root });
    const told: string[][] = [];
    const errors: string[] = [];
    const watch = await RootWatch.start(guard, new LocalWorkspace({ confineTo: root }), {
      debounceMs: 20,
      onBatch: async (batch) => {
        told.push(batch.paths);
        if (told.length === 1) throw new Error("history went away");
      },
      onError: (error) => errors.push((error as Error).message),
    });
    try {
      writeFileSync(join(root, "a.txt"), "a\n");
      await expect.poll(() => errors).toEqual(["history went away"]);
      writeFileSync(join(root, "b.txt"), "b\n");
      // (a.txt may come again in a batch of its own: a write is a create and a change)
      await expect.poll(() => told.slice(1).flat()).toContain("b.txt");
      expect(errors).toEqual(["history went away"]);
    } finally {
      await watch.close();
    }
  });
});
