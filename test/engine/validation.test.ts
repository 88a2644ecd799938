/**
 * A command never holds a person for a language server's cold start: it
 * says the change was not type-checked, the engine starts the server for
 * the next command, and --validate waits for the verdict.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ENGINE_BUILT, ownEngine } from "../helpers/engine.js";
import { sleep } from "../helpers/processes.js";
import { Project } from "../helpers/project.js";

const { splice } = ownEngine();

function pythonProject(): Project {
  const p = new Project();
  p.write("pyproject.toml", '[project]\nname = "demo"\n');
  p.write("app.py", "count = 1\ntotal = count + 1\n");
  return p;
}

const NOT_CHECKED = "This change was not type-checked";

describe.skipIf(!ENGINE_BUILT)("type verdicts on the command line", () => {
  afterAll(() => splice(["engine", "stop"]));

  it("in its own process: says the change was not type-checked, and --validate waits for the verdict", () => {
    const p = pythonProject();
    const quick = splice([
      "edit",
      "app.py",
      "--old",
      "count = 1",
      "--new",
      "count = 2",
      "--root",
      p.root,
      "--no-engine",
    ]);
    expect(quick.code).toBe(0);
    expect(quick.stderr).toContain(`${NOT_CHECKED}: pyright is not running`);
    const waited = splice([
      "edit",
      "app.py",
      "--old",
      "count + 1",
      "--new",
      "missing + 1",
      "--root",
      p.root,
      "--no-engine",
      "--validate",
    ]);
    expect(waited.code).toBe(0);
    expect(waited.stderr).not.toContain(NOT_CHECKED);
    expect(waited.stderr).toContain('"missing" is not defined');
  }, 60_000);

  it("in the engine: the first edit starts the server, a later one carries its verdict", async () => {
    const p = pythonProject();
    const first = splice([
      "edit",
      "app.py",
      "--old",
      "count = 1",
      "--new",
      "count = 2",
      "--root",
      p.root,
    ]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`${NOT_CHECKED}: pyright is starting for Python`);
    const end = Date.now() + 30_000;
    while (!/pyright\s+ready/.test(splice(["lsp-health", "--root", p.root]).stdout)) {
      expect(Date.now()).toBeLessThan(end);
      await sleep(200);
    }
    const later = splice([
      "edit",
      "app.py",
      "--old",
      "count + 1",
      "--new",
      "missing + 1",
      "--root",
      p.root,
    ]);
    expect(later.stderr).not.toContain(NOT_CHECKED);
    expect(later.stderr).toContain('"missing" is not defined');
  }, 60_000);
});
