/**
 * The built CLI validates edits and exits promptly: language servers must
 * never keep a finished `splice` process alive.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";
import { COLD, source, TSCONFIG } from "./helpers.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function splice(root: string, args: string[]) {
  const started = Date.now();
  const r = spawnSync(BIN, [...args, "--root", root], { encoding: "utf8", timeout: 50_000 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, ms: Date.now() - started };
}

describe("splice on the command line", COLD, () => {
  it("validates an edit and exits without waiting for the server", () => {
    const p = new Project();
    p.write("tsconfig.json", TSCONFIG);
    p.write("src/a.ts", source("export const a: number = 1;"));
    const edits = [{ old_text: "= 1;", new_text: "= 'one';" }];
    const r = splice(p.root, [
      "call",
      "edit",
      JSON.stringify({ targets: [{ path: "src/a.ts", edits }] }),
      "--validate",
    ]);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout).results[0];
    expect(result.validation).toMatchObject({ status: "failed", server: "tsgo" });
    expect(result.validation.introduced_errors).toMatchObject([{ line: 1, code: 2322 }]);
  });

  it("reports server health, and starts the root's servers with --start", () => {
    const p = new Project();
    p.write("package.json", "{}\n");
    const status = splice(p.root, ["lsp-health", "--json"]);
    expect(status.code).toBe(0);
    const servers = JSON.parse(status.stdout).servers as { language: string; status: string }[];
    expect(servers.map((s) => s.status)).toEqual(Array(5).fill("not_started"));
    const started = splice(p.root, ["lsp-health", "--start"]);
    expect(started.signal).toBeNull();
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(
      /^typescript\s+tsgo\s+ready\n\s+pull diagnostics; started in \d+ ms$/m,
    );
    expect(started.stdout).toMatch(/^python\s+pyright\s+not started$/m);
  });
});
