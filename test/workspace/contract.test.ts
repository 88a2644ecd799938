import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { promises as fs, lstatSync, mkdtempSync, readlinkSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalWorkspace, MemoryWorkspace, type Workspace } from "../../src/index.js";
import { OverlayWorkspace } from "../../src/workspace/overlay.js";
import { RemoteWorkspace } from "../../src/workspace/remote/remote-workspace.js";
import { Transport } from "../../src/workspace/remote/transport.js";
import { type Sshd, sshdMissing, startSshd } from "../helpers/sshd.js";

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (s: string) => new TextEncoder().encode(s);

interface Fixture {
  workspace: Workspace;
  dir: string;
  /** Plants a file that was there before the workspace opened (for an overlay: in its base). */
  seed(rel: string, content: string, mode?: number): Promise<void>;
}

/** A real temp folder, planted with plain fs calls. */
function tempDir(): { dir: string; seed: Fixture["seed"] } {
  const dir = mkdtempSync(join(tmpdir(), "splice-ws-"));
  const seed = async (rel: string, content: string, mode = 0o644) => {
    await fs.mkdir(dirname(join(dir, rel)), { recursive: true });
    await fs.writeFile(join(dir, rel), content);
    await fs.chmod(join(dir, rel), mode);
  };
  return { dir, seed };
}

/** A MemoryWorkspace at /mem, planted through its own writes. */
function memory(): { workspace: MemoryWorkspace; dir: string; seed: Fixture["seed"] } {
  const workspace = new MemoryWorkspace();
  const seed = (rel: string, content: string, mode?: number) =>
    workspace.writeFile(join("/mem", rel), bytes(content), { mode });
  return { workspace, dir: "/mem", seed };
}

const implementations: [string, () => Fixture][] = [
  [
    "LocalWorkspace",
    () => {
      const { dir, seed } = tempDir();
      return { workspace: new LocalWorkspace({ confineTo: dir }), dir, seed };
    },
  ],
  ["MemoryWorkspace", memory],
  [
    "OverlayWorkspace over LocalWorkspace",
    () => {
      const { dir, seed } = tempDir();
      return { workspace: new OverlayWorkspace(new LocalWorkspace({ confineTo: dir })), dir, seed };
    },
  ],
  [
    "OverlayWorkspace over MemoryWorkspace",
    () => {
      const base = memory();
      return { ...base, workspace: new OverlayWorkspace(base.workspace) };
    },
  ],
];

/** Why the contract does not run over a real sshd here (under CI it must: this throws). */
const noSshd = sshdMissing();
let sshd: Sshd | undefined;
let sshTransport: Transport | undefined;
beforeAll(async () => {
  if (noSshd) return;
  sshd = await startSshd();
  sshTransport = new Transport("box", sshd.ssh);
}, 30_000);
afterAll(async () => {
  await sshTransport?.close();
  await sshd?.stop();
});

/** A RemoteWorkspace confined to a real temp folder, reached through `transport`. */
function remote(transport: () => Transport): Fixture {
  const { dir, seed } = tempDir();
  return { workspace: new RemoteWorkspace(transport(), { confineTo: dir }), dir, seed };
}

