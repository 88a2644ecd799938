import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { numbered, Project } from "../helpers/project.js";

const FIXTURE = join(import.meta.dirname, "fixtures/race-editor.ts");

function runEditor(root: string, name: string, tag: string, offset: number): Promise<void> {
  const args = ["--import", "tsx", FIXTURE, root, name, tag, "15", String(offset)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"] });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${name} exited ${code}`)),
    );
  });
}

describe("no lost updates", () => {
  it("keeps every one of many concurrent in-process edits to one file", async () => {
    const p = new Project();
    p.write("shared.txt", numbered(100));
    const s = p.splice({ history: { session: "race" } });
    const tag = (await s.read({ targets: [{ path: "shared.txt" }] })).results[0]!.file_hash!;
    const edits = Array.from({ length: 20 }, (_, i) =>
      s.edit({
        targets: [
          { path: "shared.txt", file_hash: tag, ops: `insert after ${(i + 1) * 5}:\n+edit-${i}` },
        ],
      }),
    );
    await Promise.all(edits);
    const lines = p.text("shared.txt").split("\n");
    for (let i = 0; i < 20; i++) expect(lines).toContain(`edit-${i}`);
    expect(lines.filter((l) => l.startsWith("line "))).toHaveLength(100);
    // Each inserted line sits right after the line it was aimed at.
    for (let i = 0; i < 20; i++) {
      expect(lines[lines.indexOf(`edit-${i}`) - 1]).toBe(`line ${(i + 1) * 5}`);
    }
  });

  it("keeps every edit when two processes edit one file at once", async () => {
    const p = new Project();
    p.write("shared.txt", numbered(200));
    const s = p.splice({ history: { session: "race" } });
    const tag = (await s.read({ targets: [{ path: "shared.txt" }] })).results[0]!.file_hash!;
    await Promise.all([runEditor(p.root, "A", tag, 0), runEditor(p.root, "B", tag, 5)]);
    const lines = p.text("shared.txt").split("\n");
    for (let i = 1; i <= 15; i++) {
      expect(lines).toContain(`A-${i}`);
      expect(lines).toContain(`B-${i}`);
    }
    expect(lines.filter((l) => l.startsWith("line "))).toHaveLength(200);
  });
});
