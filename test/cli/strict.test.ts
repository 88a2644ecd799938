/**
 * Strict parsing through the built `splice`, on real temp projects: a wrong
 * command line exits 2 with one line on stderr and does nothing at all.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

/** Runs in the project (the default root), so a flag missing its value can end the line. */
function splice(root: string, args: string[], input?: string) {
  const r = spawnSync(BIN, args, { cwd: root, input, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A project with one write and one edit made through the CLI, so there is something to undo. */
function edited(): Project {
  const p = new Project();
  expect(splice(p.root, ["write", "f.txt", "--text", "one\ntwo\n"]).code).toBe(0);
  const tag = /#([0-9A-F]{4})$/m.exec(splice(p.root, ["read", "f.txt"]).stdout)![1]!;
  expect(splice(p.root, ["edit", "f.txt", "--hash", tag, "--ops", "replace 2:\n+TWO"]).code).toBe(
    0,
  );
  return p;
}

describe("an unknown flag", () => {
  it("undo --lsit exits 2, names --list, and undoes nothing", () => {
    const p = edited();
    const before = p.bytes("f.txt");
    const sessions = () =>
      JSON.parse(splice(p.root, ["undo", "--list", "--json"]).stdout).sessions as {
        backup_session: string;
        undone: boolean;
      }[];
    const listed = sessions();
    expect(listed.length).toBeGreaterThan(0);

    const typo = splice(p.root, ["undo", "--lsit"]);
    expect(typo).toEqual({
      code: 2,
      stdout: "",
      stderr: "splice undo: unknown flag --lsit; did you mean --list?\n",
    });
    expect(p.bytes("f.txt").equals(before)).toBe(true);
    expect(sessions()).toEqual(listed);
    expect(listed.every((s) => !s.undone)).toBe(true);
    // The real flag still works, and a plain undo still finds the edit to undo.
    const id = listed[0]!.backup_session;
    expect(splice(p.root, ["undo", "--diff", id]).stdout).toContain("+TWO");
    expect(splice(p.root, ["undo"]).code).toBe(0);
    expect(p.text("f.txt")).toBe("one\ntwo\n");
  });

  it.each([
    [["write", "n.txt", "--txt", "hi"], "splice write: unknown flag --txt; did you mean --text?"],
    [["edit", "f.txt", "--hsah", "1A2B"], "splice edit: unknown flag --hsah; did you mean --hash?"],
    [
      ["read", "f.txt", "--symbl", "x"],
      "splice read: unknown flag --symbl; did you mean --symbol?",
    ],
    [["ast", "a", "src", "--app"], "splice ast: unknown flag --app; did you mean --apply?"],
    [
      ["patch", "x.diff", "--allow"],
      "splice patch: unknown flag --allow; did you mean --allow-overwrite?",
    ],
    [["lsp-health", "--strat"], "splice lsp-health: unknown flag --strat; did you mean --start?"],
    [["history", "f.txt", "--jsno"], "splice history: unknown flag --jsno; did you mean --json?"],
    [["undo", "-lsit"], "splice undo: unknown flag -lsit; did you mean --list?"],
    [["serve", "--tokn", "t"], "splice serve: unknown flag --tokn; did you mean --token?"],
    [["agent", "--contineu"], "splice agent: unknown flag --contineu; did you mean --continue?"],
    [
      ["rollback", "f.txt", "--frobnicate"],
      "splice rollback: unknown flag --frobnicate; run splice rollback --help for its flags",
    ],
    [["undo", "-x"], "splice undo: unknown flag -x; run splice undo --help for its flags"],
    // A flag of another command is not this one's.
    [
      ["write", "n.txt", "--text", "hi", "--apply"],
      "splice write: unknown flag --apply; run splice write --help for its flags",
    ],
    [
      ["serve", "--json"],
      "splice serve: unknown flag --json; run splice serve --help for its flags",
    ],
  ])("%j is refused with the nearest flag", (args, line) => {
    const p = new Project();
    p.write("f.txt", "one\n");
    const r = splice(p.root, args);
    expect(r).toEqual({ code: 2, stdout: "", stderr: `${line}\n` });
    expect(existsSync(join(p.root, "n.txt"))).toBe(false);
    expect(p.text("f.txt")).toBe("one\n");
  });
});

describe("a wrong flag value or argument count", () => {
  it.each([
    [
      ["edit", "f.txt", "--hash"],
      "splice edit: --hash needs a value: --hash TAG; run splice edit --help for its flags",
    ],
    [
      ["write", "n.txt", "--text"],
      "splice write: --text needs a value: --text TEXT; run splice write --help for its flags",
    ],
    [
      ["edit", "f.txt", "--hash", "--ops", "delete 1"],
      'splice edit: --hash needs a value, and "--ops" looks like a flag; write --hash=--ops if it is the value; run splice edit --help for its flags',
    ],
    [
      ["write", "n.txt", "--force=yes", "--text", "x"],
      'splice write: --force takes no value (got "yes"); run splice write --help for its flags',
    ],
    [["history"], "splice history: missing PATH; run splice history --help for its usage"],
    [["rename", "a", "b"], "splice rename: missing PATHS; run splice rename --help for its usage"],
    [["ast"], "splice ast: missing PATTERN; run splice ast --help for its usage"],
    [
      ["history", "f.txt", "g.txt"],
      'splice history: unexpected argument "g.txt"; run splice history --help for its usage',
    ],
    [
      ["write", "n.txt", "extra", "--text", "x"],
      'splice write: unexpected argument "extra"; run splice write --help for its usage',
    ],
    [
      ["serve", "now"],
      'splice serve: takes no arguments, got "now"; run splice serve --help for its usage',
    ],
    [["call"], "splice call: missing TOOL; run splice call --help for its usage"],
  ])("%j exits 2 with one line", (args, line) => {
    const p = new Project();
    p.write("f.txt", "one\n");
    const r = splice(p.root, args);
    expect(r).toEqual({ code: 2, stdout: "", stderr: `${line}\n` });
    expect(existsSync(join(p.root, "n.txt"))).toBe(false);
    expect(p.text("f.txt")).toBe("one\n");
  });

  it("takes a value that starts with a dash when it is written --flag=value", () => {
    const p = new Project();
    expect(splice(p.root, ["write", "n.txt", "--text=- item\n"]).code).toBe(0);
    expect(p.text("n.txt")).toBe("- item\n");
  });
});

describe("the command name", () => {
  it.each([
    ["undoo", 'splice: unknown command "undoo"; did you mean "undo"?'],
    ["hsitory", 'splice: unknown command "hsitory"; did you mean "history"?'],
    ["lsp-heath", 'splice: unknown command "lsp-heath"; did you mean "lsp-health"?'],
    [
      "frobnicate",
      `splice: unknown command "frobnicate"; run splice --help for the list of commands, or splice call TOOL '{json}' for any tool`,
    ],
  ])("%s is refused with exit 2 and the nearest command", (name, line) => {
    const r = splice(new Project().root, [name, "f.txt"]);
    expect(r).toEqual({ code: 2, stdout: "", stderr: `${line}\n` });
  });

  it("comes after the shared flags too, and --version and bare splice still answer", () => {
    const p = new Project();
    p.write("f.txt", "one\n");
    const r = spawnSync(BIN, ["--root", p.root, "read", "f.txt"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("1| one");
    const version = spawnSync(BIN, ["--version"], { encoding: "utf8" });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const bare = spawnSync(BIN, [], { encoding: "utf8" });
    expect(bare.status).toBe(2);
    expect(bare.stdout).toContain("Usage: splice <command>");
    const top = spawnSync(BIN, ["--lsit"], { encoding: "utf8" });
    expect(top.status).toBe(2);
    expect(top.stderr).toBe("splice: unknown flag --lsit; run splice --help for its flags\n");
  });

  it("shows help when --help is asked for, whatever else is wrong on the line", () => {
    const r = splice(new Project().root, ["undo", "--lsit", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: splice undo /);
  });
});
