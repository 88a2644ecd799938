/**
 * The README's table of exit codes is a contract: every row's example runs
 * through the built `splice` on a real temp project and must exit as the row
 * says, and a row that promises an empty stdout gets one.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const REPO = join(import.meta.dirname, "../..");
const BIN = join(REPO, "bin/splice");

interface Row {
  exit: string;
  when: string;
  example: string;
}

function tableRows(): Row[] {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const at = readme.indexOf("| exit | when | for example |");
  expect(at).toBeGreaterThan(-1);
  const lines = readme.slice(at).split("\n");
  const rows: Row[] = [];
  for (const line of lines.slice(2)) {
    if (!line.startsWith("|")) break;
    const [exit, when, example] = line
      .slice(1, -1)
      .split(" | ")
      .map((cell) => cell.trim());
    rows.push({ exit: exit!, when: when!, example: example! });
  }
  return rows;
}

/** What every example runs against. */
function fixture(): Project {
  const p = new Project();
  p.write("hello.txt", "hello\nworld\n");
  p.write("untidy.txt", "a  \nb");
  p.write("tsconfig.json", "{}\n");
  p.write("typed.ts", "export const a: number = 1;\n");
  p.write(
    "ok.diff",
    "--- a/hello.txt\n+++ b/hello.txt\n@@ -1,2 +1,2 @@\n-hello\n+hello there\n world\n",
  );
  p.write("bad.diff", "--- a/hello.txt\n+++ b/hello.txt\n@@ -1,2 +1,2 @@\n-absent\n+x\n nope\n");
  return p;
}

/** The exit the row promises: its number, or for N and 128+N the one its example names. */
function expected(row: Row): number {
  if (/^\d+$/.test(row.exit)) return Number(row.exit);
  const named = / exits (\d+)$/.exec(row.example);
  expect(named, `row ${row.exit} names the code its example exits with`).not.toBeNull();
  return Number(named![1]);
}

const rows = tableRows();

describe("the README's exit-code table", () => {
  it("has the codes splice documents, and --help lists each", () => {
    const codes = rows.map((r) => r.exit);
    expect(new Set(codes)).toEqual(new Set(["0", "1", "2", "3", "N", "124", "128+N", "70", "130"]));
    const help = spawnSync(BIN, ["--help"], { encoding: "utf8" }).stdout;
    for (const code of codes)
      expect(help).toMatch(new RegExp(`\\n {2}${code.replace("+", "\\+")} `));
  });

  it.each(rows.filter((r) => r.example !== "—"))("$exit: $when", (row) => {
    const command = /^`splice ([^`]+)`/.exec(row.example)?.[1];
    expect(command, row.example).toBeDefined();
    const p = fixture();
    const r = spawnSync("sh", ["-c", `"${BIN}" ${command} --root "${p.root}"`], {
      cwd: p.root,
      encoding: "utf8",
      input: "",
      timeout: 30_000,
    });
    expect({ code: r.status, stderr: r.stderr }).toMatchObject({ code: expected(row) });
    if (/stdout is empty|nothing is written or printed/.test(row.when)) expect(r.stdout).toBe("");
    if (/stderr (says|lists)/.test(row.when)) expect(r.stderr).not.toBe("");
    if (/nothing (is written|was done)/.test(row.when)) {
      expect(p.text("hello.txt")).toBe("hello\nworld\n");
    }
  });
});
