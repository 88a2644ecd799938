/**
 * The tools on a remote root (`--root box:/srv/app`): read, edit, write,
 * patch, list and undo through a RemoteWorkspace, over a local transport
 * (sh -c) and over a real OpenSSH server; the guard's rules there.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSplice, type Splice } from "../../src/splice.js";
import { RootSet } from "../../src/toolkit/roots.js";
import { REMOTE_UNRECORDED } from "../../src/tools/run/checkpoint.js";
import type { RunResult } from "../../src/tools/run/index.js";
import type { RemoteWorkspace } from "../../src/workspace/remote/remote-workspace.js";
import { rejection } from "../helpers/project.js";
import { sshdForFile } from "../helpers/sshd.js";

const sshd = sshdForFile();
const noSshd = sshd.missing;

/** A folder "there" (this machine, reached through the transport), and a toolkit rooted in it. */
function remoteProject(transport: () => string[]) {
  const root = mkdtempSync(join(tmpdir(), "splice-remote-root-"));
  const historyDir = mkdtempSync(join(tmpdir(), "splice-remote-history-"));
  const open = (): Splice =>
    createSplice({
      root: `box:${root}`,
      remotes: { box: transport() },
      history: { dir: historyDir, session: "remote-test" },
    });
  const plant = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  const text = (rel: string) => readFileSync(join(root, rel), "utf8");
  return { root, historyDir, open, plant, text };
}

const transports: [string, () => string[]][] = [["sh -c", () => ["sh", "-c"]]];
if (!noSshd) transports.push(["a real OpenSSH server", () => sshd.get().ssh]);
else {
  describe.skip(`tools on a remote root over ssh: skipped, ${noSshd}`, () => {
    it("runs", () => {});
  });
}

