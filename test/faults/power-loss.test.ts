/**
 * Power loss, simulated at the file-system level: real writes on a real
 * temp dir, while the sync probe (util/durable.ts) records what each fsync
 * made durable — a file's bytes, a folder's entries — once it has finished.
 * A crash image is then built from that record alone, the way a disk might
 * come back: in history (`.splice`) only what was fsynced, names included;
 * in the project the worst case for the user, every rename kept but a file's
 * bytes only as last fsynced (empty when never). Every version a write
 * replaced must be in the image's history and restorable.
 */
import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { History } from "../../src/history/history.js";
import { createToolkit } from "../../src/toolkit/index.js";
import { type Durability, durabilityOf, syncProbe } from "../../src/util/durable.js";

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const inode = (st: { dev: number; ino: number }) => `${st.dev}:${st.ino}`;

/** What the disk would keep: bytes per inode, entries per folder inode, as of each finished fsync. */
class Disk {
  readonly files = new Map<string, Buffer>();
  readonly folders = new Map<string, Map<string, string>>();

  constructor(readonly root: string) {}

  /** Everything now on the disk counts as durable (a `sync` before the test). */
  checkpoint(dir = this.root): void {
    this.record(dir, true)();
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (lstatSync(path).isDirectory()) this.checkpoint(path);
      else this.record(path, false)();
    }
  }

  /** A snapshot taken as the fsync starts, kept once it finishes. */
  record(path: string, folder: boolean): () => void {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return () => {};
    }
    const key = inode(statSync(real));
    if (folder) {
      const entries = new Map<string, string>();
      for (const name of readdirSync(real)) entries.set(name, inode(lstatSync(join(real, name))));
      return () => this.folders.set(key, entries);
    }
    const bytes = readFileSync(real);
    return () => this.files.set(key, bytes);
  }

  /** The crash image, written to `image`. */
  crash(image: string): void {
    mkdirSync(image, { recursive: true });
    for (const name of readdirSync(this.root)) {
      const path = join(this.root, name);
      if (name === ".splice") this.#strict(inode(statSync(path)), join(image, name));
      else this.#renamesKept(path, join(image, name));
    }
  }

  /** Only names and bytes that were fsynced. */
  #strict(folder: string, to: string): void {
    mkdirSync(to, { recursive: true });
    for (const [name, key] of this.folders.get(folder) ?? []) {
      if (name === "locks") continue; // lock files are links, and a crash's locks are stale
      if (this.folders.has(key) || name === "blobs" || /^[0-9a-f]{2}$/.test(name)) {
        this.#strict(key, join(to, name));
      } else if (!name.startsWith(".tmp-")) {
        writeFileSync(join(to, name), this.files.get(key) ?? Buffer.alloc(0));
      }
    }
  }

  /** Today's names, each file's bytes as last fsynced. */
  #renamesKept(path: string, to: string): void {
    const st = lstatSync(path);
    if (st.isDirectory()) {
      mkdirSync(to, { recursive: true });
      for (const name of readdirSync(path)) this.#renamesKept(join(path, name), join(to, name));
    } else if (!path.includes(".splice-tmp")) {
      writeFileSync(to, this.files.get(inode(st)) ?? Buffer.alloc(0));
    }
  }
}

const dirs: string[] = [];
afterEach(() => {
  syncProbe.onSync = undefined;
  syncProbe.hold = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Replaced {
  path: string;
  bytes: Buffer;
  tag: string;
}

/** Edits that replace versions splice read just before, and versions it wrote itself. */
async function run(durable: Durability, check: (disk: Disk, replaced: Replaced[]) => void) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "splice-power-")));
  dirs.push(root);
  const files = ["a.txt", "b.txt", "sub/c.txt"];
  mkdirSync(join(root, "sub"));
  for (const f of files) writeFileSync(join(root, f), `${f} as the user left it\nline 2\n`);
  const disk = new Disk(root);
  disk.checkpoint();
  syncProbe.onSync = (path, folder) => disk.record(path, folder);
  // A slow disk: background fsyncs are still running when the next edit comes.
  syncProbe.hold = () => new Promise((resolve) => setTimeout(resolve, 15));
  const toolkit = createToolkit({ root, durable, validate: false, history: { session: "power" } });
  const replaced: Replaced[] = [];
  for (let i = 0; i < 12; i++) {
    const path = files[i % files.length]!;
    const read = (await toolkit.call("read", { targets: [{ path }] })) as {
      results: { file_hash: string }[];
    };
    let tag = read.results[0]!.file_hash;
    for (let k = 0; k < 2; k++) {
      const bytes = readFileSync(join(root, path));
      const ops = `replace 2:\n+edit ${i}.${k}`;
      const edited = (await toolkit.call("edit", { targets: [{ path, file_hash: tag, ops }] })) as {
        results: { file_hash: string }[];
      };
      replaced.push({ path, bytes, tag });
      tag = edited.results[0]!.file_hash;
      check(disk, replaced); // the power goes out right after this result
    }
  }
  await toolkit.flush();
  return { root, disk, toolkit, files };
}

