/**
 * The CLI on a remote root: --remote NAME=COMMAND and --root NAME:PATH, or
 * the project's `.splice/config.json`; read, edit and undo reach the files
 * there. The transport is `sh -c` (this machine); test/workspace covers ssh.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(BIN, args, { cwd, encoding: "utf8", env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function setup() {
  const there = mkdtempSync(join(tmpdir(), "splice-cli-remote-"));
  const here = mkdtempSync(join(tmpdir(), "splice-cli-here-"));
  const state = mkdtempSync(join(tmpdir(), "splice-cli-state-"));
  writeFileSync(join(there, "a.txt"), "one\ntwo\n");
  return { there, here, env: { XDG_STATE_HOME: state }, state };
}

describe("the CLI on a remote root", () => {
  it("reads, edits and undoes through --remote and --root NAME:PATH", () => {
    const { there, here, env, state } = setup();
    const flags = ["--remote", "box=sh -c", "--root", `box:${there}`];
    const read = splice(here, [...flags, "read", "a.txt", "--json"], env);
    expect(read.code, read.stderr).toBe(0);
    const tag = JSON.parse(read.stdout).results[0].file_hash as string;
    const edit = splice(
      here,
      [...flags, "edit", "a.txt", "--hash", tag, "--ops", "replace 2:\n+TWO"],
      env,
    );
    expect(edit.code, edit.stderr).toBe(0);
    expect(readFileSync(join(there, "a.txt"), "utf8")).toBe("one\nTWO\n");
    const undo = splice(here, [...flags, "undo"], env);
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(join(there, "a.txt"), "utf8")).toBe("one\ntwo\n");
    // The history is this machine's, under the state folder, keyed by host and root.
    const journal = join(state, "splice/remotes/box", there);
    expect(() => readFileSync(join(journal, "journal.jsonl"))).not.toThrow();
  });

  it("takes the remotes of the project's .splice/config.json, and HOST:PATH arguments", () => {
    const { there, here, env } = setup();
    mkdirSync(join(here, ".splice"));
    writeFileSync(join(here, ".splice/config.json"), JSON.stringify({ remotes: { box: "sh -c" } }));
    const read = splice(here, ["--root", `box:${there}`, "read", `box:${there}/a.txt`], env);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain("1| one");
  });

  it("says what is wrong with a --remote that is no NAME=COMMAND, and with a host out of reach", () => {
    const { here, env } = setup();
    const bad = splice(here, ["--remote", "box", "read", "a.txt"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--remote needs NAME=COMMAND/);
    const gone = splice(
      here,
      ["--remote", "gone=sh -c 'exit 255'", "--root", "gone:/srv/app", "read", "a.txt"],
      env,
    );
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toMatch(/Could not reach gone/);
  });

  it("takes HOST:PATH in any command: the project there is the root, found as git finds it", () => {
    const { there, here, env, state } = setup();
    mkdirSync(join(there, ".git"));
    mkdirSync(join(there, "src"));
    writeFileSync(join(there, "src/b.txt"), "bee\n");
    mkdirSync(join(here, ".splice"));
    writeFileSync(join(here, ".splice/config.json"), JSON.stringify({ remotes: { box: "sh -c" } }));
    const read = splice(here, ["read", `box:${there}/src/b.txt`, "--verbose"], env);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain("¶src/b.txt#");
    expect(read.stderr).toContain(
      `root box:${there} (from the HOST:PATH arguments: nearest folder there holding .git)`,
    );
    const edit = splice(here, ["edit", `box:${there}/a.txt`, "--old", "two", "--new", "TWO"], env);
    expect(edit.code, edit.stderr).toBe(0);
    expect(readFileSync(join(there, "a.txt"), "utf8")).toBe("one\nTWO\n");
    // The history is this machine's, keyed by the host and the project found there.
    expect(existsSync(join(state, "splice/remotes/box", there, "journal.jsonl"))).toBe(true);
    const moved = splice(here, ["mv", `box:${there}/src/b.txt`, `box:${there}/c.txt`], env);
    expect(moved.code, moved.stderr).toBe(0);
    // What it suggests names that root: typed bare here, it would be this machine's project.
    const id = /splice --root box:\S+ undo (\S+)/.exec(moved.stdout)?.[1];
    expect(id, moved.stdout).toBeDefined();
    const undo = splice(here, ["--root", `box:${there}`, "undo", id!], env);
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(join(there, "src/b.txt"), "utf8")).toBe("bee\n");
    const one = splice(here, ["undo", "--path", `box:${there}/a.txt`], env);
    expect(one.code, one.stderr).toBe(0);
    expect(readFileSync(join(there, "a.txt"), "utf8")).toBe("one\ntwo\n");
    // A diff quotes the file: its "splice read" stays as the file has it.
    const quoted = splice(
      here,
      ["write", `box:${there}/notes.txt`, "--text", "splice read a.txt\n"],
      env,
    );
    expect(quoted.code, quoted.stderr).toBe(0);
    expect(quoted.stdout).toContain("+splice read a.txt");
    // run on that root: done there, and plainly not recorded for undo.
    const run = splice(here, ["run", "--cwd", `box:${there}/src`, "echo x > made.txt"], env);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(there, "src/made.txt"), "utf8")).toBe("x\n");
    expect(run.stderr).toContain(
      "[no checkpoint: this root is on another machine, where splice does not record what a command changes, so undo cannot take it back]",
    );
  });

  it("refuses two machines in one command, and says how to configure a host it does not know", () => {
    const { there, here, env } = setup();
    const box = ["--remote", "box=sh -c"];
    const twoHosts = splice(
      here,
      [...box, "--remote", "cox=sh -c", "read", `box:${there}/a.txt`, `cox:${there}/a.txt`],
      env,
    );
    expect(twoHosts.code).toBe(2);
    expect(twoHosts.stderr).toBe(
      `splice: box:${there}/a.txt is on box but cox:${there}/a.txt is on cox; one command works on one machine. Run one command for each, or give every path as HOST:PATH on the same host.\n`,
    );
    writeFileSync(join(here, "b.txt"), "b\n");
    const mixed = splice(here, [...box, "read", `box:${there}/a.txt`, "b.txt"], env);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("is on box but b.txt is on this machine");
    const localRoot = splice(here, [...box, "--root", here, "read", `box:${there}/a.txt`], env);
    expect(localRoot.code).toBe(2);
    expect(localRoot.stderr).toContain(`--root ${here} is on this machine but box:${there}/a.txt`);
    for (const args of [
      ["read", "nobox:/srv/app/a.txt"],
      ["--root", "nobox:/srv/app", "read", "a.txt"],
    ]) {
      const unknown = splice(here, args, env);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain(
        `names the host "nobox", which is not configured. Configure it with --remote nobox='ssh -o BatchMode=yes user@nobox', or in .splice/config.json as`,
      );
    }
    // A local folder by that name is local, as scp takes ./name:path.
    mkdirSync(join(here, "nobox:"));
    writeFileSync(join(here, "nobox:/c.txt"), "local\n");
    const local = splice(here, ["read", "nobox:/c.txt"], env);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout).toContain("1| local");
  });
});
