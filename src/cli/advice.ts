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
  if (tool === "lsp_health") {
    const { action } = args;
    return action === "restart" || action === "start"
      ? `splice lsp-health --${action}`
      : "splice lsp-health";
  }
  const path = args.path;
  if (PATH_COMMANDS.has(tool) && typeof path === "string") {
    const rest = Object.entries(args).filter(([k]) => k !== "path");
    if (rest.every(([, v]) => v === true)) {
      const flags = rest.map(([k]) => ` --${dashed(k)}`).join("");
      return `splice ${tool} ${quoted(path)}${flags}`;
    }
  }
  return `splice call ${tool} ${quoted(JSON.stringify(args))}`;
}

export const CLI_VOICE: Voice = {
  call: (tool, args) => `Run ${commandFor(tool, args)}`,
  tool: (tool) => `splice ${COMMAND_OF[tool] ?? tool}`,
  option: (name, value) => (value === true ? `--${dashed(name)}` : `--${dashed(name)} ${value}`),
  arg: (name) => `--${dashed(name)}`,
};

/** The error as a person reads it: the tool's facts, then its advice in the CLI's voice. */
export function cliMessage(error: ToolError): string {
  return error.next ? `${error.facts} ${error.next.say(CLI_VOICE)}` : error.message;
}
