import { createHash } from "node:crypto";
import { readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isSha } from "../../src/history/blob-files.js";
import { BlobStore } from "../../src/history/blobs.js";
import { sha256 as sha256Hex } from "../../src/util/hash.js";
import { blobFiles, bytes, openHistory, tempDir } from "./helpers.js";

describe("blobs", () => {
  it("round-trips bytes under blobs/<2 hex>/<62 hex> named by SHA-256", () => {
    const history = openHistory();
    const data = bytes("hello\r\nworld\u00e9");
    const sha = history.putBlob(data);
    expect(sha).toBe(createHash("sha256").update(data).digest("hex"));
    expect(isSha(sha)).toBe(true);
    expect(statSync(join(history.dir, "blobs", sha.slice(0, 2), sha.slice(2))).size).toBe(
      data.length,
    );
    expect(Buffer.from(history.getBlob(sha)!)).toEqual(Buffer.from(data));
  });

  it("stores binary and empty content", () => {
    const history = openHistory();
    const binary = new Uint8Array([0, 255, 10, 13, 0]);
    expect(history.getBlob(history.putBlob(binary))).toEqual(binary);
    const empty = history.putBlob(new Uint8Array());
    expect(empty).toBe(sha256Hex(new Uint8Array()));
    expect(history.getBlob(empty)).toEqual(new Uint8Array());
  });

  it("is idempotent and refreshes the mtime of a blob stored again", () => {
    const history = openHistory();
    const sha = history.putBlob(bytes("same"));
    const path = blobFiles(history.dir).get(sha)!;
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(path, past, past);
    expect(history.putBlob(bytes("same"), true)).toBe(sha);
    expect(history.putBlob(bytes("same"))).toBe(sha);
    expect([...blobFiles(history.dir).keys()]).toEqual([sha]);
    expect(statSync(path).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
    expect(readdirSync(join(history.dir, "blobs", sha.slice(0, 2)))).toEqual([sha.slice(2)]);
  });

  it("durable puts leave no temp files", () => {
    const history = openHistory();
    for (let i = 0; i < 20; i++) history.putBlob(bytes(`v${i % 5}`), true);
    const names = readdirSync(join(history.dir, "blobs")).flatMap((d) =>
      readdirSync(join(history.dir, "blobs", d)),
    );
    expect(names).toHaveLength(5);
    expect(names.every((n) => /^[0-9a-f]{62}$/.test(n))).toBe(true);
  });

  it("rewrites a damaged blob on a durable put", () => {
    const history = openHistory();
    const sha = history.putBlob(bytes("precious"));
    for (const damage of ["", "PRECIOUS"]) {
      // Emptied (a power loss), or the same size with other bytes (anything else).
      writeFileSync(blobFiles(history.dir).get(sha)!, damage);
      expect(history.getBlob(sha)).toBeUndefined();
      history.putBlob(bytes("precious"), true);
      expect(Buffer.from(history.getBlob(sha)!).toString()).toBe("precious");
    }
  });

  it("returns undefined for unknown, malformed or corrupted blobs", () => {
    const history = openHistory();
    expect(history.getBlob("0".repeat(64))).toBeUndefined();
    expect(history.getBlob("../../etc/passwd")).toBeUndefined();
    expect(history.getBlob("ABC")).toBeUndefined();
    const sha = history.putBlob(bytes("original"));
    writeFileSync(blobFiles(history.dir).get(sha)!, "tampered");
    expect(history.getBlob(sha)).toBeUndefined();
  });

  it("keeps a blob whose mtime is newer than the cutoff and removes an old one", () => {
    const store = new BlobStore(join(tempDir(), "blobs"));
    const young = store.put(bytes("young"));
    const old = store.put(bytes("old"));
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(store.pathOf(old), past, past);
    const cutoff = Date.now() - 60_000;
    expect(store.removeIfOlder(young, cutoff)).toBeUndefined();
    expect(store.removeIfOlder(old, cutoff)).toBe(3);
    expect(store.has(young)).toBe(true);
    expect(store.has(old)).toBe(false);
    expect(store.list().map((b) => b.sha)).toEqual([young]);
  });
});