describe.each(transports)("tools on a remote root over %s", (_name, transport) => {
  it("reads with a tag, edits against it, and undoes the edit", async () => {
    const p = remoteProject(transport);
    p.plant("src/a.ts", "const a = 1;\nconst b = 2;\n");
    const s = p.open();
    const read = await s.read({ targets: [{ path: "src/a.ts" }] });
    expect(read.results[0]!.content).toContain("1| const a = 1;");
    const tag = read.results[0]!.file_hash!;
    const edit = await s.edit({
      targets: [{ path: "src/a.ts", file_hash: tag, ops: "replace 2:\n+const b = 3;" }],
    });
    expect(edit.results[0]).toMatchObject({ applied: true, changed: true });
    expect(p.text("src/a.ts")).toBe("const a = 1;\nconst b = 3;\n");
    await s.undo({});
    expect(p.text("src/a.ts")).toBe("const a = 1;\nconst b = 2;\n");
    // History is on this machine, keyed by host; nothing of it is written there.
    expect(() => statSync(join(p.root, ".splice/journal.jsonl"))).toThrow();
    expect(statSync(join(p.historyDir, "journal.jsonl")).size).toBeGreaterThan(0);
  });

  it("reads in one round trip and edits in two", async () => {
    const p = remoteProject(transport);
    p.plant("src/a.ts", "const a = 1;\nconst b = 2;\n");
    const s = p.open();
    const { transport: there } = s.context.workspace as RemoteWorkspace;
    const trips = async (call: () => Promise<unknown>) => {
      const before = there.trips;
      await call();
      return there.trips - before;
    };
    let tag = "";
    const read = () =>
      s.read({ targets: [{ path: "src/a.ts" }] }).then((r) => {
        tag = r.results[0]!.file_hash!;
      });
    expect(await trips(read)).toBe(1);
    const edit = (text: string) => () =>
      s.edit({ targets: [{ path: "src/a.ts", file_hash: tag, ops: `replace 2:\n+${text}` }] });
    expect(await trips(edit("const b = 3;"))).toBe(2);
    expect(p.text("src/a.ts")).toBe("const a = 1;\nconst b = 3;\n");
    // The edit let its lock go in its write's trip: the next edit takes it at once.
    expect(readdirSync(join(p.root, ".splice/locks"))).toEqual([]);
    expect(await trips(read)).toBe(1);
    expect(await trips(edit("const b = 4;"))).toBe(2);
    expect(p.text("src/a.ts")).toBe("const a = 1;\nconst b = 4;\n");
    // A change made there between the read and the edit is still refused, in those two trips.
    p.plant("src/a.ts", "const a = 1;\nconst b = 2;\n// theirs\n");
    const stale = await rejection(edit("const b = 5;")());
    expect(stale.code).toMatch(/stale|conflict/);
    expect(p.text("src/a.ts")).toBe("const a = 1;\nconst b = 2;\n// theirs\n");
    expect(readdirSync(join(p.root, ".splice/locks"))).toEqual([]);
    // The change made there overlaps the edit's line: undo refuses, and force restores wholesale.
    expect((await rejection(s.undo({}))).code).toBe("conflict");
    await s.undo({ force: true });
    expect(p.text("src/a.ts")).toBe("const a = 1;\nconst b = 3;\n");
  });

  it("takes paths written HOST:PATH, writes new files keeping modes, and lists the folder", async () => {
    const p = remoteProject(transport);
    p.plant("run.sh", "#!/bin/sh\n");
    const s = p.open();
    await s.write({ targets: [{ path: `box:${p.root}/docs/new.md`, text: "# new\n" }] });
    expect(p.text("docs/new.md")).toBe("# new\n");
    const read = await s.read({ targets: [{ path: `box:${p.root}/docs/new.md` }] });
    expect(read.results[0]!.content).toContain("1| # new");
    const listed = JSON.stringify(await s.list({ path: "." }));
    expect(listed).toContain("run.sh");
    expect(listed).toContain("docs");
  });

  it("runs a command there and says that what it changed is not recorded for undo", async () => {
    const p = remoteProject(transport);
    const s = p.open();
    const r = (await s.call("run", { command: "echo made > made.txt; echo ok" })) as RunResult;
    expect(r.exit_code).toBe(0);
    expect(p.text("made.txt")).toBe("made\n");
    expect(r.output).toBe(`ok\n${REMOTE_UNRECORDED}`);
    expect(r.backup_session).toBeUndefined();
    expect(r.changed_files).toBeUndefined();
    await expect(s.call("undo", {})).rejects.toMatchObject({ code: "not_found" });
  });

  it("applies a patch there", async () => {
    const p = remoteProject(transport);
    p.plant("f.txt", "one\ntwo\nthree\n");
    const s = p.open();
    await s.patch({
      patch: "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n",
    });
    expect(p.text("f.txt")).toBe("one\nTWO\nthree\n");
  });

  it("refuses an edit when the file changed there since it was read", async () => {
    const p = remoteProject(transport);
    p.plant("f.txt", "one\ntwo\n");
    const s = p.open();
    const tag = (await s.read({ targets: [{ path: "f.txt" }] })).results[0]!.file_hash!;
    p.plant("f.txt", "someone else\nwas here\n");
    const error = await rejection(
      s.edit({ targets: [{ path: "f.txt", file_hash: tag, ops: "replace 1:\n+mine" }] }),
    );
    expect(error.code).toMatch(/stale|conflict/);
    expect(p.text("f.txt")).toBe("someone else\nwas here\n");
  });

  it("holds the guard's rules there: the root, links leading out, secrets", async () => {
    const p = remoteProject(transport);
    const outside = mkdtempSync(join(tmpdir(), "splice-remote-out-"));
    writeFileSync(join(outside, "secret.txt"), "outside\n");
    symlinkSync(outside, join(p.root, "out"));
    p.plant(".env", "KEY=1\n");
    const s = p.open();
    const escaped = await rejection(s.read({ targets: [{ path: "out/secret.txt" }] }));
    expect(escaped).toMatchObject({ code: "guard" });
    expect(escaped.message).toMatch(/outside the root/);
    const planted = await rejection(
      s.write({ targets: [{ path: "out/planted.txt", text: "x\n" }] }),
    );
    expect(planted).toMatchObject({ code: "guard" });
    expect(() => statSync(join(outside, "planted.txt"))).toThrow();
    const outsideRoot = await s.read({ targets: [{ path: "/etc/hostname" }] });
    expect(JSON.stringify(outsideRoot)).toMatch(/outside/);
    const secret = await s.read({ targets: [{ path: ".env" }] });
    expect(JSON.stringify(secret)).not.toContain("KEY=1");
  });
});

