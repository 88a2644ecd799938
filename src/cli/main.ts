/**
 * The `splice` command: finds the command, parses its flags strictly, runs
 * it and prints its result on stdout, and what it says about it on stderr.
 * Exit codes: exit-codes.ts.
 */
import { isToolError, type ToolError } from "../errors.js";
import type { ColdStart } from "../lsp/cold-start.js";
import { exhaustedError } from "../proc/exhausted.js";
import type { Splice } from "../splice.js";
import { VERSION } from "../util/version.js";
import { parseRemoteFlag, projectRemotes, type Remotes } from "../workspace/remote/hosts.js";
import { cliMessage } from "./advice.js";
import { commands, program } from "./commands/index.js";
import {
  type CommandDefinition,
  type CommandInput,
  type CommandOutput,
  type FlagSpecs,
  flagsOf,
  UsageError,
} from "./define.js";
import { EXIT } from "./exit-codes.js";
import { flagVoice, type Say } from "./flag-voice.js";
import { errorJson, makePaint } from "./format.js";
import { readAllStdin } from "./inputs.js";
import { io } from "./io.js";
import { locateCommand, parseCommand, unknownCommand } from "./parse.js";
import { refusedParts } from "./refused.js";
import { onSameRoot, type Placed, placeCommand } from "./remote-root.js";
import {
  type ChosenRoot,
  describeRoot,
  findRoot,
  pathPositionals,
  rootPath,
  rootPositionals,
} from "./root.js";
import { introducedErrors, splitWarnings, validationNotice } from "./streams.js";
import { renderCommandHelp, renderMainHelp } from "./usage.js";

/** The CLI's reads and edits share one session per root, so a read vouches for the next call's edit. */
const CLI_SESSION = "cli";

const EXIT_OK = EXIT.ok;
const EXIT_REFUSED = EXIT.refused;
const EXIT_USAGE = EXIT.usage;
const EXIT_INTERNAL = EXIT.internal;
const EXIT_INTERRUPTED = EXIT.interrupted;

/**
 * Ctrl-C, as the command asked: stop, abort its processes, or let a write
 * finish. A second Ctrl-C stops at once, saying how to restore what a
 * write had done by then.
 */
function onCtrlC(
  mode: "exit" | "abort" | "finish",
  /** The backup sessions this command opened so far, newest first. */
  written: () => string[],
): AbortController {
  const controller = new AbortController();
  // "exit" keeps node's own Ctrl-C, and serve and agent their own handlers.
  if (mode === "exit") return controller;
  let presses = 0;
  // The command's streams, taken now: a Ctrl-C is heard outside the command's own async context.
  const streams = io();
  const { stderr } = streams;
  streams.onInterrupt(() => {
    presses++;
    if (presses > 1) {
      if (mode === "finish") stderr.write(stoppedNote(written()));
      streams.exit(EXIT_INTERRUPTED);
      return;
    }
    controller.abort(new Error("interrupted"));
    stderr.write(
      mode === "abort"
        ? "\nsplice: stopping its processes (Ctrl-C again to quit at once)\n"
        : "\nsplice: finishing the write so no file is left half-changed (Ctrl-C again to stop at once)\n",
    );
  });
  return controller;
}

/** What a second Ctrl-C says: the exact undo of what the write had done by then. */
function stoppedNote(sessions: string[]): string {
  if (sessions.length === 0) {
    return "\nsplice: stopped in the middle of a write; run splice undo --list, then splice undo ID to restore what it had written\n";
  }
  const undo = sessions.map((id) => `splice undo ${id}`).join(", then ");
  return `\nsplice: stopped in the middle of a write; some files may be changed. Restore them with: ${undo}\n`;
}

/**
 * Backup sessions of this process's calls: the CLI's session, opened since
 * `since` (ms). Read from the journal, so it holds whatever landed so far.
 */
function sessionsSince(splice: Splice | undefined, since: number): string[] {
  if (!splice) return [];
  try {
    return splice
      .backups()
      .filter((b) => b.session === CLI_SESSION && Date.parse(b.at) >= since)
      .map((b) => b.id);
  } catch {
    return [];
  }
}

type Flags = Record<string, string | boolean | string[] | undefined>;

export interface Outcome {
  code: number;
  /** Exit by then even if something still holds the process open. */
  exitWithinMs?: number;
}

/** Stdin's text, or a usage error when it is a terminal nobody is typing a file into. */
function stdinOf(command: string): (howToPass: string) => Promise<string> {
  return async (howToPass) => {
    const { stdin } = io();
    if (stdin.isTTY) {
      throw new UsageError(`splice ${command}: nothing is piped in; ${howToPass}, or pipe it in`);
    }
    return readAllStdin(stdin);
  };
}

