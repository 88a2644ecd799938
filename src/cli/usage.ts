/**
 * Help, rendered from the command definitions: the list of commands for
 * `splice --help`, and usage, arguments and every flag for `splice CMD
 * --help`. Nothing here is written by hand, so help shows exactly what the
 * parser accepts.
 */

import {
  type CommandDefinition,
  type FlagSpecs,
  flagLabel,
  flagsOf,
  PROGRAM_FLAGS,
  SHARED_FLAGS,
} from "./define.js";
import { EXIT_CODES } from "./exit-codes.js";

/** Help is read in a terminal; wrap flag descriptions to fit one. */
const WIDTH = 80;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** Two columns: a label, and a description beside it (wrapped, unless it is one line by design). */
function table(rows: [string, string][], wrapped = true): string[] {
  const left = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.flatMap(([label, text]) => {
    const lines = wrapped ? wrap(text, Math.max(WIDTH - 2 - left, 30)) : [text];
    return lines.map((line, i) => `  ${(i === 0 ? label : "").padEnd(left)}${line}`.trimEnd());
  });
}

function flagRows(specs: FlagSpecs): [string, string][] {
  return Object.entries(specs).map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : "";
    return [`${short}${flagLabel(name, spec)}`, spec.description];
  });
}

/** The positionals as a usage line writes them: `PATH [TAG]`, `PATHS...`. */
export function argsSynopsis(command: CommandDefinition): string {
  return (command.args ?? [])
    .map((a) => {
      const name = `${a.name}${a.variadic ? "..." : ""}`;
      return a.optional ? `[${name}]` : name;
    })
    .join(" ");
}

function section(title: string, lines: readonly string[]): string[] {
  return lines.length > 0 ? ["", `${title}:`, ...lines] : [];
}

export function renderCommandHelp(command: CommandDefinition): string {
  const args = command.args ?? [];
  const lines = [
    `Usage: splice ${command.name}${command.usage ? ` ${command.usage}` : ""}`,
    "",
    (command.description ?? command.summary).trimEnd(),
    ...section(
      "Arguments",
      table(args.map((a) => [`${a.name}${a.variadic ? "..." : ""}`, a.description])),
    ),
    ...section("Flags", table(flagRows(flagsOf(command)))),
    ...section(
      "Examples",
      (command.examples ?? []).map((e) => `  ${e}`),
    ),
  ];
  return `${lines.join("\n")}\n`;
}

export interface Program {
  commands: readonly CommandDefinition[];
  examples: readonly string[];
}

export function renderMainHelp(program: Program): string {
  const commands = program.commands.map((c): [string, string] => [
    [c.name, argsSynopsis(c)].filter(Boolean).join(" "),
    c.summary,
  ]);
  const without = program.commands.filter((c) => c.json === false).map((c) => c.name);
  const except = without.length > 0 ? ` (not for ${without.join(", ")})` : "";
  const { json } = SHARED_FLAGS;
  const shared: FlagSpecs = {
    ...SHARED_FLAGS,
    json: { ...json, description: json.description + except },
  };
  const lines = [
    "splice — file tools for AI coding agents",
    "",
    "Usage: splice <command> [flags]",
    ...section("Commands", table(commands, false)),
    ...section("Flags for every command", table(flagRows(shared))),
    ...section("Flags of splice itself", table(flagRows(PROGRAM_FLAGS))),
    ...section("Exit codes", table(EXIT_CODES)),
    "",
    "Each command's own flags: splice <command> --help",
    ...section(
      "Examples",
      program.examples.map((e) => `  ${e}`),
    ),
  ];
  return `${lines.join("\n")}\n`;
}
