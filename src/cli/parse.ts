/**
 * Strict parsing of one command's flags and positionals. node:util's
 * parseArgs (strict) decides what is valid; a second, lenient pass over the
 * same arguments only finds which token was wrong, so the message can name
 * it and the nearest real flag.
 */
import { parseArgs } from "node:util";
import {
  type ArgSpec,
  type CommandDefinition,
  type FlagSpecs,
  flagLabel,
  flagsOf,
  PROGRAM_FLAGS,
  SHARED_FLAGS,
  UsageError,
} from "./define.js";
import { nearest } from "./suggest.js";

export { UsageError };

type Token = NonNullable<ReturnType<typeof parseArgs>["tokens"]>[number];

/** A `multiple` flag's values come as a list; every other flag's as one string or boolean. */
type Values = Record<string, string | boolean | string[] | undefined>;

export interface ParsedCommand {
  flags: Values;
  positionals: string[];
  help: boolean;
}

function optionsOf(specs: FlagSpecs) {
  return Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      {
        type: spec.type,
        ...(spec.short ? { short: spec.short } : {}),
        ...(spec.multiple ? { multiple: true } : {}),
      },
    ]),
  );
}

/** `-lsit` (one dash) is read as the letters -l -s -i -t; whoever typed it meant `--lsit`. */
function typedFlag(token: Token & { kind: "option" }, argv: readonly string[]) {
  const raw = argv[token.index] ?? token.rawName;
  const word = /^-([^-=][^=]+)/.exec(raw);
  return word
    ? { shown: raw.split("=")[0]!, name: word[1]! }
    : { shown: token.rawName, name: token.name };
}

interface Problem {
  what: string;
  /** The flag or command meant, when one is near: then it is the whole fix. */
  meant?: string;
}

function problem(specs: FlagSpecs, tokens: Token[], argv: readonly string[]): Problem | undefined {
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const spec = specs[token.name];
    if (!spec) {
      const typed = typedFlag(token, argv);
      const near = typed.name.length > 1 ? nearest(typed.name, Object.keys(specs)) : undefined;
      return { what: `unknown flag ${typed.shown}`, ...(near ? { meant: `--${near}` } : {}) };
    }
    const name = `--${token.name}`;
    if (spec.type === "boolean" && token.value !== undefined) {
      return { what: `${name} takes no value (got "${token.value}")` };
    }
    if (spec.type === "string" && token.value === undefined) {
      return { what: `${name} needs a value: ${flagLabel(token.name, spec)}` };
    }
    if (spec.type === "string" && !token.inlineValue && /^-./.test(token.value ?? "")) {
      const value = spec.secret ? (spec.valueName ?? "VALUE") : token.value;
      return {
        what: `${name} needs a value, and ${spec.secret ? "it" : `"${value}"`} looks like a flag; write ${name}=${value} if it is the value`,
      };
    }
  }
  return undefined;
}

/** One line: the problem, then the fix when one is near, else where the help is. */
function sentence(where: string, p: Problem, help: string): string {
  return p.meant ? `${where}: ${p.what}; did you mean ${p.meant}?` : `${where}: ${p.what}; ${help}`;
}

/** parseArgs refused the line: say which token, from a lenient pass over the same line. */
function refusal(specs: FlagSpecs, tokens: Token[], argv: readonly string[], error: unknown) {
  return problem(specs, tokens, argv) ?? { what: (error as Error).message.split("\n")[0]! };
}

function checkArity(command: CommandDefinition, positionals: string[]): string | undefined {
  const args: readonly ArgSpec[] = command.args ?? [];
  const required = args.filter((a) => !a.optional);
  if (positionals.length < required.length) {
    return `missing ${required
      .slice(positionals.length)
      .map((a) => a.name)
      .join(" and ")}`;
  }
  if (args.at(-1)?.variadic !== true && positionals.length > args.length) {
    const extra = positionals[args.length]!;
    return args.length === 0
      ? `takes no arguments, got "${extra}"`
      : `unexpected argument "${extra}"`;
  }
  return undefined;
}

export function parseCommand(command: CommandDefinition, argv: readonly string[]): ParsedCommand {
  const specs = flagsOf(command);
  const options = optionsOf(specs);
  const args = [...argv];
  const lenient = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  // Asking for help never fails, whatever else is on the line.
  if (lenient.values.help === true) return { flags: {}, positionals: [], help: true };
  const where = `splice ${command.name}`;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    const what = refusal(specs, lenient.tokens, argv, error);
    throw new UsageError(sentence(where, what, `run ${where} --help for its flags`));
  }
  const arity = checkArity(command, parsed.positionals);
  if (arity) throw new UsageError(`${where}: ${arity}; run ${where} --help for its usage`);
  return { flags: parsed.values as Values, positionals: parsed.positionals, help: false };
}

const TOP_FLAGS: FlagSpecs = { ...SHARED_FLAGS, ...PROGRAM_FLAGS };

export type Located =
  | { kind: "command"; name: string; argv: string[] }
  | { kind: "top"; flags: Values };

/**
 * Finds the command: the first positional, past any shared flags before it
 * (`splice --root DIR read a.ts`). Its arguments are everything else.
 */
export function locateCommand(argv: readonly string[]): Located {
  const args = [...argv];
  const options = optionsOf(TOP_FLAGS);
  const { tokens } = parseArgs({
    args,
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const first = tokens.find((t) => t.kind === "positional");
  if (first) {
    return { kind: "command", name: first.value, argv: args.filter((_, i) => i !== first.index) };
  }
  try {
    return { kind: "top", flags: parseArgs({ args, options, strict: true }).values as Values };
  } catch (error) {
    const what = refusal(TOP_FLAGS, tokens, argv, error);
    throw new UsageError(sentence("splice", what, "run splice --help for its flags"));
  }
}

export interface ToolByName {
  name: string;
  example: unknown;
}

/**
 * A name that is no command: the nearest command, or, for a tool's name
 * (`ast_edit`), how to call the tool; else where the list is and that any
 * tool runs through `splice call`.
 */
export function unknownCommand(
  name: string,
  known: readonly string[],
  tools: readonly ToolByName[] = [],
): UsageError {
  const tool = tools.find((t) => t.name === name);
  if (tool) {
    return new UsageError(
      `splice: "${name}" is a tool without its own command; run it as splice call ${name} '${JSON.stringify(tool.example)}'`,
    );
  }
  const near = nearest(name, known);
  return new UsageError(
    near
      ? `splice: unknown command "${name}"; did you mean "${near}"?`
      : `splice: unknown command "${name}"; run splice --help for the list of commands, or splice call TOOL '{json}' for any tool`,
  );
}