function image(disk: Disk): string {
  const at = mkdtempSync(join(tmpdir(), "splice-power-image-"));
  dirs.push(at);
  disk.crash(at);
  return at;
}

/** Every replaced version is in the image's history: its blob whole, a journal line naming it. */
function backedUp(disk: Disk, replaced: Replaced[]): void {
  const at = image(disk);
  const history = History.open({ dir: join(at, ".splice"), session: "after-crash" });
  for (const r of replaced) {
    const where = `${r.path} before ${r.tag}`;
    expect(history.getBlob(sha(r.bytes)), where).toBeDefined();
    expect(
      history.versions(r.path).some((v) => v.sha === sha(r.bytes)),
      where,
    ).toBe(true);
  }
}

describe("power loss", () => {
  it("modes: relaxed by default, true is full, SPLICE_DURABLE=full and 0", () => {
    expect(durabilityOf(undefined, undefined)).toBe("relaxed");
    expect(durabilityOf(true, "0")).toBe("full");
    expect(durabilityOf(false, "full")).toBe("none");
    expect(durabilityOf(undefined, "full")).toBe("full");
    expect(durabilityOf(undefined, "0")).toBe("none");
    expect(durabilityOf("relaxed", "full")).toBe("relaxed");
  });

  for (const durable of ["relaxed", "full"] as const) {
    it(`${durable}: no file is replaced before its old version is durable in history`, async () => {
      await run(durable, backedUp);
    });
  }

  // A batch's backups go into one pack (history/packs.ts), synced once before any file moves.
  for (const durable of ["relaxed", "full"] as const) {
    it(`${durable}: a 12-file change, crashed as it returns, has every replaced version in history`, async () => {
      const root = realpathSync(mkdtempSync(join(tmpdir(), "splice-power-batch-")));
      dirs.push(root);
      const replaced: Replaced[] = [];
      for (let i = 0; i < 12; i++) {
        const path = `f${i}.ts`;
        writeFileSync(join(root, path), `expect(f(${i})).toBe(${i});\n`);
        replaced.push({ path, bytes: readFileSync(join(root, path)), tag: "(unread)" });
      }
      const disk = new Disk(root);
      disk.checkpoint();
      syncProbe.onSync = (path, folder) => disk.record(path, folder);
      syncProbe.hold = () => new Promise((resolve) => setTimeout(resolve, 15));
      const toolkit = createToolkit({
        root,
        durable,
        validate: false,
        history: { session: "power" },
      });
      const ops = [{ pat: "expect($A).toBe($B)", out: "expect($A).toStrictEqual($B)" }];
      const result = (await toolkit.call("ast_edit", { ops, paths: ["."], validate: false })) as {
        files_changed: number;
      };
      expect(result.files_changed).toBe(12);
      const packs = readdirSync(join(root, ".splice", "blobs", "packs"));
      expect(packs.filter((n) => n.endsWith(".pack"))).toHaveLength(1);
      backedUp(disk, replaced); // the power goes out right after this result
      await toolkit.flush();
    });
  }

  it("relaxed: after a crash the user's version is restored by rollback; after flush, nothing is lost", async () => {
    const { root, disk, files } = await run("relaxed", () => {});
    // flush() made the new bytes and their names durable: the strict image is today's tree.
    const at = image(disk);
    for (const f of files) {
      expect(readFileSync(join(at, f), "utf8")).toBe(readFileSync(join(root, f), "utf8"));
    }
    const crashed = createToolkit({ root: at, validate: false, history: { session: "restore" } });
    const original = "a.txt as the user left it\nline 2\n";
    const tag = History.open({ dir: join(at, ".splice"), session: "x" })
      .versions("a.txt")
      .find((v) => v.sha === sha(Buffer.from(original)))!.tag;
    await crashed.call("rollback", { path: "a.txt", hash: tag });
    expect(readFileSync(join(at, "a.txt"), "utf8")).toBe(original);
    await crashed.flush();
  });

  it("full: after a crash undo restores the last change it knows landed", async () => {
    let at = "";
    await run("full", (disk, replaced) => {
      if (replaced.length === 5) at = image(disk);
    });
    const crashed = createToolkit({ root: at, validate: false, history: { session: "power" } });
    // The fifth edit's completion mark is appended unsynced, so undo's pick is
    // the fourth: b.txt's second edit, which replaced the version of its first.
    await crashed.call("undo", { path: "b.txt" });
    expect(readFileSync(join(at, "b.txt"), "utf8")).toBe("b.txt as the user left it\nedit 1.0\n");
  });
});
