/**
 * The sentences the source walk (voice-all.test.ts) found in a model's voice,
 * said to a person by real commands on real projects: each names the flag
 * the command takes, and the flag it names does what the sentence says.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";
import { modelWords } from "../helpers/voice.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function cli(p: Project, args: string[]) {
  const r = spawnSync(BIN, [...args, "--root", p.root], { encoding: "utf8", cwd: p.root });
  const text = `${r.stdout}${r.stderr}`;
  expect(modelWords(text), text).toEqual([]);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, text };
}

async function longPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    doc.addPage([300, 300]).drawText(`page text ${i}`, { x: 40, y: 250, size: 12, font });
  }
  return doc.save();
}

describe("what a person reads names the command's flags", () => {
  it("a long PDF says to read on with --pages, and --pages reads on", async () => {
    const p = new Project();
    p.write("long.pdf", await longPdf(45));
    const first = cli(p, ["read", "long.pdf"]);
    expect(first.status).toBe(0);
    expect(first.text).toContain("read on with --pages 31..45");
    const rest = cli(p, ["read", "long.pdf", "--pages", "31..45"]);
    expect(rest.stdout).toContain("[page 31 of 45]\npage text 31");
    expect(rest.stdout).not.toContain("[page 30 of 45]");
  });

  it("a folder read says how to search it by symbol", () => {
    const p = new Project();
    p.write("src/a.ts", "export function total() {}\n");
    const r = cli(p, ["read", "src"]);
    expect(r.status).toBe(1);
    expect(r.text).toContain("Run splice read src --symbol Name to search the folder");
    expect(cli(p, ["read", "src", "--symbol", "total"]).stdout).toContain("function total");
  });

  it("a move onto a file says --overwrite", () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    p.write("b.txt", "b\n");
    const r = cli(p, ["mv", "a.txt", "b.txt"]);
    expect(r.status).toBe(1);
    expect(r.text).toContain("Pass --overwrite to replace it");
    expect(cli(p, ["mv", "a.txt", "b.txt", "--overwrite"]).status).toBe(0);
    expect(p.text("b.txt")).toBe("a\n");
  });

  it("two headings of one name say --line, and --to-line picks the heading to move under", () => {
    const p = new Project();
    p.write(
      "R.md",
      "# A\n\n## Notes\n\none\n\n# B\n\n## Notes\n\ntwo\n\n# Drafts\n\n## Old\n\nold\n",
    );
    const r = cli(p, ["md", "R.md", "Notes", "--append", "x"]);
    expect(r.status).toBe(1);
    expect(r.text).toContain("or pass --line with the line of the one you mean, e.g. --line 3.");
    const move = cli(p, ["md", "R.md", "Old", "--move-under", "Notes"]);
    expect(move.status).toBe(1);
    expect(move.text).toContain("e.g. --to-line 3.");
    expect(cli(p, ["md", "R.md", "Old", "--move-under", "Notes", "--to-line", "9"]).status).toBe(0);
    expect(p.text("R.md")).toContain("## Notes\n\ntwo\n\n### Old\n\nold\n");
  });

  it("an empty bullet or row says which flag takes the text", () => {
    const p = new Project();
    p.write("R.md", "# Features\n\n- Fast\n\n# Versions\n\n| v | date |\n|---|---|\n");
    const bullet = cli(p, ["md", "R.md", "Features", "--bullet", ""]);
    expect(bullet.text).toContain("The bullet to add is empty. Give the item's text as --bullet");
    const row = cli(p, ["md", "R.md", "Versions", "--row", "[]"]);
    expect(row.text).toContain("The row to append has no cells. Give them as --row");
  });

  it("a checkpoint and a search say what to run next as commands, not JSON", () => {
    const p = new Project();
    for (let i = 1; i <= 4; i++) p.write(`f${i}.txt`, `foo line ${i}\n`);
    expect(cli(p, ["checkpoint", "create", "pre"]).stdout).toBe(
      "Checkpoint pre taken: 4 files noted. Run splice checkpoint diff pre to see what changed since.\n",
    );
    p.write("f1.txt", "x\n");
    expect(cli(p, ["checkpoint", "restore", "pre"]).stdout).toContain(
      "(nothing was written). Run splice checkpoint restore pre --apply to write it.",
    );
    const applied = cli(p, ["checkpoint", "restore", "pre", "--apply"]);
    const id = /^Restored checkpoint pre\. Run splice undo (\S+) to put back what was there\./.exec(
      applied.stdout,
    )?.[1];
    expect(id, applied.stdout).toBeDefined();
    expect(cli(p, ["undo", id!]).status).toBe(0);
    expect(p.text("f1.txt")).toBe("x\n");
    expect(cli(p, ["search", "a.b"]).stderr).toContain("pass --regex for a regular expression");
    expect(cli(p, ["search", "FOO"]).stderr).toContain("try --ignore-case or a shorter pattern");
    expect(cli(p, ["search", "foo", "--limit", "2"]).stderr).toContain(
      'with --glob (e.g. "*.ts") or with a more specific pattern, or raise --limit (now 2, at most 2000)',
    );
    expect(cli(p, ["search", "(", "--regex"]).stderr).toContain(
      "Fix the regular expression, or search the text literally (without --regex).",
    );
  });
});
