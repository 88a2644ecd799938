/**
 * The agent's /undo takes the same revert as every undo path: a later change
 * on another line is kept, and an overlapping one is refused with the
 * command that forces it, said for a person (in process, no model).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runSlash, type SlashDeps } from "../../src/agent/slash.js";
import type { Terminal } from "../../src/agent/terminal.js";
import { createToolkit } from "../../src/toolkit/index.js";
import { Project } from "../helpers/project.js";

function slash(p: Project) {
  const toolkit = createToolkit({ root: p.root, history: { session: "agent-1" } });
  const lines: string[] = [];
  const terminal = {
    line: (text: string) => lines.push(text),
    paint: (_: string, text: string) => text,
    columns: 100,
  } as unknown as Terminal;
  const deps: SlashDeps = {
    terminal,
    toolkit,
    local: () => toolkit,
    tell: () => {},
    approvals: () => [],
  };
  return { toolkit, lines, undo: () => runSlash(deps, "undo") };
}

describe("/undo as a revert", () => {
  it("keeps a later change elsewhere, and refuses an overlap naming --force", async () => {
    const p = new Project();
    p.write("f.txt", "one\ntwo\nthree\n");
    const { toolkit, lines, undo } = slash(p);
    const edit = (old_text: string, new_text: string) =>
      toolkit.call("edit", { targets: [{ path: "f.txt", edits: [{ old_text, new_text }] }] });
    await edit("one", "ONE");
    writeFileSync(join(p.root, "f.txt"), "ONE\ntwo\nTHREE\n");
    await undo();
    expect(p.text("f.txt")).toBe("one\ntwo\nTHREE\n");
    expect(lines.some((l) => /^\[undid \S+: f\.txt\]$/.test(l))).toBe(true);

    const { results } = (await edit("two", "TWO")) as { results: { backup_session: string }[] };
    writeFileSync(join(p.root, "f.txt"), "one\nzwei\nTHREE\n");
    await undo();
    const said = lines.find((l) => l.startsWith("[undo refused:"))!;
    expect(said).toContain("f.txt: line 2 changed since");
    expect(said).toContain(`run splice undo ${results[0]!.backup_session} --force`);
    expect(said).not.toContain('"force"');
    expect(p.text("f.txt")).toBe("one\nzwei\nTHREE\n");
  });
});
