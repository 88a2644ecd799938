/**
 * `splice doc --set` keeps the kind of the value it replaces (a string stays
 * a string, a number a number, a boolean a boolean, when the text reads as
 * that kind), and `--set-json` sets exactly the JSON it is given; through the
 * built CLI, in JSON, YAML and TOML files.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[]) {
  const r = spawnSync(BIN, [...args, "--root", root], { cwd: root, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const PACKAGE = `{
  "name": "x",
  "version": "1",
  "retries": 3,
  "private": true,
  "nothing": null
}
`;

function set(p: Project, path: string, selector: string, flag: string, value: string) {
  const r = splice(p.root, ["doc", path, selector, flag, value]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return p.text(path);
}

describe("splice doc --set keeps the kind", () => {
  it("writes a string over a string, though the text reads as a number", () => {
    const p = new Project();
    p.write("package.json", PACKAGE);
    expect(set(p, "package.json", "version", "--set", "2")).toBe(
      PACKAGE.replace('"version": "1"', '"version": "2"'),
    );
    expect(set(p, "package.json", "name", "--set", '["a"]')).toContain('"name": "[\\"a\\"]"');
  });

  it("keeps a number a number and a boolean a boolean, and takes other text as it reads", () => {
    const p = new Project();
    p.write("package.json", PACKAGE);
    expect(set(p, "package.json", "retries", "--set", "5")).toContain('"retries": 5,');
    expect(set(p, "package.json", "private", "--set", "false")).toContain('"private": false,');
    // Text that is not a number replaces the number as text; null and new keys read V as JSON.
    expect(set(p, "package.json", "retries", "--set", "many")).toContain('"retries": "many",');
    expect(set(p, "package.json", "nothing", "--set", "7")).toContain('"nothing": 7');
    expect(set(p, "package.json", "added", "--set", "true")).toContain('"added": true');
  });

  it("sets exactly the JSON --set-json gives, and refuses what is not JSON", () => {
    const p = new Project();
    p.write("package.json", PACKAGE);
    expect(set(p, "package.json", "retries", "--set-json", '"3"')).toContain('"retries": "3",');
    expect(set(p, "package.json", "version", "--set-json", "2")).toContain('"version": 2,');
    const list = set(p, "package.json", "name", "--set-json", '["a", 1]');
    expect(JSON.parse(list).name).toEqual(["a", 1]);
    const bad = splice(p.root, ["doc", "package.json", "name", "--set-json", "two words"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--set-json takes JSON");
    const both = splice(p.root, ["doc", "package.json", "name", "--set", "a", "--set-json", "1"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("pass one action, not --set and --set-json");
  });

  it("keeps the kind in YAML and TOML too", () => {
    const p = new Project();
    p.write("a.yaml", 'version: "1"\nport: 80\ndebug: false\n');
    p.write("Cargo.toml", '[package]\nname = "x"\nedition = "2021"\nversion = "0.1.0"\n');
    expect(set(p, "a.yaml", "version", "--set", "2")).toBe(
      'version: "2"\nport: 80\ndebug: false\n',
    );
    expect(set(p, "a.yaml", "port", "--set", "8080")).toBe(
      'version: "2"\nport: 8080\ndebug: false\n',
    );
    expect(set(p, "a.yaml", "debug", "--set", "true")).toBe(
      'version: "2"\nport: 8080\ndebug: true\n',
    );
    expect(set(p, "Cargo.toml", "package.edition", "--set", "2024")).toContain(
      'edition = "2024"\n',
    );
    expect(set(p, "Cargo.toml", "package.version", "--set", "0.2.0")).toContain(
      'version = "0.2.0"\n',
    );
  });
});
