/**
 * Packs (history/packs.ts): a batch's new blobs in one file, read back by
 * this and other processes, checked against their shas, and collected whole.
 */
import { readdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BlobStore } from "../../src/history/blobs.js";
import { History } from "../../src/history/history.js";
import { PACK_MIN } from "../../src/history/packs.js";
import { SyncBarrier } from "../../src/util/durable.js";
import { sha256 } from "../../src/util/hash.js";
import { ageBlobs, blobFiles, bytes, openHistory, packFiles, tempDir } from "./helpers.js";

const versions = (n: number, tag = "v") =>
  Array.from({ length: n }, (_, i) => bytes(`${tag}${i} ${"x".repeat(i * 10)}\n`));

/** A batch of writes as the write pipeline records it: each file's before and after. */
function recordBatch(
  history: History,
  n: number,
  tag: string,
  befores = versions(n, `${tag}-before-`),
) {
  const afters = versions(n, `${tag}-after-`);
  const barrier = new SyncBarrier();
  history.recordWrites(
    befores.map((before, i) => ({
      kind: "write" as const,
      path: `f${i}.txt`,
      before: { bytes: before, tag: "AAAA" },
      after: { bytes: afters[i]!, tag: "BBBB", sha: sha256(afters[i]!) },
    })),
    barrier,
  );
  barrier.flushSync();
  return { befores, afters };
}

