/**
 * Help comes from the command definitions: the built `splice CMD --help`
 * prints exactly what the definition renders, lists every flag the parser
 * accepts, and the parser refuses every flag the definition lacks.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands, program } from "../../src/cli/commands/index.js";
import { flagLabel, flagsOf, SHARED_FLAGS } from "../../src/cli/define.js";
import { renderCommandHelp, renderMainHelp } from "../../src/cli/usage.js";
import { Project } from "../helpers/project.js";

const BIN = join(import.meta.dirname, "../../bin/splice");

const run = (args: string[], cwd = new Project().root) =>
  spawnSync(BIN, args, { cwd, encoding: "utf8" });

/** Every flag any command declares: the ones the old global parser took from every command. */
const everyFlag = [...new Set(commands.flatMap((c) => Object.keys(flagsOf(c))))];

describe("splice --help", () => {
  it("is the list rendered from the definitions, one line per command", () => {
    const help = run(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(renderMainHelp(program));
    for (const c of commands) {
      expect(help.stdout).toMatch(new RegExp(`^  ${c.name}\\b.*  ${literal(c.summary)}$`, "m"));
    }
  });
});

describe.each(commands.map((c) => [c.name, c] as const))("splice %s", (name, command) => {
  const flags = flagsOf(command);

  it("--help prints its definition's usage, arguments and every flag", () => {
    const help = run([name, "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(renderCommandHelp(command));
    expect(help.stdout.split("\n", 1)[0]).toBe(`Usage: splice ${name} ${command.usage}`);
    for (const [flag, spec] of Object.entries(flags)) {
      const label = `${spec.short ? `-${spec.short}, ` : ""}${flagLabel(flag, spec)}`;
      const firstWords = spec.description.split(" ").slice(0, 3).join(" ");
      expect(help.stdout).toMatch(new RegExp(`^  ${literal(label)} +${literal(firstWords)}`, "m"));
    }
    for (const arg of command.args ?? []) expect(help.stdout).toContain(`  ${arg.name}`);
  });

  it("refuses a flag its definition does not declare, before doing anything", () => {
    const foreign = everyFlag.find((f) => !(f in flags)) ?? "not-a-flag";
    const p = new Project();
    const refused = run([name, `--${foreign}`], p.root);
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(new RegExp(`^splice ${name}: unknown flag --${foreign}[;]`));
    expect(refused.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("names in its help only flags it takes, and every argument in its usage", () => {
    const text = [
      command.summary,
      command.usage,
      command.description ?? "",
      ...(command.examples ?? []),
    ];
    const mentioned = text.join("\n").match(/(?<![\w-])--[a-z][a-z-]*/g) ?? [];
    for (const flag of mentioned)
      expect(flags, `${name} mentions ${flag}`).toHaveProperty(flag.slice(2));
    for (const arg of command.args ?? []) expect(command.usage).toContain(arg.name);
    const last = (command.args ?? []).findIndex((a) => a.variadic);
    expect(last === -1 || last === (command.args ?? []).length - 1).toBe(true);
  });

  it("declares none of the shared flags itself, and no short letter twice", () => {
    for (const shared of Object.keys(SHARED_FLAGS))
      expect(command.flags).not.toHaveProperty(shared);
    const shorts = Object.values(flags).flatMap((f) => (f.short ? [f.short] : []));
    expect(new Set(shorts).size).toBe(shorts.length);
  });
});

describe("the commands", () => {
  it("have distinct names", () => {
    const names = commands.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