implementations.push([
  "RemoteWorkspace over a local transport (sh -c)",
  () => remote(() => new Transport("local", ["sh", "-c"])),
]);
if (!noSshd) {
  implementations.push([
    "RemoteWorkspace over a real OpenSSH server",
    () => remote(() => sshTransport!),
  ]);
} else {
  describe.skip(`RemoteWorkspace over a real OpenSSH server: skipped, ${noSshd}`, () => {
    it("runs the workspace contract", () => {});
  });
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const byName = (entries: { name: string }[]) =>
  [...entries].sort((a, b) => a.name.localeCompare(b.name));

describe.each(implementations)("%s (workspace contract)", (_name, make) => {
  it("writes, reads back and stats a file, creating parents", async () => {
    const { workspace, dir } = make();
    const path = join(dir, "a/b/c.txt");
    await workspace.writeFile(path, bytes("hello\n"));
    expect(text(await workspace.readFile(path))).toBe("hello\n");
    expect(await workspace.stat(path)).toMatchObject({ kind: "file", size: 6 });
    expect(await workspace.stat(join(dir, "a/b"))).toMatchObject({ kind: "directory" });
  });

  it("reports a missing file with kind 'missing' and stat undefined", async () => {
    const { workspace, dir } = make();
    await expect(workspace.readFile(join(dir, "nope"))).rejects.toMatchObject({ kind: "missing" });
    expect(await workspace.stat(join(dir, "nope"))).toBeUndefined();
  });

  it("keeps the mode of a file it overwrites and takes an explicit one", async () => {
    const { workspace, dir } = make();
    const path = join(dir, "run.sh");
    await workspace.writeFile(path, bytes("#!/bin/sh\n"), { mode: 0o755 });
    await workspace.writeFile(path, bytes("#!/bin/sh\necho hi\n"));
    expect((await workspace.stat(path))?.mode).toBe(0o755);
  });

  it("writes only while the file is still the expected version (compare-and-swap)", async () => {
    const { workspace, dir } = make();
    const path = join(dir, "cas.txt");
    const sha = (s: string) => createHash("sha256").update(s).digest("hex");
    expect(await workspace.writeIf(path, bytes("v1"), sha("other"))).toBe(false);
    expect(await workspace.stat(path)).toBeUndefined();
    expect(await workspace.writeIf(path, bytes("v1"), null)).toBe(true);
    expect(await workspace.writeIf(path, bytes("v2"), null)).toBe(false);
    let recorded = false;
    const ok = await workspace.writeIf(path, bytes("v2"), sha("v1"), {
      beforeReplace: () => {
        recorded = true;
      },
    });
    expect([ok, recorded, text(await workspace.readFile(path))]).toEqual([true, true, "v2"]);
    expect(await workspace.writeIf(path, bytes("v3"), sha("v1"))).toBe(false);
    expect(text(await workspace.readFile(path))).toBe("v2");
  });

  it("replaces the file only after an async beforeReplace settles, and not when it fails", async () => {
    const { workspace, dir } = make();
    const path = join(dir, "history-first.txt");
    await workspace.writeFile(path, bytes("v1"));
    const sha = (s: string) => createHash("sha256").update(s).digest("hex");
    let seenDuring = "";
    const ok = await workspace.writeIf(path, bytes("v2"), sha("v1"), {
      beforeReplace: async () => {
        await new Promise((r) => setTimeout(r, 5));
        seenDuring = text(await workspace.readFile(path));
      },
    });
    expect([ok, seenDuring, text(await workspace.readFile(path))]).toEqual([true, "v1", "v2"]);
    const failed = workspace.writeIf(path, bytes("v3"), sha("v2"), {
      beforeReplace: async () => {
        throw new Error("history is full");
      },
    });
    await expect(failed).rejects.toThrow("history is full");
    const thrown = workspace.writeIf(path, bytes("v3"), sha("v2"), {
      beforeReplace: () => {
        throw new Error("thrown, not rejected");
      },
    });
    await expect(thrown).rejects.toThrow("thrown, not rejected");
    expect(text(await workspace.readFile(path))).toBe("v2");
    expect((await workspace.readDir(dir)).map((e) => e.name)).toEqual(["history-first.txt"]);
  });

  it("runs exclusive steps on one path one at a time", async () => {
    const { workspace, dir } = make();
    const path = join(dir, "x.txt");
    const order: string[] = [];
    const step = (name: string) => async () => {
      order.push(`${name}:start`);
      await new Promise((r) => setTimeout(r, 10));
      order.push(`${name}:end`);
    };
    await Promise.all([workspace.exclusive(path, step("a")), workspace.exclusive(path, step("b"))]);
    expect(order).toEqual(["a:start", "a:end", "b:start", "b:end"]);
  });

  it("lists a folder and removes files idempotently", async () => {
    const { workspace, dir } = make();
    await workspace.writeFile(join(dir, "x/one.txt"), bytes("1"));
    await workspace.writeFile(join(dir, "x/sub/two.txt"), bytes("2"));
    const entries = await workspace.readDir(join(dir, "x"));
    expect(entries.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "one.txt", kind: "file" },
      { name: "sub", kind: "directory" },
    ]);
    await workspace.remove(join(dir, "x/one.txt"));
    await workspace.remove(join(dir, "x/one.txt"));
    expect(await workspace.stat(join(dir, "x/one.txt"))).toBeUndefined();
  });

  it("reads, stats and lists files that were there before it opened", async () => {
    const { workspace, dir, seed } = make();
    await seed("a/run.sh", "#!/bin/sh\n", 0o755);
    await seed("a/sub/two.txt", "2\n");
    expect(text(await workspace.readFile(join(dir, "a/run.sh")))).toBe("#!/bin/sh\n");
    expect(await workspace.stat(join(dir, "a/run.sh"))).toMatchObject({
      kind: "file",
      size: 10,
      mode: 0o755,
    });
    expect(await workspace.stat(join(dir, "a/sub"))).toMatchObject({ kind: "directory" });
    expect(byName(await workspace.readDir(join(dir, "a")))).toEqual([
      { name: "run.sh", kind: "file" },
      { name: "sub", kind: "directory" },
    ]);
  });

  it("overwrites a file that was there by compare-and-swap, keeping its mode", async () => {
    const { workspace, dir, seed } = make();
    await seed("run.sh", "v1\n", 0o755);
    const path = join(dir, "run.sh");
    expect(await workspace.writeIf(path, bytes("v2\n"), null)).toBe(false);
    expect(await workspace.writeIf(path, bytes("v2\n"), sha("v1\n"))).toBe(true);
    expect(await workspace.writeIf(path, bytes("v3\n"), sha("v1\n"))).toBe(false);
    expect(text(await workspace.readFile(path))).toBe("v2\n");
    expect(await workspace.stat(path)).toMatchObject({ kind: "file", size: 3, mode: 0o755 });
  });

  it("removes a file that was there from reads, stats and listings", async () => {
    const { workspace, dir, seed } = make();
    await seed("x/keep.txt", "keep\n");
    await seed("x/gone.txt", "gone\n", 0o755);
    const gone = join(dir, "x/gone.txt");
    await workspace.remove(gone);
    expect(await workspace.stat(gone)).toBeUndefined();
    await expect(workspace.readFile(gone)).rejects.toMatchObject({ kind: "missing" });
    expect(await workspace.readDir(join(dir, "x"))).toEqual([{ name: "keep.txt", kind: "file" }]);
    expect(await workspace.writeIf(gone, bytes("back\n"), sha("gone\n"))).toBe(false);
    expect(await workspace.writeIf(gone, bytes("back\n"), null)).toBe(true);
    // A file made anew gets the default mode, not the removed file's.
    expect(await workspace.stat(gone)).toMatchObject({ kind: "file", mode: 0o644 });
  });

  it("refuses to read a folder as a file, and keeps a folder a write lands on", async () => {
    const { workspace, dir, seed } = make();
    await seed("old/f.txt", "old\n");
    await workspace.writeFile(join(dir, "new/f.txt"), bytes("new\n"));
    for (const folder of ["old", "new"]) {
      await expect(workspace.readFile(join(dir, folder))).rejects.toMatchObject({
        kind: "is_directory",
      });
      await expect(workspace.writeFile(join(dir, folder), bytes("x"))).rejects.toThrow();
      expect(text(await workspace.readFile(join(dir, folder, "f.txt")))).toBe(`${folder}\n`);
    }
  });

  it("removes a file only while it still holds the expected version (compare-and-remove)", async () => {
    const { workspace, dir, seed } = make();
    await seed("x/f.txt", "v1\n", 0o755);
    const path = join(dir, "x/f.txt");
    expect(await workspace.removeIf(path, sha("other\n"))).toBe(false);
    expect(text(await workspace.readFile(path))).toBe("v1\n");
    expect(await workspace.stat(path)).toMatchObject({ kind: "file", mode: 0o755 });
    expect(await workspace.readDir(join(dir, "x"))).toEqual([{ name: "f.txt", kind: "file" }]);
    expect(await workspace.removeIf(path, sha("v1\n"))).toBe(true);
    expect(await workspace.stat(path)).toBeUndefined();
    expect(await workspace.removeIf(path, sha("v1\n"))).toBe(false);
    expect(await workspace.removeIf(join(dir, "ghost/f.txt"), sha("v1\n"))).toBe(false);
    expect(await workspace.readDir(join(dir, "x")).catch(() => [])).toEqual([]);
  });

  it("reports a folder that does not exist as missing, also after a remove in it", async () => {
    const { workspace, dir } = make();
    const ghost = join(dir, "ghost");
    await expect(workspace.readDir(ghost)).rejects.toMatchObject({ kind: "missing" });
    await workspace.remove(join(ghost, "f.txt"));
    await expect(workspace.readDir(ghost)).rejects.toMatchObject({ kind: "missing" });
    expect(await workspace.stat(ghost)).toBeUndefined();
  });

  // What a workspace declares beyond bytes (capabilities, shell) is what tools rely on.
  it("declares only the capabilities it has, and its files are this machine's when it says so", async () => {
    const { workspace, dir } = make();
    const declared = workspace.capabilities ?? {};
    expect(Object.keys(declared).every((k) => ["localFiles", "statWalk"].includes(k))).toBe(true);
    if (!declared.localFiles) return;
    const path = join(dir, "local/seen.txt");
    await workspace.writeFile(path, bytes("written\n"));
    expect(await fs.readFile(path, "utf8")).toBe("written\n");
    await fs.writeFile(join(dir, "local/made.txt"), "outside\n");
    expect(text(await workspace.readFile(join(dir, "local/made.txt")))).toBe("outside\n");
  });

  it("walks a tree by readDir and stat when it declares statWalk", async () => {
    const { workspace, dir } = make();
    if (!workspace.capabilities?.statWalk) return;
    await workspace.writeFile(join(dir, "tree/a.txt"), bytes("a"));
    await workspace.writeFile(join(dir, "tree/sub/b.txt"), bytes("bb"));
    const sizes: Record<string, number> = {};
    const walk = async (folder: string, rel: string): Promise<void> => {
      for (const entry of await workspace.readDir(folder)) {
        const path = join(folder, entry.name);
        if (entry.kind === "directory") await walk(path, `${rel}${entry.name}/`);
        else sizes[`${rel}${entry.name}`] = (await workspace.stat(path))!.size;
      }
    };
    await walk(join(dir, "tree"), "");
    expect(sizes).toEqual({ "a.txt": 1, "sub/b.txt": 2 });
  });

  it("runs a command and a process where its files are when it has a shell", async () => {
    const { workspace, dir } = make();
    const { shell } = workspace;
    if (!shell) return;
    expect(shell.host).not.toBe("");
    await workspace.writeFile(join(dir, "there.txt"), bytes("on that side\n"));
    const chunks: Buffer[] = [];
    const outcome = await shell.runCommand({
      command: "cat there.txt; printf made > made.txt; exit 3",
      cwd: dir,
      timeoutMs: 20_000,
      graceMs: 500,
      onOutput: (chunk) => chunks.push(chunk),
    });
    expect(outcome).toEqual({ exitCode: 3, signal: null, timedOut: false });
    expect(Buffer.concat(chunks).toString()).toBe("on that side\n");
    expect(text(await workspace.readFile(join(dir, "made.txt")))).toBe("made");
    const child = await shell.spawn(dir, "cat made.txt");
    const out: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    await new Promise((resolve) => child.on("close", resolve));
    expect(Buffer.concat(out).toString()).toBe("made");
  });
});