describe("remote roots that cannot be reached", () => {
  it("says which transport failed, with its stderr, when the transport exits 255", () => {
    expect(() =>
      createSplice({
        root: "gone:/srv/app",
        remotes: { gone: ["sh", "-c", "echo 'ssh: connect to host gone: refused' >&2; exit 255"] },
      }),
    ).toThrow(
      /Could not reach gone: the transport .* failed \(ssh: connect to host gone: refused\)/,
    );
  });

  it("says a root folder that is not there is missing there", () => {
    expect(() =>
      createSplice({ root: "box:/nonexistent/splice-root", remotes: { box: ["sh", "-c"] } }),
    ).toThrow(/box:\/nonexistent\/splice-root does not exist there/);
  });
});

describe("a root set with a local and a remote root", () => {
  it("routes HOST:PATH calls to the remote root and absolute local paths to the local one", async () => {
    const local = mkdtempSync(join(tmpdir(), "splice-local-root-"));
    const p = remoteProject(() => ["sh", "-c"]);
    writeFileSync(join(local, "same.txt"), "here\n");
    p.plant("same.txt", "there\n");
    const set = new RootSet([local, `box:${p.root}`], {
      remotes: { box: ["sh", "-c"] },
      history: { dir: p.historyDir },
    });
    const readThere = (await set.call("read", {
      targets: [{ path: `box:${p.root}/same.txt` }],
    })) as {
      results: { content: string }[];
    };
    expect(readThere.results[0]!.content).toContain("1| there");
    const readHere = (await set.call("read", { targets: [{ path: join(local, "same.txt") }] })) as {
      results: { content: string }[];
    };
    expect(readHere.results[0]!.content).toContain("1| here");
    const both = await rejection(
      set.call("read", {
        targets: [{ path: join(local, "same.txt") }, { path: `box:${p.root}/same.txt` }],
      }),
    );
    expect(both).toMatchObject({ code: "guard", details: { reason: "cross_root" } });
  });
});

