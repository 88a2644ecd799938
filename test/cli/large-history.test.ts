/**
 * A journal past the size where a command reads it a path at a time
 * (history/journal-prefix.ts), through real `splice` processes: the first
 * command indexes it whole and leaves totals, the next ones use them, and
 * every answer is the same.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serializeEvent } from "../../src/history/journal.js";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");
const EVENTS = 20_000; // about 6 MB: over the 4 MiB threshold

function splice(root: string, args: string[]) {
  const run = spawnSync(BIN, [...args, "--root", root, "--json"], { encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe("a large history", () => {
  it("answers the same from its totals as indexed whole, across processes", () => {
    const p = new Project();
    p.write("src/f7.ts", "export const seven = 7;\n");
    const lines: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const sha = (i.toString(16).padStart(8, "0") + "ab".repeat(28)).slice(0, 64);
      lines.push(
        serializeEvent({
          id: `id${i}`,
          kind: i % 4 === 0 ? "write" : "read",
          path: `src/f${i % 300}.ts`,
          session: i % 2 ? "cli" : "mcp-1",
          at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
          sha,
          tag: sha.slice(0, 4).toUpperCase(),
          size: 100,
          ...(i % 4 === 0
            ? { before: { sha: sha.replace("ab", "cd"), tag: "CDCD", size: 90 } }
            : {}),
        }),
      );
    }
    const dir = join(p.root, ".splice");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "journal.jsonl"), `${lines.join("\n")}\n`);
    expect(statSync(join(dir, "journal.jsonl")).size).toBeGreaterThan(4 * 1024 * 1024);

    const totals = join(dir, "index-totals.json");
    const whole = splice(p.root, ["history", "src/f7.ts"]);
    expect(existsSync(totals)).toBe(true);
    const left = readFileSync(totals, "utf8");
    expect(JSON.parse(left)).toMatchObject({ count: EVENTS });
    const byPath = splice(p.root, ["history", "src/f7.ts"]);
    expect(byPath).toEqual(whole);
    expect((whole.versions as unknown[]).length).toBeGreaterThan(60);
    // A read through the path-at-a-time index is seen by the next command's edit.
    const read = splice(p.root, ["read", "src/f7.ts"]) as { results: { file_hash: string }[] };
    const tag = read.results[0]!.file_hash;
    const edit = splice(p.root, ["edit", "src/f7.ts", "--hash", tag, "--ops", "replace 1:\n+x"]);
    expect(edit).toMatchObject({ results: [{ applied: true }] });
    expect(readFileSync(totals, "utf8")).toBe(left); // nobody had to index it whole again
  }, 60_000);
});
