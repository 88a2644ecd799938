/**
 * What a command is: its name, help and flags as data, and one `run`. The
 * parser, the help and `run` all read the same definition, so a flag cannot
 * be accepted without being documented, nor documented without being parsed.
 */
import { ToolError } from "../errors.js";
import type { Splice } from "../splice.js";
import type { Remotes } from "../workspace/remote/hosts.js";
import type { Say } from "./flag-voice.js";
import type { Paint } from "./format.js";

export interface FlagSpec {
  type: "string" | "boolean";
  /** One letter, for `-h`. */
  short?: string;
  /** One line; help wraps it. */
  description: string;
  /** The placeholder help shows after a string flag: `--hash TAG`. */
  valueName?: string;
  /** A path in the project: typed relative to where you stand, handed to the tool root-relative. */
  path?: boolean;
  /** A string flag that may be given again (`-g a -g b`); `run` gets every value, in order. */
  multiple?: boolean;
  /** A value no error repeats (a token): whoever started the command may keep its stderr in a log. */
  secret?: boolean;
}

export type FlagSpecs = Record<string, FlagSpec>;

export interface ArgSpec {
  /** As help shows it: `PATH`, `PATH[:RANGE]`. */
  name: string;
  description: string;
  optional?: boolean;
  /** Takes every remaining positional; only the last argument can. */
  variadic?: boolean;
  /** A path in the project: typed relative to where you stand, handed to the tool root-relative. */
  path?: boolean;
}

type TypeOf<T extends FlagSpec["type"]> = T extends "string" ? string : boolean;
/** A spec that leaves `multiple` out (reads as unknown) or false takes one value. */
type ValueOf<S extends FlagSpec> = S extends { multiple: true }
  ? string[]
  : unknown extends S["multiple"]
    ? TypeOf<S["type"]>
    : [S["multiple"]] extends [false | undefined]
      ? TypeOf<S["type"]>
      : string[] | TypeOf<S["type"]>;

/** What `run` gets for each declared flag: a string flag's value(s), or true for a boolean one. */
export type FlagValues<F extends FlagSpecs> = { [K in keyof F]?: ValueOf<F[K]> };

/** Flags every command takes. The parser merges them in; no command declares them. */
export const SHARED_FLAGS = {
  root: {
    type: "string",
    valueName: "DIR",
    description:
      "the project root (default: the nearest folder up holding .splice/ or .git, else the current one)",
  },
  remote: {
    type: "string",
    multiple: true,
    valueName: "NAME=COMMAND",
    description:
      "a remote host: NAME:PATH then reaches it through COMMAND, e.g. box='ssh -o BatchMode=yes dev@box' (docs/remote.md)",
  },
  verbose: {
    type: "boolean",
    description: "say on stderr which root was chosen and where the command ran, and why",
  },
  "no-engine": {
    type: "boolean",
    description: "run in this process, not in the engine that keeps roots warm (splice engine)",
  },
  json: {
    type: "boolean",
    description: "print the tool's JSON result instead of the human view",
  },
  help: { type: "boolean", short: "h", description: "show this help" },
} as const satisfies FlagSpecs;

/**
 * For a command that writes: wait for the type verdict, and exit 3 when the
 * change introduced validation errors.
 */
export const VERDICT_FLAGS = {
  validate: {
    type: "boolean",
    description:
      "wait for the language server's type verdict, even while it is still starting (default: not while it starts)",
  },
  strict: {
    type: "boolean",
    description:
      "exit 3 when the change was written but introduced validation errors (default: 0, said on stderr)",
  },
} as const satisfies FlagSpecs;

/** Flags of `splice` itself, before or instead of a command. */
export const PROGRAM_FLAGS = {
  version: { type: "boolean", description: "print splice's version" },
} as const satisfies FlagSpecs;

export interface CommandInput<F extends FlagSpecs> {
  root: string;
  /** The remote hosts by name (--remote and `.splice/config.json`). */
  remotes: Remotes;
  /** How the root was chosen, as one line: `root /p (nearest folder holding .git)`. */
  rootLine: string;
  positionals: string[];
  flags: FlagValues<F>;
  /** Opened on first use: serve and agent build their own, and a usage error needs none. */
  readonly splice: Splice;
  /**
   * Stdin's text. On a terminal nothing is piped, so instead of waiting it is
   * a usage error whose advice is `howToPass` ("pass --ops OPS or --ops-file FILE").
   */
  readStdin: (howToPass: string) => Promise<string>;
  paint: Paint;
  /** Colours for stderr, which may be a terminal when stdout is not. */
  errPaint: Paint;
  /** A tool's sentence (a warning, a notice) said with this command's flags: `--old`, not `old_text`. */
  say: Say;
  /** Aborted by Ctrl-C: a command that starts processes passes it on, so their groups die too. */
  signal: AbortSignal;
}

/** A command's JSON result and its human view; main prints one of them. */
export interface CommandOutput {
  json: unknown;
  human: string;
  /** The tool answered, but said no (nothing matched, a check failed): exit 1. */
  refused?: boolean;
  /** The exit code when it is the command's own (`run` passes its command's status through). */
  exitCode?: number;
  /** Lines for stderr, after the result: notices, how a run ended. Stdout carries only `human`. */
  notices?: string[];
}

export interface CommandDefinition<F extends FlagSpecs = FlagSpecs> {
  name: string;
  /** One line for the list of commands. */
  summary: string;
  /** What follows `splice NAME` in the usage line; the shared flags are implied. */
  usage: string;
  /** Paragraphs shown after the usage line, as written. */
  description?: string;
  args?: readonly ArgSpec[];
  flags: F;
  /** False when the command's output is not a tool result (it then takes no --json). */
  json?: boolean;
  examples?: readonly string[];
  /**
   * After `run` returns, the process exits within this many milliseconds even
   * if something still holds it open (serve: a call that ignored its abort).
   */
  exitGraceMs?: number;
  /**
   * What the first Ctrl-C does (the second always stops at once): "exit" (the
   * default) stops; "abort" aborts `signal` and prints what the command
   * returns (run, plan: their process groups are stopped); "finish" lets a
   * write in progress complete, so no change is left half-applied.
   */
  onInterrupt?: "exit" | "abort" | "finish";
  /** A result to print, or an exit code when the command printed its own output. */
  run(input: CommandInput<F>): Promise<CommandOutput | number>;
}

/** The command's own flags with the shared ones it takes (--json only where it applies). */
export function flagsOf(command: CommandDefinition): FlagSpecs {
  const { root, remote, verbose, json, help } = SHARED_FLAGS;
  return {
    ...command.flags,
    root,
    remote,
    verbose,
    "no-engine": SHARED_FLAGS["no-engine"],
    ...(command.json === false ? {} : { json }),
    help,
  };
}

/** How help and usage errors write a flag: `--hash TAG`, `--force`. */
export function flagLabel(name: string, spec: FlagSpec): string {
  const value = spec.type === "string" ? ` ${spec.valueName ?? "VALUE"}` : "";
  return `--${name}${value}`;
}

/** Only for type inference: the flags' types flow into `run`'s input. */
export function defineCommand<const F extends FlagSpecs>(
  definition: CommandDefinition<F>,
): CommandDefinition<F> {
  return definition;
}

/** Wrong use of the command line: one line on stderr, exit 2, nothing done. */
export class UsageError extends Error {}

/** A command's own check of its input failed: a tool-style refusal (exit 1), as the tools' are. */
export function invalid(message: string): never {
  throw new ToolError("invalid_input", message);
}