const bases: [string, () => { base: Workspace; dir: string; seed: Fixture["seed"] }][] = [
  [
    "a LocalWorkspace",
    () => {
      const { dir, seed } = tempDir();
      return { base: new LocalWorkspace({ confineTo: dir }), dir, seed };
    },
  ],
  [
    "a MemoryWorkspace",
    () => {
      const { workspace, dir, seed } = memory();
      return { base: workspace, dir, seed };
    },
  ],
];

describe.each(bases)("OverlayWorkspace over %s (a dry run's view)", (_name, make) => {
  it("shows a write through the overlay and leaves the base without it", async () => {
    const { base, dir, seed } = make();
    await seed("src/a.txt", "base\n");
    const overlay = new OverlayWorkspace(base);
    await overlay.writeFile(join(dir, "src/a.txt"), bytes("dry\n"));
    await overlay.writeFile(join(dir, "src/new/b.txt"), bytes("new\n"));

    expect(text(await overlay.readFile(join(dir, "src/a.txt")))).toBe("dry\n");
    expect(text(await overlay.readFile(join(dir, "src/new/b.txt")))).toBe("new\n");
    expect(byName(await overlay.readDir(join(dir, "src")))).toEqual([
      { name: "a.txt", kind: "file" },
      { name: "new", kind: "directory" },
    ]);

    expect(text(await base.readFile(join(dir, "src/a.txt")))).toBe("base\n");
    expect(await base.stat(join(dir, "src/new"))).toBeUndefined();
    expect(await base.readDir(join(dir, "src"))).toEqual([{ name: "a.txt", kind: "file" }]);
    expect(overlay.changes().map(([path, b]) => [path, b && text(b)])).toEqual([
      [join(dir, "src/a.txt"), "dry\n"],
      [join(dir, "src/new/b.txt"), "new\n"],
    ]);
  });

  it("hides a base file a delete through the overlay removes, and keeps it in the base", async () => {
    const { base, dir, seed } = make();
    await seed("src/a.txt", "keep me\n");
    await seed("src/other.txt", "other\n");
    const overlay = new OverlayWorkspace(base);
    const path = join(dir, "src/a.txt");
    await overlay.remove(path);

    expect(await overlay.stat(path)).toBeUndefined();
    await expect(overlay.readFile(path)).rejects.toMatchObject({ kind: "missing" });
    expect(await overlay.readDir(join(dir, "src"))).toEqual([{ name: "other.txt", kind: "file" }]);

    expect(text(await base.readFile(path))).toBe("keep me\n");
    expect(byName(await base.readDir(join(dir, "src"))).map((e) => e.name)).toEqual([
      "a.txt",
      "other.txt",
    ]);
    expect(overlay.changes()).toEqual([[path, null]]);
  });

  it("reads a base file changed after the overlay opened, until the overlay writes it", async () => {
    const { base, dir, seed } = make();
    const overlay = new OverlayWorkspace(base);
    await seed("late.txt", "late\n");
    expect(text(await overlay.readFile(join(dir, "late.txt")))).toBe("late\n");
    await overlay.writeFile(join(dir, "late.txt"), bytes("mine\n"));
    await seed("late.txt", "changed below\n");
    expect(text(await overlay.readFile(join(dir, "late.txt")))).toBe("mine\n");
  });
});

