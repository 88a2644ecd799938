/**
 * The CLI on a remote root: --remote NAME=COMMAND and --root NAME:PATH, or
 * the project's `.splice/config.json`; read, edit and undo reach the files
 * there. The transport is `sh -c` (this machine); test/workspace covers ssh.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
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
});