describe("packs", () => {
  it("a batch of new blobs makes one pack that another store reads back", () => {
    const dir = tempDir();
    const store = new BlobStore(join(dir, "blobs"));
    const items = versions(PACK_MIN).map((b, i) => ({ bytes: b, backup: i % 2 === 0 }));
    const shas = store.putMany(items);
    expect(shas).toEqual(items.map((i) => sha256(i.bytes)));
    expect(readdirSync(join(dir, "blobs"))).toEqual(["packs"]);
    expect(
      readdirSync(join(dir, "blobs", "packs")).filter((n) => n.endsWith(".pack")),
    ).toHaveLength(1);
    const other = new BlobStore(join(dir, "blobs"));
    for (const [k, sha] of shas.entries()) {
      expect(other.has(sha)).toBe(true);
      expect(Buffer.from(other.get(sha)!)).toEqual(Buffer.from(items[k]!.bytes));
    }
    expect(other.list().filter((b) => b.packed)).toHaveLength(PACK_MIN);
  });

  it("fewer new blobs than PACK_MIN stay loose, and stored ones are not stored again", () => {
    const dir = tempDir();
    const store = new BlobStore(join(dir, "blobs"));
    const few = versions(PACK_MIN - 1);
    store.putMany(few.map((b) => ({ bytes: b, backup: true })));
    expect(readdirSync(join(dir, "blobs"))).not.toContain("packs");
    // The same blobs again plus PACK_MIN - 1 new: still under the bound for a pack.
    store.putMany(
      [...few, ...versions(PACK_MIN - 1, "w")].map((b) => ({ bytes: b, backup: false })),
    );
    expect(readdirSync(join(dir, "blobs"))).not.toContain("packs");
    expect(store.list()).toHaveLength(2 * (PACK_MIN - 1));
  });

  it("bounds a pack's size: a blob over 4 MiB stays loose, and past 32 MiB a new pack begins", () => {
    const dir = tempDir();
    const store = new BlobStore(join(dir, "blobs"));
    const mib = (n: number, fill: number) => new Uint8Array(n * 1024 * 1024).fill(fill);
    const big = mib(5, 1);
    const mid = Array.from({ length: 12 }, (_, i) => mib(3, 10 + i)); // 36 MiB
    const shas = store.putMany([big, ...mid].map((b) => ({ bytes: b, backup: true })));
    // 10 of the 3 MiB blobs fill the first 32 MiB pack; the 2 left are too few for one.
    expect(packFiles(dir)).toHaveLength(1);
    expect(new Set(blobFiles(dir).keys())).toEqual(new Set([shas[0], shas[11], shas[12]]));
    for (const [k, sha] of shas.entries()) {
      expect(Buffer.from(store.get(sha)!).equals(Buffer.from([big, ...mid][k]!))).toBe(true);
    }
  });

  it("a damaged pack gives no wrong bytes: cut short, or its index garbled", () => {
    const dir = tempDir();
    const store = new BlobStore(join(dir, "blobs"));
    const shas = store.putMany(versions(PACK_MIN).map((b) => ({ bytes: b, backup: false })));
    const [pack] = readdirSync(join(dir, "blobs", "packs")).map((n) =>
      join(dir, "blobs", "packs", n),
    );
    const whole = readFileSync(pack!);
    truncateSync(pack!, whole.length - 5); // the last blob loses its tail
    const cut = new BlobStore(join(dir, "blobs"));
    expect(cut.get(shas[0]!)).toBeDefined();
    expect(cut.get(shas.at(-1)!)).toBeUndefined();
    writeFileSync(pack!, Buffer.concat([Buffer.from("splice-pack 1 99999\n[[garbage"), whole]));
    const garbled = new BlobStore(join(dir, "blobs"));
    for (const sha of shas) expect(garbled.get(sha)).toBeUndefined();
    expect(garbled.list()).toEqual([]);
  });

  it("a backup found in a pack is checked: a damaged one is written again, loose", () => {
    const dir = tempDir();
    const store = new BlobStore(join(dir, "blobs"));
    const items = versions(PACK_MIN);
    const shas = store.putMany(items.map((b) => ({ bytes: b, backup: false })));
    const [pack] = readdirSync(join(dir, "blobs", "packs")).map((n) =>
      join(dir, "blobs", "packs", n),
    );
    const whole = readFileSync(pack!);
    writeFileSync(pack!, whole.subarray(0, whole.length - items.at(-1)!.length)); // a power loss
    expect(store.put(items[0]!, true)).toBe(shas[0]); // intact: kept where it is
    expect(store.put(items.at(-1)!, true)).toBe(shas.at(-1));
    expect([...blobFiles(dir).keys()]).toEqual([shas.at(-1)]);
    expect(Buffer.from(store.get(shas.at(-1)!)!)).toEqual(Buffer.from(items.at(-1)!));
  });

  it("collection removes a pack whole, first storing its referenced blobs loose", () => {
    const history = openHistory({ maxEntries: 1000 });
    const one = recordBatch(history, PACK_MIN, "one");
    const two = recordBatch(history, PACK_MIN, "two", one.afters); // the same files again
    expect(packFiles(history.dir)).toHaveLength(2);
    // A tight instance keeps each file's newest write: batch one's befores are no longer named.
    const tight = History.open({ dir: history.dir, session: "s1", maxEntries: PACK_MIN });
    ageBlobs(history.dir);
    const before = tight.stats();
    const result = tight.collect();
    expect(result.removedBlobs).toBe(PACK_MIN);
    expect(result.freedBytes).toBe(one.befores.reduce((n, b) => n + b.length, 0));
    expect(tight.stats().bytes).toBe(before.bytes - result.freedBytes);
    // Pack one is gone; its still-named blobs (batch one's afters) are loose now.
    expect(packFiles(history.dir)).toHaveLength(1);
    expect(new Set(blobFiles(history.dir).keys())).toEqual(new Set(one.afters.map(sha256)));
    for (const [i, after] of two.afters.entries()) {
      expect(tight.versions(`f${i}.txt`).map((v) => v.sha)).toEqual([
        sha256(after),
        sha256(one.afters[i]!),
      ]);
      for (const v of tight.versions(`f${i}.txt`)) expect(tight.getBlob(v.sha)).toBeDefined();
    }
    for (const b of one.befores) expect(tight.getBlob(sha256(b))).toBeUndefined();
  });

  it("collection keeps a pack younger than its start, and an old one whose blobs are all referenced", () => {
    const history = openHistory({ maxEntries: 1000 });
    recordBatch(history, PACK_MIN, "one");
    const tight = History.open({ dir: history.dir, session: "s1", maxEntries: 3 });
    expect(tight.collect()).toEqual({ removedBlobs: 0, freedBytes: 0 }); // dead blobs, but young
    expect(packFiles(history.dir)).toHaveLength(1);
    const roomy = openHistory({ maxEntries: 1000 });
    recordBatch(roomy, PACK_MIN, "two");
    ageBlobs(roomy.dir);
    expect(roomy.collect()).toEqual({ removedBlobs: 0, freedBytes: 0 }); // old, all referenced
    expect(packFiles(roomy.dir)).toHaveLength(1);
  });
});