function version(): string {
  return `${VERSION}\n`;
}

/**
 * The engine loads only for a command that runs: `splice --help`, a usage
 * error and a typo answer without it, in about the time node takes to start.
 */
async function inputFor(
  command: CommandDefinition,
  chosen: ChosenRoot,
  remotes: Remotes,
  positionals: string[],
  flags: Flags,
  signal: AbortSignal,
  coldStart: ColdStart,
): Promise<CommandInput<FlagSpecs> & { opened: () => Splice | undefined }> {
  const { createSplice } = await import("../splice.js");
  const { root } = chosen;
  let splice: Splice | undefined;
  return {
    opened: () => splice,
    root,
    remotes,
    rootLine: describeRoot(chosen),
    positionals,
    flags,
    get splice() {
      if (!splice) {
        // A command `run` starts gets the environment of the shell that typed it.
        // In the engine the root stays watched between commands: run's checkpoints read the table.
        const { env, warm } = io();
        const history = { session: CLI_SESSION };
        const lsp = { coldStart };
        splice = createSplice({ root, remotes, env, history, lsp, watch: warm === true });
        // A person quotes the file as it is now, not as this session last read it.
        splice.context.quoteBase = "current";
      }
      return splice;
    },
    readStdin: stdinOf(command.name),
    say: flagVoice(Object.keys(flagsOf(command))),
    signal,
    paint: makePaint(io().stdout),
    errPaint: makePaint(io().stderr),
  };
}

/** A refusal in the command's voice; the file it names lets it say how to read that file. */
function said(say: Say, error: ToolError): string {
  const { path } = error.details;
  return say(cliMessage(error), typeof path === "string" ? path : undefined);
}

/** Prints a tool result, or the refusal a tool answered with. */
async function runCommand(
  command: CommandDefinition,
  input: CommandInput<FlagSpecs>,
  json: boolean,
  again: (text: string, stream: "out" | "err") => string,
): Promise<number> {
  let out: CommandOutput | number;
  try {
    out = await command.run(input);
  } catch (error) {
    // A call that Ctrl-C aborted ends with the abort's reason, not a bug.
    if (input.signal.aborted && error === input.signal.reason) {
      io().stderr.write("splice: interrupted; its processes were stopped\n");
      return EXIT_INTERRUPTED;
    }
    if (!isToolError(error)) throw error;
    if (json) io().stdout.write(`${errorJson(error)}\n`);
    else {
      const paint = makePaint(io().stderr);
      io().stderr.write(
        `${paint("red", `error [${error.code}]:`)} ${again(said(input.say, error), "err")}\n`,
      );
    }
    return EXIT_REFUSED;
  }
  if (typeof out === "number") return out;
  const { stdout, stderr } = io();
  const err = makePaint(stderr);
  const errors = introducedErrors(out.json);
  const strict = input.flags.strict === true;
  if (json) stdout.write(`${JSON.stringify(out.json, null, 2)}\n`);
  else {
    const { out: result, err: warnings } = splitWarnings(out.human);
    // Nothing to say is an empty stdout, as grep's: `| wc -l` counts results only.
    if (result !== "") stdout.write(`${again(result, "out")}\n`);
    const notes = [...warnings, ...(out.notices ?? [])];
    if (errors.length > 0) notes.push(...validationNotice(errors, strict, err));
    if (notes.length > 0) stderr.write(`${again(notes.join("\n"), "err")}\n`);
  }
  if (out.exitCode !== undefined) return out.exitCode;
  // A file that was missing or a symbol not found is a refusal, though the others were read.
  if (out.refused === true || refusedParts(out.json) > 0) return EXIT.refused;
  return strict && errors.length > 0 ? EXIT.strict : EXIT.ok;
}

/**
 * The remote hosts: the project's `.splice/config.json` (the project found
 * from where you stand), then each --remote NAME=COMMAND over it.
 */
function remotesOf(flag: unknown, cwd: string): Remotes {
  try {
    const remotes: Record<string, string | readonly string[]> = {
      ...projectRemotes(findRoot(cwd).root),
    };
    for (const value of Array.isArray(flag) ? flag : []) {
      const [name, command] = parseRemoteFlag(String(value));
      remotes[name] = command;
    }
    return remotes;
  } catch (error) {
    if (isToolError(error)) throw new UsageError(`splice: ${error.message}`);
    throw error;
  }
}

/**
 * Where the command works (remote-root.ts): from --root and the paths typed.
 * A host out of reach is a refusal, said as one, with its exit code.
 */
