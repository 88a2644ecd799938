import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../src/index.js";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { Project, rejection } from "../helpers/project.js";

/** Every file's bytes and mode, so a restore can be compared exactly. */
function tree(p: Project, rels: string[]): Map<string, [string, number]> {
  return new Map(rels.map((rel) => [rel, [p.bytes(rel).toString("base64"), p.mode(rel)]]));
}

// A remote root gets no checkpoint (its files are not walked): these need a local one.
describe.skipIf(process.env.SPLICE_TEST_REMOTE)("run checkpoints", () => {
  it("undoes a formatter-like script that rewrote 200 files, byte for byte with modes", async () => {
    const p = new Project();
    const rels: string[] = [];
    for (let i = 0; i < 200; i++) {
      const rel = `src/d${i % 7}/f${i}.ts`;
      const text = `export const v${i} = ${i};\r\n// keep\n${"x".repeat(i)}`;
      p.write(rel, i % 10 === 0 ? `#!/bin/sh\n${text}` : text, i % 10 === 0 ? 0o755 : 0o640);
      rels.push(rel);
    }
    p.write("untouched.txt", "same\n");
    const before = tree(p, rels);
    const s = p.splice();
    const ran = (await s.run({
      command: `find src -name '*.ts' -exec sh -c 'printf "// formatted\\n" >> "$1"' _ {} \\;`,
    })) as RunResult;
    expect(ran.exit_code).toBe(0);
    expect(ran.changed_files).toHaveLength(50);
    expect(ran.changed_files_more).toBe(150);
    expect(ran.changed_files![0]).toMatchObject({ kind: "changed", added: 1, removed: 0 });
    expect(ran.not_restorable).toBeUndefined();
    expect(ran.content).toContain(
      "[the command changed 200 files (0 created, 200 changed, 0 deleted); to put them back, undo backup session",
    );
    expect(p.text("src/d0/f0.ts")).toContain("// formatted");

    const undone = (await s.undo({ backup_session: ran.backup_session! })) as UndoResult;
    expect(undone.files).toHaveLength(200);
    expect(undone.files.every((f) => f.action === "restore")).toBe(true);
    expect(tree(p, rels)).toEqual(before);
    expect(p.text("untouched.txt")).toBe("same\n");
  });

  it("records what a command changed before it was stopped, so undo takes that back too", async () => {
    const p = new Project();
    p.write("victim.txt", "precious\n", 0o640);
    const s = p.splice();
    const controller = new AbortController();
    const call = s.call(
      "run",
      { command: "rm victim.txt; echo made > made.txt; sleep 60" },
      { signal: controller.signal },
    );
    while (!existsSync(join(p.root, "made.txt"))) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    const { sessions } = (await s.undo({ list: true })) as UndoResult & {
      sessions: { backup_session: string; note?: string }[];
    };
    const session = sessions.find((x) => x.note?.startsWith("run: rm victim.txt"));
    expect(session).toBeDefined();
    await s.undo({ backup_session: session!.backup_session });
    expect(p.text("victim.txt")).toBe("precious\n");
    expect(p.mode("victim.txt")).toBe(0o640);
    expect(existsSync(join(p.root, "made.txt"))).toBe(false);
  });

  it("brings back a folder removed with rm -rf", async () => {
    const p = new Project();
    p.write("keep.txt", "keep\n");
    for (let i = 0; i < 20; i++) {
      p.write(`build/out/n${i}.txt`, `line ${i}\n`.repeat(i + 1), i % 3 === 0 ? 0o750 : 0o604);
    }
    p.write("build/bin.dat", new Uint8Array([0, 1, 2, 255, 0, 13, 10]));
    const rels = [...Array.from({ length: 20 }, (_, i) => `build/out/n${i}.txt`), "build/bin.dat"];
    const before = tree(p, rels);
    const s = p.splice();
    const ran = (await s.run({ command: "rm -rf build" })) as RunResult;
    expect(existsSync(join(p.root, "build"))).toBe(false);
    expect(ran.changed_files).toHaveLength(21);
    expect(ran.changed_files!.every((f) => f.kind === "deleted")).toBe(true);
    expect(ran.changed_files!.find((f) => f.path === "build/out/n2.txt")).toMatchObject({
      added: 0,
      removed: 3,
    });

    const undone = (await s.undo({})) as UndoResult;
    expect(undone.undone).toBe(ran.backup_session);
    expect(tree(p, rels)).toEqual(before); // bytes and modes
    expect(p.text("keep.txt")).toBe("keep\n");
  });

  it("removes what a command created, and reports a file changed again since", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    const s = p.splice();
    const ran = (await s.run({
      command:
        "mkdir -p gen && echo one > gen/one.txt && echo two > gen/two.txt && echo b >> a.txt",
    })) as RunResult;
    expect(ran.changed_files).toEqual([
      { path: "a.txt", kind: "changed", added: 1, removed: 0 },
      { path: "gen/one.txt", kind: "created", added: 1, removed: 0 },
      { path: "gen/two.txt", kind: "created", added: 1, removed: 0 },
    ]);
    writeFileSync(join(p.root, "gen/two.txt"), "edited by hand\n");
    // A created file changed since is a conflict: nothing of the command is undone...
    const refused = await rejection(s.undo({ backup_session: ran.backup_session! }));
    expect(refused.code).toBe("conflict");
    expect(refused.message).toContain("gen/two.txt: the session created it, and it changed since");
    expect(p.text("a.txt")).toBe("a\nb\n");
    // ...until force restores it wholesale.
    const undone = (await s.undo({
      backup_session: ran.backup_session!,
      force: true,
    })) as UndoResult;
    expect(p.text("a.txt")).toBe("a\n");
    expect(existsSync(join(p.root, "gen/one.txt"))).toBe(false);
    const two = undone.files.find((f) => f.path === "gen/two.txt")!;
    expect(two.warnings.join(" ")).toContain("changed after session");
  });

  it("gives back local changes that git checkout . threw away", async () => {
    const p = new Project();
    p.write("a.txt", "committed a\n");
    p.write("b.txt", "committed b\n");
    const git = (...args: string[]) => execFileSync("git", ["-C", p.root, ...args]);
    git("init", "-q");
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "base");
    p.write("a.txt", "local work on a\n");
    p.write("b.txt", "local work on b\nmore\n");
    const s = p.splice();
    const ran = (await s.run({ command: "git checkout ." })) as RunResult;
    expect(p.text("a.txt")).toBe("committed a\n");
    expect(ran.changed_files).toEqual([
      { path: "a.txt", kind: "changed", added: 1, removed: 1 },
      { path: "b.txt", kind: "changed", added: 1, removed: 2 },
    ]);
    await s.undo({ backup_session: ran.backup_session! });
    expect(p.text("a.txt")).toBe("local work on a\n");
    expect(p.text("b.txt")).toBe("local work on b\nmore\n");
  });

  it("copies no secret into history: blocked files are neither kept nor listed", async () => {
    const p = new Project();
    p.write(".env", "TOKEN=do-not-keep-me\n");
    p.write("certs/server.pem", "PRIVATE-do-not-keep-me\n");
    p.write("app.txt", "app\n");
    const s = p.splice();
    const ran = (await s.run({
      command: "echo TOKEN=rotated > .env; rm certs/server.pem; echo v2 > app.txt",
    })) as RunResult;
    expect(ran.changed_files!.map((f) => f.path)).toEqual(["app.txt"]);
    const blobs = join(p.root, ".splice/blobs");
    const kept = readdirSync(blobs, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"));
    expect(kept).toContain("app\n");
    expect(kept.some((b) => b.includes("do-not-keep-me"))).toBe(false);
  });

  it("lists a changed file over the 1 MiB cap as not restorable, and a quiet run reports nothing", async () => {
    const p = new Project();
    p.write("big.log", "x".repeat(1024 * 1024 + 1));
    p.write("small.txt", "s\n");
    p.write(".gitignore", "ignored/\n");
    p.write("ignored/cache.bin", "c");
    const s = p.splice();
    const quiet = (await s.run({ command: "cat small.txt; touch small.txt" })) as RunResult;
    expect(quiet.changed_files).toBeUndefined();
    expect(quiet.backup_session).toBeUndefined();

    const ran = (await s.run({
      command: "echo more >> big.log; echo t >> small.txt; echo new > ignored/cache.bin",
    })) as RunResult;
    expect(ran.content).toContain("cannot be restored");
    expect(ran.changed_files!.map((f) => [f.path, f.kind])).toEqual([
      ["big.log", "changed"],
      ["small.txt", "changed"],
    ]);
    expect(ran.not_restorable).toEqual([
      { path: "big.log", reason: expect.stringContaining("it was over 1 MiB") },
    ]);
    expect(ran.unwatched).toEqual(["ignored"]);
    expect(ran.content).toContain("1 of them cannot be restored by undo");
    const undone = (await s.undo({ backup_session: ran.backup_session! })) as UndoResult;
    expect(undone.files.map((f) => f.path)).toEqual(["small.txt"]);
    expect(p.text("small.txt")).toBe("s\n");
  });

  it("restores a mode a command changed alone", async () => {
    const p = new Project();
    p.write("deploy.sh", "#!/bin/sh\n", 0o644);
    const s = p.splice();
    const ran = (await s.run({ command: "chmod 755 deploy.sh" })) as RunResult;
    expect(ran.changed_files).toEqual([
      { path: "deploy.sh", kind: "changed", added: 0, removed: 0 },
    ]);
    expect(ran.not_restorable).toBeUndefined();
    await s.undo({ backup_session: ran.backup_session! });
    expect(p.mode("deploy.sh")).toBe(0o644);
  });

  it("restores a tracked file over 1 MiB from git's object store, and names a changed one it cannot", async () => {
    const p = new Project();
    const big = Buffer.alloc(3 * 1024 * 1024, "a\n");
    p.write("assets/tracked.bin", big);
    p.write("assets/dirty.bin", big);
    p.write("small.txt", "s\n");
    const git = (...args: string[]) => execFileSync("git", ["-C", p.root, ...args]);
    git("init", "-q");
    git("add", "-A");
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "base");
    p.write("assets/dirty.bin", Buffer.alloc(3 * 1024 * 1024, "b\n")); // changed against the index
    const s = p.splice();
    const ran = (await s.run({
      command: "rm assets/tracked.bin; printf c >> assets/dirty.bin; echo t > small.txt",
    })) as RunResult;
    expect(ran.changed_files!.map((f) => [f.path, f.kind])).toEqual([
      ["assets/dirty.bin", "changed"],
      ["assets/tracked.bin", "deleted"],
      ["small.txt", "changed"],
    ]);
    expect(ran.not_restorable).toEqual([
      {
        path: "assets/dirty.bin",
        reason: expect.stringContaining("not tracked unchanged by git"),
      },
    ]);
    // No copy was taken before the command: the deleted file's bytes came back from git.
    await s.undo({ backup_session: ran.backup_session! });
    expect(p.bytes("assets/tracked.bin").equals(big)).toBe(true);
    expect(p.text("small.txt")).toBe("s\n");
  });
});
