/**
 * The CLI's voice for a ToolError's advice: the model reads `Call undo with
 * {"list": true}`, a person reads `Run splice undo --list`. Only the advice
 * is phrased again; the facts and the code stay the tool's.
 */
import type { ToolError, Voice } from "../errors.js";

/** The command that stands for a tool, where one does. */
const COMMAND_OF: Record<string, string> = {
  ast_edit: "ast",
  ast_rename: "rename",
  lsp_health: "lsp-health",
  // Advice names the file tool for deleting; moving a folder is advised as `git mv`.
  file: "rm",
};

/** Tools whose command takes the file as its one argument. */
const PATH_COMMANDS = new Set(["read", "write", "outline", "history", "rollback"]);

/** The flags of those commands that take a value: `splice read src --symbol Name`. */
const VALUE_FLAGS: Record<string, string[]> = { read: ["symbol", "line", "pages"] };

function dashed(name: string): string {
  return name.replaceAll("_", "-");
}

function quoted(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/** A tool call as the command that makes it, or `splice call` when none does. */
export function commandFor(tool: string, args: Record<string, unknown>): string {
  if (tool === "undo") {
    // The CLI lists and undoes across every session of the root.
    if (args.list) return "splice undo --list";
    const id = typeof args.backup_session === "string" ? ` ${args.backup_session}` : "";
    const only = typeof args.path === "string" ? ` --path ${quoted(args.path)}` : "";
    return `splice undo${id}${only}${args.force === true ? " --force" : ""}`;
  }
  if (tool === "checkpoint" && typeof args.action === "string") {
    const name = typeof args.name === "string" ? ` ${quoted(args.name)}` : "";
    return `splice checkpoint ${args.action}${name}${args.apply === true ? " --apply" : ""}`;
  }
  if (tool === "plan" && Object.keys(args).every((k) => k === "mode")) {
    // The plan is a file; it previews unless told to apply or check.
    const mode = args.mode === "apply" || args.mode === "check" ? ` --${args.mode}` : "";
    return `splice plan PLAN.json${mode}`;
  }
  if (tool === "lsp_health") {
    const { action } = args;
    return action === "restart" || action === "start"
      ? `splice lsp-health --${action}`
      : "splice lsp-health";
  }
  return pathCommand(tool, args) ?? `splice call ${tool} ${quoted(JSON.stringify(args))}`;
}

/** `splice read src --symbol Name`: a command that takes the file and flags, when the call fits. */
function pathCommand(tool: string, args: Record<string, unknown>): string | undefined {
  const targets = args.targets;
  // read names its files as targets; one target is one file on the command line.
  if (
    tool === "read" &&
    Array.isArray(targets) &&
    targets.length === 1 &&
    Object.keys(args).length === 1
  ) {
    const { line_range: range, ...target } = targets[0] as Record<string, unknown>;
    if (typeof target.path !== "string" || (range !== undefined && typeof range !== "string")) {
      return undefined;
    }
    return pathCommand("read", {
      ...target,
      path: range ? `${target.path}:${range}` : target.path,
    });
  }
  const { path, ...rest } = args;
  if (!PATH_COMMANDS.has(tool) || typeof path !== "string") return undefined;
  // rollback takes the version as its second argument.
  const tag = tool === "rollback" && typeof rest.hash === "string" ? ` ${quoted(rest.hash)}` : "";
  if (tag) delete rest.hash;
  const valued = VALUE_FLAGS[tool] ?? [];
  const fits = ([k, v]: [string, unknown]) =>
    v === true || (valued.includes(k) && (typeof v === "string" || typeof v === "number"));
  if (!Object.entries(rest).every(fits)) return undefined;
  const flags = Object.entries(rest).map(([k, v]) => ` ${CLI_VOICE.option(k, v)}`);
  return `splice ${tool} ${quoted(path)}${tag}${flags.join("")}`;
}

export const CLI_VOICE: Voice = {
  call: (tool, args) => `Run ${commandFor(tool, args)}`,
  tool: (tool) => `splice ${COMMAND_OF[tool] ?? tool}`,
  // A flag left out is how a person says false: `(without --regex)`.
  option: (name, value) =>
    value === true
      ? `--${dashed(name)}`
      : value === false
        ? `without --${dashed(name)}`
        : `--${dashed(name)} ${quoted(String(value))}`,
  arg: (name) => `--${dashed(name)}`,
};

/** The error as a person reads it: the tool's facts, then its advice in the CLI's voice. */
export function cliMessage(error: ToolError): string {
  return error.next ? `${error.facts} ${error.next.say(CLI_VOICE)}` : error.message;
}