async function placeOf(
  command: CommandDefinition,
  given: string | undefined,
  positionals: string[],
  flags: Flags,
  remotes: Remotes,
): Promise<Placed | number> {
  const pathFlags = Object.entries(flags)
    .filter(([name, value]) => typeof value === "string" && command.flags[name]?.path)
    .map(([, value]) => value as string);
  const pathArgs = [...pathPositionals(command.args ?? [], positionals), ...pathFlags];
  try {
    return await placeCommand(given, pathArgs, remotes, io().cwd);
  } catch (error) {
    if (!isToolError(error)) throw error;
    const paint = makePaint(io().stderr);
    io().stderr.write(`${paint("red", `error [${error.code}]:`)} ${cliMessage(error)}\n`);
    return EXIT_REFUSED;
  }
}

async function main(argv: string[]): Promise<Outcome> {
  const { stdout, stderr } = io();
  const located = locateCommand(argv);
  if (located.kind === "top") {
    if (located.flags.version) stdout.write(version());
    else stdout.write(renderMainHelp(program));
    // Bare `splice` is a usage error that answers with the help.
    return { code: located.flags.version || located.flags.help ? EXIT_OK : EXIT_USAGE };
  }
  const command = commands.find((c) => c.name === located.name);
  if (!command) {
    const { fullTools } = await import("../toolkit/index.js");
    throw unknownCommand(
      located.name,
      commands.map((c) => c.name),
      fullTools,
    );
  }
  const parsed = parseCommand(command, located.argv);
  if (parsed.help) {
    stdout.write(renderCommandHelp(command));
    return { code: EXIT_OK };
  }
  const {
    root: rootFlag,
    remote,
    json,
    verbose,
    help: _,
    "no-engine": __,
    ...typed
  } = parsed.flags;
  const cwd = io().cwd;
  const remotes = remotesOf(remote, cwd);
  const given = typeof rootFlag === "string" ? rootFlag : undefined;
  const placed = await placeOf(command, given, parsed.positionals, typed, remotes);
  if (typeof placed === "number") return { code: placed };
  const { chosen, onHost, paths } = placed;
  if (verbose) stderr.write(`splice: ${describeRoot(chosen)}\n`);
  // On a remote root, paths are the root's as typed: where you stand here is no folder there.
  const toRoot = (path: string) =>
    onHost ? (paths.get(path) ?? path) : rootPath(chosen.root, cwd, path);
  const flags = Object.fromEntries(
    Object.entries(typed).map(([name, value]) => [
      name,
      typeof value === "string" && command.flags[name]?.path ? toRoot(value) : value,
    ]),
  );
  const positionals = rootPositionals(command.args ?? [], parsed.positionals, toRoot);
  // Whole milliseconds: a journal's time may round below the clock's.
  const started = Date.now() - 1;
  let opened: () => Splice | undefined = () => undefined;
  const interrupt = onCtrlC(command.onInterrupt ?? "exit", () => sessionsSince(opened(), started));
  // A person is not held for a language server's cold start: --validate (or --strict, which
  // exits on the verdict) asks to wait for it.
  const wait = typed.validate === true || typed.strict === true;
  const coldStart = wait ? "wait" : io().warm ? "background" : "skip";
  const input = await inputFor(
    command,
    chosen,
    remotes,
    positionals,
    flags,
    interrupt.signal,
    coldStart,
  );
  opened = input.opened;
  const code = await runCommand(command, input, json === true, (text, stream) =>
    onSameRoot(text, chosen, stream),
  );
  // Relaxed durability: the new bytes reach the disk before the command ends (close flushes).
  await input.opened()?.close();
  if (interrupt.signal.aborted) return { code: EXIT_INTERRUPTED };
  return { code, ...(command.exitGraceMs ? { exitWithinMs: command.exitGraceMs } : {}) };
}

/**
 * Runs one command line to its exit code, with the streams of io(): what
 * goes wrong is said on stderr (a usage error as itself, anything else as
 * an internal error with its stack), never thrown.
 */
export async function runCli(argv: string[]): Promise<Outcome> {
  try {
    return await main(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      io().stderr.write(`${error.message}\n`);
      return { code: EXIT_USAGE };
    }
    // Out of descriptors or memory before any tool ran (loading a module): the machine's limit.
    const exhausted = exhaustedError(error);
    if (exhausted) {
      io().stderr.write(`splice: error [${exhausted.code}]: ${exhausted.message}\n`);
      return { code: EXIT.refused };
    }
    io().stderr.write(
      `splice: internal error: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    return { code: EXIT_INTERNAL };
  }
}
