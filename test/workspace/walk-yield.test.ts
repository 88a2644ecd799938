/**
 * A walk without a cache reads folders through the workspace, and a local
 * readDir settles in microtasks only: the walk must still give the event
 * loop a turn now and then, or a big `list` holds every other call of an
 * MCP server until it ends.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { PathGuard } from "../../src/guard/path-guard.js";
import { LocalWorkspace } from "../../src/workspace/local.js";
import { Walker } from "../../src/workspace/walk.js";
import type { DirEntry } from "../../src/workspace/workspace.js";

/** A disk slow to list: each readDir takes 3 ms of the main thread, as a large folder does. */
class SlowDisk extends LocalWorkspace {
  override async readDir(path: string): Promise<DirEntry[]> {
    const until = performance.now() + 3;
    while (performance.now() < until) {}
    return super.readDir(path);
  }
}

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

it("lets other work run while it walks a large tree", async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "splice-walk-yield-")));
  for (let i = 0; i < 40; i++) mkdirSync(join(root, `d${i}`));
  const walker = new Walker(new PathGuard({ root }), new SlowDisk());
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  const result = await walker.walk({
    start: root,
    depth: 3,
    limit: 1000,
    includeHidden: false,
    maxScanned: 100_000,
  });
  expect(result.total).toBe(40);
  expect(turned).toBe(true);
});
