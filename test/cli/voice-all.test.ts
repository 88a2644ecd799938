/**
 * One voice per reader, everywhere: every refusal and warning src/ can give
 * (found by reading the source, test/helpers/messages.ts), said as the CLI
 * says it — `cliMessage`'s advice in the CLI voice, then the `say` of the
 * command that prints it — holds no JSON argument, no tool called by name
 * and no snake_case argument name.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_VOICE } from "../../src/cli/advice.js";
import { commands } from "../../src/cli/commands/index.js";
import { flagsOf } from "../../src/cli/define.js";
import { flagVoice, type Say } from "../../src/cli/flag-voice.js";
import { sourceFiles, walkMessages } from "../helpers/messages.js";
import { modelWords } from "../helpers/voice.js";

/** The commands that print a tool's results: its sentences are said with their flags. */
const COMMANDS_OF_TOOL: Record<string, string[]> = {
  "ast-edit": ["ast"],
  "ast-rename": ["rename"],
  checkpoint: ["checkpoint"],
  doc: ["doc"],
  edit: ["edit"],
  file: ["mv", "rm"],
  history: ["history"],
  list: ["list"],
  "lsp-health": ["lsp-health"],
  md: ["md"],
  outline: ["outline"],
  patch: ["patch"],
  plan: ["plan"],
  read: ["read"],
  rollback: ["rollback"],
  run: ["run"],
  search: ["search"],
  tidy: ["tidy"],
  undo: ["undo"],
  write: ["write"],
};

/** Folders whose sentences only a model reads: the MCP and SDK hosts, the terminal agent. */
const MODEL_ONLY = /^(hosts|agent)\//;
/** Tools no command prints (a person reaches them only through `splice call` and JSON). */
const CALL_ONLY = new Set(["help", "notebook"]);

function sayOf(command: string): Say {
  const definition = commands.find((c) => c.name === command);
  if (!definition) throw new Error(`no command ${command}`);
  return flagVoice(Object.keys(flagsOf(definition)));
}

/** A module outside the tools can be printed by any command: said with every command's flags. */
const ANY = flagVoice(commands.flatMap((c) => Object.keys(flagsOf(c))));

function readers(where: string): Say[] | undefined {
  if (MODEL_ONLY.test(where)) return undefined;
  const tool = /^tools\/([^/]+)\//.exec(where)?.[1];
  if (!tool) return [ANY];
  if (CALL_ONLY.has(tool)) return undefined;
  const names = COMMANDS_OF_TOOL[tool];
  if (!names) throw new Error(`say which command prints the ${tool} tool's sentences`);
  return names.map(sayOf);
}

const walk = walkMessages(CLI_VOICE);

describe("every sentence a person reads", () => {
  it("the walk finds the refusals and warnings", () => {
    const errors = walk.sites.filter((s) => s.kind === "error");
    const warnings = walk.sites.filter((s) => s.kind !== "error");
    const texts = walk.sites.reduce((n, s) => n + s.texts.length, 0);
    const read = walk.sites.filter((s) => readers(s.where));
    console.log(
      `${walk.toolErrors} new ToolError calls; ${errors.length} error and ${warnings.length} warning sites (${read.length} a person reads), ${texts} sentences; ${walk.forwarded} passed on to a helper, ${walk.opaque} whole messages of other errors`,
    );
    // Every `new ToolError(` in src/ is reached: the walk reads the source, it is no hand list.
    const written = sourceFiles().reduce(
      (n, f) => n + (readFileSync(f, "utf8").match(/\bnew ToolError\(/g)?.length ?? 0),
      0,
    );
    expect(walk.toolErrors).toBe(written);
    expect(errors.length).toBeGreaterThan(written);
  });

  it("the walk follows helpers, warnings and advice, and the checker finds a model's words", () => {
    const root = mkdtempSync(join(tmpdir(), "splice-walk-"));
    writeFileSync(
      join(root, "errors.ts"),
      `export class ToolError extends Error {
  constructor(readonly code: string, message: string, readonly details = {}, readonly next?: { say(v: any): string }) {
    super(message);
  }
}
`,
    );
    writeFileSync(
      join(root, "a.ts"),
      `import { ToolError } from "./errors.js";
const HOW = "pass \\"force\\": true";
function refuse(path: string, message: string) {
  return new ToolError("guard", message, { path });
}
export function f(path: string, force: boolean, warnings: string[]) {
  if (force) throw refuse(path, \`\${path} is blocked; \${HOW}.\`);
  warnings.push(force ? "line_range wins" : "fine");
  throw new ToolError("not_found", \`No \${path}.\`, {}, { say: (v) => \`\${v.call("undo", { list: true })} to see.\` });
}
`,
    );
    const small = walkMessages(CLI_VOICE, root);
    expect(small.toolErrors).toBe(2);
    expect(small.forwarded).toBe(1);
    const texts = small.sites.flatMap((s) => s.texts.map((t) => [s.where, t]));
    expect(texts).toEqual([
      ["a.ts:7", 'src/a.ts is blocked; pass "force": true.'],
      ["a.ts:8", "line_range wins"],
      ["a.ts:8", "fine"],
      ["a.ts:9", "No src/a.ts. Run splice undo --list to see."],
    ]);
    expect(texts.map(([, t]) => modelWords(t!))).toEqual([
      ['"force": true'],
      ["line_range"],
      [],
      [],
    ]);
  });

  it("holds no JSON, tool name or snake_case argument", () => {
    const found: string[] = [];
    for (const site of walk.sites) {
      const says = readers(site.where);
      if (!says) continue;
      for (const text of site.texts) {
        for (const say of says) {
          const words = modelWords(say(text, "src/a.ts"));
          if (words.length > 0) found.push(`${site.where}: ${words.join(" | ")}\n    ${say(text)}`);
        }
      }
    }
    expect([...new Set(found)].join("\n")).toBe("");
  });
});