describe("LocalWorkspace on a real disk", () => {
  it("replaces a symlink instead of writing through it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-ws-"));
    const outside = mkdtempSync(join(tmpdir(), "splice-out-"));
    await fs.writeFile(join(outside, "target.txt"), "outside\n");
    symlinkSync(join(outside, "target.txt"), join(dir, "planted.txt"));
    await new LocalWorkspace({ confineTo: dir }).writeFile(
      join(dir, "planted.txt"),
      bytes("new\n"),
    );
    expect(await fs.readFile(join(outside, "target.txt"), "utf8")).toBe("outside\n");
    expect(lstatSync(join(dir, "planted.txt")).isSymbolicLink()).toBe(false);
    expect(await fs.readFile(join(dir, "planted.txt"), "utf8")).toBe("new\n");
  });

  it("refuses to write into a folder that was swapped for a link out of the root", async () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-ws-"));
    const outside = mkdtempSync(join(tmpdir(), "splice-out-"));
    symlinkSync(outside, join(dir, "sub"));
    const workspace = new LocalWorkspace({ confineTo: dir });
    await expect(workspace.writeFile(join(dir, "sub/f.txt"), bytes("x"))).rejects.toMatchObject({
      kind: "escape",
    });
    await expect(workspace.writeIf(join(dir, "sub/g.txt"), bytes("x"), null)).rejects.toMatchObject(
      {
        kind: "escape",
      },
    );
    expect(await fs.readdir(outside)).toEqual([]);
    expect(readlinkSync(join(dir, "sub"))).toBe(outside);
  });

  it("refuses to delete in a folder that was swapped for a link out of the root", async () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-ws-"));
    const outside = mkdtempSync(join(tmpdir(), "splice-out-"));
    await fs.writeFile(join(outside, "f.txt"), "outside\n");
    symlinkSync(outside, join(dir, "sub"));
    const workspace = new LocalWorkspace({ confineTo: dir });
    await expect(workspace.remove(join(dir, "sub/f.txt"))).rejects.toMatchObject({
      kind: "escape",
    });
    expect(await fs.readFile(join(outside, "f.txt"), "utf8")).toBe("outside\n");
    await workspace.remove(join(dir, "missing/f.txt")); // nothing there: nothing to do
  });

  it("writes a file whose name is near the 255-byte limit (the staged name stays short)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-ws-"));
    const workspace = new LocalWorkspace({ confineTo: dir });
    for (const name of [`${"n".repeat(251)}.txt`, `${"é".repeat(120)}.txt`]) {
      const path = join(dir, name);
      await workspace.writeFile(path, bytes("one\n"));
      const sha = createHash("sha256").update("one\n").digest("hex");
      expect(await workspace.writeIf(path, bytes("two\n"), sha)).toBe(true);
      expect(text(await workspace.readFile(path))).toBe("two\n");
    }
    expect(await fs.readdir(dir)).toHaveLength(2); // no staged files left
  });

  it("replaces a fifo at the target without blocking on it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-ws-"));
    const path = join(dir, "pipe");
    execFileSync("mkfifo", [path]);
    const workspace = new LocalWorkspace({ confineTo: dir });
    await workspace.writeFile(path, bytes("now a file\n"));
    expect(lstatSync(path).isFile()).toBe(true);
    expect(text(await workspace.readFile(path))).toBe("now a file\n");
  });

  it("leaves no temp files behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-ws-"));
    const workspace = new LocalWorkspace();
    for (let i = 0; i < 5; i++) await workspace.writeFile(join(dir, "f.txt"), bytes(`v${i}`));
    expect(await fs.readdir(dir)).toEqual(["f.txt"]);
  });
});