describe("a plan spanning a local and a remote file", () => {
  /** A local root and a remote one (sh -c), each with its own history: the remote one's here, by host. */
  function twoRoots() {
    const local = mkdtempSync(join(tmpdir(), "splice-plan-local-"));
    const p = remoteProject(() => ["sh", "-c"]);
    const state = mkdtempSync(join(tmpdir(), "splice-plan-state-"));
    const saved = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = state;
    const set = new RootSet([local, `box:${p.root}`], { remotes: { box: ["sh", "-c"] } });
    if (saved === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = saved;
    writeFileSync(join(local, "here.ts"), "export const here = 1;\n");
    p.plant("there.ts", "export const there = 1;\n");
    const histories = set.toolkits.map((t) => t.context.history);
    return { local, p, set, state, histories };
  }
  const edit = (path: string, from: string, to: string) => ({
    tool: "edit",
    args: { targets: [{ path, edits: [{ old_text: from, new_text: to }] }] },
  });

  it("applies both, records one session id in both histories, and one undo takes both back", async () => {
    const { local, p, set, state, histories } = twoRoots();
    const before = [readFileSync(join(local, "here.ts")), readFileSync(join(p.root, "there.ts"))];
    const plan = (await set.call("plan", {
      steps: [
        edit(join(local, "here.ts"), "here = 1", "here = 2"),
        edit(`box:${p.root}/there.ts`, "there = 1", "there = 2"),
      ],
    })) as { backup_session: string; files: string[]; diff: string };
    expect(readFileSync(join(local, "here.ts"), "utf8")).toBe("export const here = 2;\n");
    expect(p.text("there.ts")).toBe("export const there = 2;\n");
    expect(plan.files).toHaveLength(2);
    expect(plan.diff).toContain("+export const there = 2;");
    // Two stores: the local root's under it, the remote root's on this machine, keyed by host.
    expect(statSync(join(local, ".splice")).isDirectory()).toBe(true);
    expect(readdirSync(join(state, "splice/remotes"))).toEqual(["box"]);
    for (const history of histories) {
      expect(history.backups().map((b) => b.id)).toContain(plan.backup_session);
    }
    const undone = (await set.call("undo", {})) as { undone: string; backup_session: string };
    expect(undone.undone).toBe(plan.backup_session);
    expect(readFileSync(join(local, "here.ts"))).toEqual(before[0]);
    expect(readFileSync(join(p.root, "there.ts"))).toEqual(before[1]);
    // The undo is one session id in both too: undoing it redoes the whole plan.
    await set.call("undo", { backup_session: undone.backup_session });
    expect(readFileSync(join(local, "here.ts"), "utf8")).toBe("export const here = 2;\n");
    expect(p.text("there.ts")).toBe("export const there = 2;\n");
  });

  it("reverts a plan in every root or none: a conflict in one root undoes nothing in the other", async () => {
    const { local, p, set } = twoRoots();
    await set.call("plan", {
      steps: [
        edit(join(local, "here.ts"), "here = 1", "here = 2"),
        edit(`box:${p.root}/there.ts`, "there = 1", "there = 2"),
      ],
    });
    p.plant("there.ts", "export const there = 3;\n");
    const refused = await rejection(set.call("undo", {}));
    expect(refused.code).toBe("conflict");
    expect(readFileSync(join(local, "here.ts"), "utf8")).toBe("export const here = 2;\n");
    expect(p.text("there.ts")).toBe("export const there = 3;\n");
  });

  it("puts the local file back when the remote step fails", async () => {
    const { local, p, set } = twoRoots();
    const before = readFileSync(join(local, "here.ts"));
    const error = await rejection(
      set.call("plan", {
        steps: [
          edit(join(local, "here.ts"), "here = 1", "here = 2"),
          edit(`box:${p.root}/there.ts`, "not in the file", "x"),
        ],
      }),
    );
    expect(error).toMatchObject({ code: "batch_failed", details: { failed_step: 2 } });
    expect(error.message).toMatch(/rolled back/);
    expect(readFileSync(join(local, "here.ts"))).toEqual(before);
    expect(p.text("there.ts")).toBe("export const there = 1;\n");
  });

  it("previews both without writing either", async () => {
    const { local, p, set } = twoRoots();
    const preview = (await set.call("plan", {
      mode: "preview",
      steps: [
        edit(join(local, "here.ts"), "here = 1", "here = 2"),
        edit(`box:${p.root}/there.ts`, "there = 1", "there = 2"),
      ],
    })) as { diff: string; applied: boolean };
    expect(preview.applied).toBe(false);
    expect(preview.diff).toContain("+export const here = 2;");
    expect(preview.diff).toContain("+export const there = 2;");
    expect(readFileSync(join(local, "here.ts"), "utf8")).toBe("export const here = 1;\n");
    expect(p.text("there.ts")).toBe("export const there = 1;\n");
  });
});

/** A folder of links to this machine's programs without `without`: a far side lacking them. */
function pathWithout(...without: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "splice-remote-bin-"));
  for (const from of ["/bin", "/usr/bin"]) {
    for (const name of readdirSync(from)) {
      if (without.includes(name)) continue;
      try {
        symlinkSync(join(from, name), join(dir, name));
      } catch {
        // the name is linked already (/bin and /usr/bin are often one folder)
      }
    }
  }
  return dir;
}

