/**
 * A multi-file change is one batch (change/commit.ts commitBatch): one
 * history transaction, then the swaps, then one validation pass. These check
 * that it still writes all or nothing, that undo of a batch puts back every
 * byte, and that the validation pass keeps to its budget.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ServerRegistry } from "../../src/lsp/registry.js";
import type { PatchResult } from "../../src/tools/patch/index.js";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { Project, rejection } from "../helpers/project.js";

const SILENT = join(import.meta.dirname, "..", "lsp", "fixtures", "silent-server.mjs");
const FILES = 120;
const projects: Project[] = [];

afterEach(() => {
  for (const p of projects.splice(0)) rmSync(p.root, { recursive: true, force: true });
});

const name = (i: number) => `src/f${String(i).padStart(3, "0")}.ts`;

/** 120 files in several styles: LF, CRLF, a BOM, no final newline. */
function manyFiles(): { p: Project; original: Map<string, Buffer> } {
  const p = new Project();
  projects.push(p);
  const original = new Map<string, Buffer>();
  for (let i = 1; i <= FILES; i++) {
    const eol = i % 3 === 0 ? "\r\n" : "\n";
    const bom = i % 10 === 0 ? "\uFEFF" : "";
    const end = i % 7 === 0 ? "" : eol;
    const text = `${bom}expect(a${i}).toBe(${i});${eol}const keep${i} = ${i};${eol}expect(b).toBe("x")${end}`;
    p.write(name(i), text);
    original.set(name(i), p.bytes(name(i)));
  }
  return { p, original };
}

const OPS = [{ pat: "expect($A).toBe($B)", out: "expect($A).toStrictEqual($B)" }];

describe("a batched change", () => {
  it("puts back files 1–56 when file 57 of 120 fails, and keeps the outside writer's version", async () => {
    const { p, original } = manyFiles();
    const s = p.splice({ validate: false });
    let seen = 0;
    s.events.on((e) => {
      if (e.type !== "files_changed" || ++seen !== 56) return;
      // A real process outside splice changes file 57 before the batch reaches it.
      execFileSync("sh", ["-c", `printf 'theirs\\n' > "$1"`, "sh", join(p.root, name(57))]);
    });
    const e = await rejection(s.astEdit({ ops: OPS, paths: ["src"] }));
    expect(e.code).toBe("batch_failed");
    expect(e.details.failed_path).toBe(name(57));
    expect(p.text(name(57))).toBe("theirs\n");
    for (let i = 1; i <= FILES; i++) {
      if (i !== 57) expect(p.bytes(name(i)).equals(original.get(name(i))!), name(i)).toBe(true);
    }
    expect(e.message).toContain("Atomic batch");
  });

  it("writes all 120 files, then undo restores every one byte for byte", async () => {
    const { p, original } = manyFiles();
    const s = p.splice({ validate: false });
    const r = await s.astEdit({ ops: OPS, paths: ["src"] });
    expect(r.files_changed).toBe(FILES);
    for (let i = 1; i <= FILES; i++) expect(p.text(name(i))).toContain("toStrictEqual");
    const u = (await s.undo({ backup_session: r.backup_session })) as UndoResult;
    expect(u.files.filter((f) => f.action === "restore")).toHaveLength(FILES);
    for (let i = 1; i <= FILES; i++) {
      expect(p.bytes(name(i)).equals(original.get(name(i))!), name(i)).toBe(true);
    }
    // The undo is itself one batch that can be undone: the change comes back whole.
    await s.undo({ backup_session: u.backup_session! });
    for (let i = 1; i <= FILES; i++) expect(p.text(name(i))).toContain("toStrictEqual");
  });

  it("journals the whole batch under one backup session, every change landed", async () => {
    const { p } = manyFiles();
    const s = p.splice({ validate: false });
    const r = await s.astEdit({ ops: OPS, paths: ["src"] });
    const list = (await s.undo({ list: true })) as unknown as {
      sessions: { backup_session: string; files: unknown[] }[];
    };
    const mine = list.sessions.find((x) => x.backup_session === r.backup_session);
    expect(mine?.files).toHaveLength(FILES);
  });
});

describe("the validation pass of a batch", () => {
  it("keeps to its budget: a server that never answers says validation timed out, and the writes stay", async () => {
    const p = new Project();
    projects.push(p);
    p.write("pyproject.toml", "[project]\nname = 'x'\n");
    for (const f of ["a.py", "b.py", "c.py"]) p.write(f, "x = 1\n");
    const registry = new ServerRegistry({ startTimeoutMs: 5000 });
    const s = p.splice({
      lsp: {
        registry,
        timeoutMs: 1500,
        servers: { python: { command: process.execPath, args: [SILENT] } },
      },
    });
    const patch = ["a.py", "b.py", "c.py"]
      .map((f) => `--- a/${f}\n+++ b/${f}\n@@ -1 +1 @@\n-x = 1\n+x = 2\n`)
      .join("");
    const r = (await s.patch({ patch })) as PatchResult;
    await registry.shutdown();
    for (const f of ["a.py", "b.py", "c.py"]) expect(p.text(f)).toBe("x = 2\n");
    expect(r.applied).toBe(true);
    for (const file of r.results) {
      expect(file.warnings.join(" ")).toContain("validation timed out");
    }
  });
});
