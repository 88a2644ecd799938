/**
 * --apply, --preview and --check for the commands that write. --check asks
 * what `git apply --check` asks: would this apply? It writes nothing and
 * prints nothing, exits 0 when it would and 1, with the reason, when it
 * would not. (tidy's --check keeps the formatters' question, "is it tidy?",
 * as prettier --check and black --check ask it.)
 */
import type { CommandOutput } from "./define.js";
import { invalid } from "./define.js";

const CHECK = {
  type: "boolean",
  description:
    "write and print nothing: exit 0 when it would apply, 1 (saying why) when it would not, as git apply --check",
} as const;

/** patch and plan preview by default. */
export const MODE_FLAGS = {
  apply: { type: "boolean", description: "write the changes (default: show them, write nothing)" },
  check: CHECK,
} as const;

/** doc, md, mv and rm write by default, as edit and write do; these hold them back. */
export const WRITE_MODE_FLAGS = {
  preview: { type: "boolean", description: "show the diff and write nothing" },
  check: CHECK,
} as const;

/** The tool's mode: a check is a preview whose refusal, if any, is the answer. */
export function modeOf(flags: { apply?: boolean; check?: boolean }): "apply" | "preview" {
  if (flags.apply && flags.check) invalid("Pass --apply or --check, not both.");
  return flags.apply ? "apply" : "preview";
}

export function writeModeOf(flags: { preview?: boolean; check?: boolean }): "apply" | "preview" {
  if (flags.preview && flags.check) invalid("Pass --preview or --check, not both.");
  return flags.preview || flags.check ? "preview" : "apply";
}

/** tidy's --check asks the formatters' question, "is it tidy?": the tool's own check mode. */
export const TIDY_MODE_FLAGS = {
  preview: WRITE_MODE_FLAGS.preview,
  check: {
    type: "boolean",
    description: "write nothing, and exit 1 when something would change",
  },
} as const;

export function tidyModeOf(flags: {
  preview?: boolean;
  check?: boolean;
}): "apply" | "check" | "preview" {
  if (flags.preview && flags.check) invalid("Pass --preview or --check, not both.");
  return flags.preview ? "preview" : flags.check ? "check" : "apply";
}

/** A check that passed says nothing, as git apply --check. */
export function checked(flags: { check?: boolean }, out: CommandOutput): CommandOutput {
  return flags.check ? { ...out, human: "", notices: [] } : out;
}