describe("search on a remote root", () => {
  const plantAll = (p: ReturnType<typeof remoteProject>) => {
    p.plant("src/a.ts", "const needle = 1;\nconst other = 2;\nneedle(needle);\n");
    p.plant("src/b.ts", "nothing here\n");
    p.plant("docs/notes: 3: x.md", "a Needle in a name with colons\n");
    p.plant("node_modules/dep/index.js", "needle in a skipped folder\n");
    p.plant(".env", "needle=secret\n");
    p.plant("bin.dat", "needle\0binary\n");
  };
  const searches = [
    { pattern: "needle" },
    { pattern: "needle", ignore_case: true, context: 1 },
    { pattern: "need(le)?\\(", regex: true },
    { pattern: "needle", glob: "*.md", ignore_case: true },
    { pattern: "needle", path: "src/a.ts" },
  ];

  it("finds the same with grep where rg is missing as with rg", async () => {
    const { rgPath } = await import("@vscode/ripgrep");
    const withRg = remoteProject(() => [
      "env",
      `PATH=${dirname(rgPath)}:/usr/bin:/bin`,
      "sh",
      "-c",
    ]);
    const noRg = remoteProject(() => ["env", `PATH=${pathWithout("rg")}`, "sh", "-c"]);
    // A grep without --null (busybox's): one file at a time, each after its name.
    const plainBin = pathWithout("rg", "grep");
    writeFileSync(
      join(plainBin, "grep"),
      '#!/bin/sh\nfor a; do [ "$a" = --null ] && exit 2; done\nexec /usr/bin/grep "$@"\n',
      { mode: 0o755 },
    );
    const plainGrep = remoteProject(() => ["env", `PATH=${plainBin}`, "sh", "-c"]);
    for (const p of [withRg, noRg, plainGrep]) plantAll(p);
    const [a, b, c] = [withRg.open(), noRg.open(), plainGrep.open()];
    for (const args of searches) {
      const byRg = await a.search(args);
      expect(await b.search(args), JSON.stringify(args)).toEqual(byRg);
      expect(await c.search(args), JSON.stringify(args)).toEqual(byRg);
    }
    const plain = await b.search({ pattern: "needle" });
    expect(plain.hits).toEqual([
      { path: "src/a.ts", line: 1, text: "const needle = 1;" },
      { path: "src/a.ts", line: 3, text: "needle(needle);" },
    ]);
    expect(JSON.stringify(plain)).not.toContain("secret");
    const named = await b.search({ pattern: "Needle" });
    expect(named.hits).toEqual([
      { path: "docs/notes: 3: x.md", line: 1, text: "a Needle in a name with colons" },
    ]);
    // The shown lines' tags come from the file as read, the same way: an edit against them lands.
    const read = await b.read({ targets: [{ path: "src/a.ts" }] });
    const tag = read.results[0]!.file_hash!;
    await b.edit({
      targets: [{ path: "src/a.ts", file_hash: tag, ops: "replace 2:\n+const x = 3;" }],
    });
    expect(noRg.text("src/a.ts")).toBe("const needle = 1;\nconst x = 3;\nneedle(needle);\n");
  });

  it("says an invalid pattern is invalid, and what to do when neither rg nor grep is there", async () => {
    const noRg = remoteProject(() => ["env", `PATH=${pathWithout("rg")}`, "sh", "-c"]);
    noRg.plant("a.txt", "needle\n");
    const invalid = await rejection(noRg.open().search({ pattern: "(unclosed", regex: true }));
    expect(invalid).toMatchObject({ code: "invalid_input" });
    expect(invalid.message).toMatch(/The pattern "\(unclosed" is not valid/);
    const bare = remoteProject(() => [
      "env",
      `PATH=${pathWithout("rg", "grep", "egrep", "fgrep")}`,
      "sh",
      "-c",
    ]);
    bare.plant("a.txt", "needle\n");
    const error = await rejection(bare.open().search({ pattern: "needle" }));
    expect(error.message).toMatch(/neither rg \(ripgrep\) nor grep is installed on box/);
  });
});

describe("run on a remote root", () => {
  it("runs the command there, in the root, and stops what it started there on a timeout", async () => {
    const p = remoteProject(() => ["sh", "-c"]);
    p.plant("sub/x.txt", "x\n");
    const s = p.open();
    const ran = await s.run({ command: "pwd; echo hi", cwd: "sub" });
    expect(ran.output).toContain(join(p.root, "sub"));
    expect(ran.output).toContain("hi");
    const timed = await s.run({ command: "sleep 60 & echo $! > pid; wait", timeout_ms: 1000 });
    expect(timed.output).toMatch(/timed out/);
    const pid = Number(readFileSync(join(p.root, "pid"), "utf8"));
    let gone = false;
    for (let i = 0; i < 60 && !gone; i++) {
      try {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 50));
      } catch {
        gone = true;
      }
    }
    expect(gone).toBe(true);
  });
});
