/**
 * What a person reads on the command line is said in a person's words: no
 * JSON arguments (`{"action": …}`), no tool called by name, no snake_case
 * argument names. The sentences below are the tools' own (written for a
 * model), said through the CLI voice of the command that prints them.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli/commands/index.js";
import { flagsOf } from "../../src/cli/define.js";
import { flagVoice } from "../../src/cli/flag-voice.js";
import { Project } from "../helpers/project.js";
import { modelWords } from "../helpers/voice.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

function voiceOf(command: string) {
  const definition = commands.find((c) => c.name === command)!;
  return flagVoice(Object.keys(flagsOf(definition)));
}

/** The tools' sentences the issue found in front of people, with the command that prints each. */
const SENTENCES: [command: string, text: string][] = [
  [
    "checkpoint",
    'Checkpoint before taken: 3 files noted; diff it with {"action": "diff", "name": "before"}.',
  ],
  [
    "checkpoint",
    'Restoring checkpoint before would write what follows (nothing was written); call again with "apply": true to write it.',
  ],
  ["search", "Fix the regular expression, or pass regex: false to search the text literally."],
  ["edit", "old_text was not found in a.ts. Set replace_all to replace every occurrence."],
  ["undo", 'Call undo with {"list": true} to see the sessions you can undo.'],
];

describe("the CLI's voice", () => {
  it.each(SENTENCES)("%s: %s", (command, text) => {
    const said = voiceOf(command)(text);
    expect(modelWords(said), said).toEqual([]);
  });

  it("counts in words: 1 file, 2 files", () => {
    const say = voiceOf("search");
    expect(say("[showing 1 matches in 1 files; there are more]")).toBe(
      "[showing 1 match in 1 file; there are more]",
    );
    expect(say("matched nothing in the 2 file(s) covered, 1 file(s) skipped")).toBe(
      "matched nothing in the 2 files covered, 1 file skipped",
    );
    expect(say("3 matches in 10 files")).toBe("3 matches in 10 files");
  });

  it("the docs list every tool the server lists", async () => {
    const { fullTools } = await import("../../src/toolkit/index.js");
    const docs = readFileSync(join(import.meta.dirname, "../../docs/tools.md"), "utf8");
    const row = /^\| `full` [^|]*\| ([^|]+) \|/m.exec(docs)![1]!.trim();
    expect(row.split(", ")).toEqual(fullTools.map((t) => t.name));
  });

  it("the checker finds what a model reads", () => {
    expect(modelWords('diff it with {"action": "diff"}')).not.toEqual([]);
    expect(modelWords("Pass a larger timeout_ms")).toEqual(["timeout_ms"]);
    expect(modelWords("Call undo with the id")).toEqual(["Call undo with"]);
    expect(modelWords("src/my_file.ts: run splice undo --list")).toEqual([]);
  });

  it("a checkpoint, a bad regex and a timeout say it with commands and flags", () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    const run = (args: string[]) =>
      spawnSync(BIN, [...args, "--root", p.root], { encoding: "utf8", cwd: p.root });
    const made = run(["checkpoint", "create", "before"]);
    expect(made.stdout).toContain("splice checkpoint diff before");
    const regex = run(["search", "(", "--regex"]);
    expect(regex.status).toBe(1);
    const timeout = run(["run", "sleep 3", "--timeout", "1"]);
    for (const r of [made, regex, timeout]) {
      expect(modelWords(r.stdout + r.stderr), r.stdout + r.stderr).toEqual([]);
    }
  });
});
