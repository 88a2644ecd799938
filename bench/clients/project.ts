/**
 * The temp project every client works in (a copy of splice's own
 * src/text/*.ts, real code of a real size) and the script the fake model
 * plays on it: one call each of read, search, outline, run, edit and undo,
 * then an edit that is refused.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Step } from "./script.js";

const SOURCE = fileURLToPath(new URL("../../src/text/", import.meta.url));

export function makeProject(dir: string): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  for (const name of readdirSync(SOURCE)) {
    if (name.endsWith(".ts")) copyFileSync(join(SOURCE, name), join(dir, "src", name));
  }
}

export function projectScript(dir: string): Step[] {
  // An exact old_text taken from the file as it is, so the edit lands whatever the copy holds.
  const range = readFileSync(join(dir, "src", "range.ts"), "utf8").split("\n");
  const line = range.find((l) => l.startsWith("export function")) ?? range[0]!;
  return [
    { tool: "read", args: { targets: [{ path: "src/diff.ts" }] } },
    { tool: "search", args: { pattern: "export function", path: "src", context: 1 } },
    { tool: "outline", args: { path: "src" } },
    { tool: "run", args: { command: "wc -l src/*.ts && head -n 120 src/diff.ts" } },
    {
      tool: "edit",
      args: {
        targets: [
          { path: "src/range.ts", edits: [{ old_text: line, new_text: `${line} // checked` }] },
        ],
      },
    },
    { tool: "undo", args: {} },
    // A refusal: what the model reads of an error result (isError, with structuredContent.error).
    {
      tool: "edit",
      args: {
        targets: [
          { path: "src/range.ts", edits: [{ old_text: "no such line here", new_text: "x" }] },
        ],
      },
    },
  ];
}
