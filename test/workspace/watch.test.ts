/**
 * The folder watch on a real tree: a vouch holds until an event names its
 * path, events queued before `settle` are applied by it, a folder replaced
 * loses its watch, and a burst that overflows the kernel's queue (whose
 * overflow notice libuv drops) is taken as lost track.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listing, TreeWatch } from "../../src/workspace/watch.js";

let root: string;
const watches: TreeWatch[] = [];
const watch = (options?: ConstructorParameters<typeof TreeWatch>[0]) => {
  const w = new TreeWatch(options);
  watches.push(w);
  return w;
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "splice-watch-"));
  mkdirSync(join(root, "sub"));
  writeFileSync(join(root, "a.ts"), "export const a = 1;\n");
  writeFileSync(join(root, "sub", "b.ts"), "export const b = 1;\n");
});

afterEach(() => {
  for (const w of watches.splice(0)) w.close();
  rmSync(root, { recursive: true, force: true });
});

/** Watches `folder`, then vouches for `abs` as `version` the way a caller does after its check. */
function vouched(w: TreeWatch, folder: string, abs: string, version: string): void {
  expect(w.add(folder)).toBe(true);
  w.vouch(abs, w.ticket(abs), version);
  expect(w.vouches(abs, version)).toBe(true);
}

describe("TreeWatch", () => {
  it("applies in settle an event the kernel queued just before it", async () => {
    const w = watch();
    const a = join(root, "a.ts");
    vouched(w, root, a, "v1");
    // The write returns with its event queued; settle must let the loop read it.
    writeFileSync(a, "export const a = 2;\n");
    expect(await w.settle()).toBe(false);
    expect(w.vouches(a, "v1")).toBe(false);
  });

  it("keeps a vouch no event named, and only for the version vouched", async () => {
    const w = watch();
    const a = join(root, "a.ts");
    vouched(w, root, a, "v1");
    writeFileSync(join(root, "other.txt"), "x");
    await w.settle();
    expect(w.vouches(a, "v1")).toBe(true);
    expect(w.vouches(a, "v2")).toBe(false);
    // The folder's own entries changed, so its listing is no longer vouched for.
    expect(w.vouches(listing(root))).toBe(false);
  });

  it("refuses a vouch whose check a settle interrupted", async () => {
    const w = watch();
    const a = join(root, "a.ts");
    w.add(root);
    const ticket = w.ticket(a);
    writeFileSync(a, "changed during the check\n");
    await w.settle();
    w.vouch(a, ticket, "v1");
    expect(w.vouches(a, "v1")).toBe(false);
  });

  it("gives no ticket for a folder it does not watch", () => {
    const w = watch();
    expect(w.ticket(join(root, "sub", "b.ts"))).toBeUndefined();
    w.vouch(join(root, "sub", "b.ts"), undefined, "v1");
    expect(w.vouches(join(root, "sub", "b.ts"), "v1")).toBe(false);
  });

  it("drops the watch of a folder replaced, and every vouch made under it", async () => {
    const w = watch();
    const b = join(root, "sub", "b.ts");
    expect(w.add(root)).toBe(true);
    vouched(w, join(root, "sub"), b, "v1");
    rmSync(join(root, "sub"), { recursive: true });
    mkdirSync(join(root, "sub"));
    writeFileSync(b, "export const b = 1;\n");
    await w.settle();
    expect(w.watches(join(root, "sub"))).toBe(false);
    expect(w.vouches(b, "v1")).toBe(false);
  });

  it("takes a burst that overflows the kernel's queue as lost track", async () => {
    const queue = Number(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8"));
    const a = join(root, "a.ts");
    // One watch that trusts any burst shows the edit really is lost; the default one notices.
    const trusting = watch({ lostAfter: Number.POSITIVE_INFINITY });
    const careful = watch();
    vouched(trusting, root, a, "v1");
    vouched(careful, root, a, "v1");
    // spawnSync blocks the loop: the events queue up in the kernel until it overflows, and the
    // edit of a.ts comes last, so its event is one of those dropped.
    const made = spawnSync(
      "sh",
      [
        "-c",
        `i=0; while [ $i -lt ${queue + 2000} ]; do : > "f$i"; i=$((i+1)); done; echo 2 >> a.ts`,
      ],
      { cwd: root },
    );
    expect(made.status).toBe(0);
    expect(await trusting.settle()).toBe(false);
    expect(trusting.vouches(a, "v1")).toBe(true);
    expect(await careful.settle()).toBe(true);
    expect(careful.vouches(a, "v1")).toBe(false);
  }, 60_000);
});
