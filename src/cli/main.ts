import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { isToolError, ToolError } from "../errors.js";
import { createSplice } from "../splice.js";
import { commands } from "./commands.js";
import { makePaint } from "./format.js";
import { COMMAND_HELP, MAIN_HELP } from "./help.js";

/** The CLI's reads and edits share one session per root, so a read vouches for the next call's edit. */
const CLI_SESSION = "cli";
/** How long a stopped server may wait for its aborted calls before it exits anyway. */
const SERVE_EXIT_MS = 5_000;

function readStdin(): string {
  return readFileSync(0, "utf8");
}

function errorJson(error: ToolError): string {
  return JSON.stringify({ error: error.toJSON() }, null, 2);
}

async function callCommand(root: string, positionals: string[]): Promise<number> {
  const [name, raw] = positionals;
  try {
    if (!name)
      throw new ToolError("invalid_input", "call needs a tool name: splice call read '{...}'");
    const text = raw === undefined || raw === "-" ? readStdin() : raw;
    let args: unknown;
    try {
      args = JSON.parse(text);
    } catch (error) {
      throw new ToolError(
        "invalid_input",
        `The arguments are not valid JSON (${(error as Error).message}). Pass one JSON object, e.g. '{"path": "src/main.ts"}'.`,
      );
    }
    const splice = createSplice({ root, history: { session: CLI_SESSION } });
    const result = await splice.call(name, args);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (!isToolError(error)) throw error;
    process.stdout.write(`${errorJson(error)}\n`);
    return 1;
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      root: { type: "string" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
      text: { type: "string" },
      file: { type: "string" },
      hash: { type: "string" },
      ops: { type: "string" },
      "ops-file": { type: "string" },
      force: { type: "boolean" },
      list: { type: "boolean" },
      path: { type: "string" },
      all: { type: "boolean" },
      http: { type: "string" },
      host: { type: "string" },
      token: { type: "string" },
      tools: { type: "string" },
      language: { type: "string" },
      start: { type: "boolean" },
      restart: { type: "boolean" },
      model: { type: "string" },
      "base-url": { type: "string" },
      "key-file": { type: "string" },
      yes: { type: "boolean" },
      continue: { type: "boolean" },
      symbol: { type: "string" },
      line: { type: "string" },
      rewrite: { type: "string" },
      apply: { type: "boolean" },
      lang: { type: "string" },
      "max-files": { type: "string" },
    },
  });
  const [command, ...rest] = positionals;
  if (values.version) {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  if (!command || (values.help && !command)) {
    process.stdout.write(MAIN_HELP);
    return command || values.help ? 0 : 2;
  }
  if (values.help) {
    process.stdout.write(COMMAND_HELP[command] ?? MAIN_HELP);
    return 0;
  }
  const root = typeof values.root === "string" ? values.root : process.cwd();
  if (command === "call") return callCommand(root, rest);
  if (command === "serve") {
    // The MCP SDK (with ajv) loads only for serve: the other commands start without it.
    const { serveCommand } = await import("./serve.js");
    const code = await serveCommand(root, values);
    // Stopping the server aborted its calls (a run's processes get SIGTERM, SIGKILL 2 s later);
    // one that ignores the abort must not keep a stopped server alive.
    setTimeout(() => process.exit(code), SERVE_EXIT_MS).unref();
    return code;
  }
  if (command === "agent") {
    // Loaded on demand: the other commands never pay for the model SDK.
    const { agentCommand } = await import("./agent.js");
    return agentCommand(root, values, rest);
  }
  const run = commands[command];
  if (!run) {
    process.stderr.write(`splice: unknown command "${command}"\n\n${MAIN_HELP}`);
    return 2;
  }
  const json = values.json === true;
  try {
    const splice = createSplice({ root, history: { session: CLI_SESSION } });
    const paint = makePaint(process.stdout);
    const out = await run({ splice, positionals: rest, flags: values, readStdin, paint });
    process.stdout.write(`${json ? JSON.stringify(out.json, null, 2) : out.human}\n`);
    return 0;
  } catch (error) {
    if (!isToolError(error)) throw error;
    if (json) process.stdout.write(`${errorJson(error)}\n`);
    else {
      const paint = makePaint(process.stderr);
      process.stderr.write(`${paint("red", `error [${error.code}]:`)} ${error.message}\n`);
    }
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `splice: internal error: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);
