/**
 * `npm run build` builds beside dist/ and swaps the whole tree in, so a
 * running or linked `splice` never meets a half-built dist/ (tests that run
 * the built CLI keep working while a build runs).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain script, without types
import { swapDist } from "../../scripts/swap-dist.mjs";

const REPO = join(import.meta.dirname, "../..");

function tree(dir: string, text: string): void {
  mkdirSync(join(dir, "cli-bundle"), { recursive: true });
  writeFileSync(join(dir, "cli-bundle/main.js"), text);
}

describe("the build's swap", () => {
  it("replaces the old tree by the new one whole, leaving nothing aside", () => {
    const at = mkdtempSync(join(tmpdir(), "splice-swap-"));
    const dist = join(at, "dist");
    tree(dist, "old");
    tree(join(at, "dist.next"), "new");
    // A tree a dead build left aside is no obstacle.
    tree(join(at, "dist.old"), "stale");
    swapDist(join(at, "dist.next"), dist);
    expect(readFileSync(join(dist, "cli-bundle/main.js"), "utf8")).toBe("new");
    expect(readdirSync(at)).toEqual(["dist"]);
  });

  it("puts the first build in place when there is no dist yet", () => {
    const at = mkdtempSync(join(tmpdir(), "splice-swap-"));
    tree(join(at, "dist.next"), "first");
    swapDist(join(at, "dist.next"), join(at, "dist"));
    expect(readFileSync(join(at, "dist/cli-bundle/main.js"), "utf8")).toBe("first");
  });

  it("is what npm run build does: no step removes dist/ before the new tree is whole", () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
    expect(scripts.build).toBe("node scripts/build.mjs");
    expect(JSON.stringify(scripts)).not.toMatch(/rm -rf dist/);
    const build = readFileSync(join(REPO, "scripts/build.mjs"), "utf8");
    expect(build).toContain('"--outDir", NEXT');
    expect(build.trimEnd().endsWith("swapDist(NEXT);")).toBe(true);
    // The bundle's metafile names dist/, as the entry test reads it after the swap.
    const meta = readFileSync(join(REPO, "dist/cli-bundle/meta.json"), "utf8");
    expect(meta).not.toContain('"dist.next/');
  });
});
