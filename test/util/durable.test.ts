import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fsyncPath, fsyncPathSync, SyncBarrier } from "../../src/util/durable.js";

const scratch = () => mkdtempSync(join(tmpdir(), "splice-durable-"));

describe("SyncBarrier", () => {
  it("syncs files and folders, then runs what waited for them, once", async () => {
    const dir = scratch();
    const file = join(dir, "a.txt");
    writeFileSync(file, "a");
    const barrier = new SyncBarrier();
    const order: string[] = [];
    barrier.add(file);
    barrier.add(file);
    barrier.addFolder(dir);
    barrier.onSynced(() => order.push("synced"));
    const flushed = barrier.flush().then(() => order.push("flushed"));
    expect(order).toEqual([]); // nothing runs before the disk answers
    await flushed;
    expect(order).toEqual(["synced", "flushed"]);
    await barrier.flush(); // emptied: a second flush runs nothing again
    barrier.flushSync();
    expect(order).toEqual(["synced", "flushed"]);
  });

  it("fails, without running what waited, when a path cannot be synced", async () => {
    const dir = scratch();
    const barrier = new SyncBarrier();
    let ran = false;
    barrier.add(join(dir, "gone.txt"));
    barrier.onSynced(() => {
      ran = true;
    });
    await expect(barrier.flush()).rejects.toMatchObject({ code: "ENOENT" });
    expect(ran).toBe(false);
    expect(() => fsyncPathSync(join(dir, "gone.txt"))).toThrow(/ENOENT/);
    await expect(fsyncPath(dir, true)).resolves.toBeUndefined();
  });
});
