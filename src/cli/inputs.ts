/**
 * Where commands take their input from: an inline flag, a file named by a
 * flag, or stdin; and the checks of flag values that parsing cannot make.
 * A bad value is refused like a tool's bad argument (exit 1), with the fix.
 */
import { readFileSync } from "node:fs";
import { ToolError } from "../errors.js";
import { invalid } from "./define.js";

/** The inline text if given, else the named file's, else stdin. */
export function textFrom(
  inline: string | undefined,
  file: string | undefined,
  readStdin: () => string,
): string {
  if (inline !== undefined) return inline;
  if (file !== undefined) return readFileSync(file, "utf8");
  return readStdin();
}

/** A file argument's text; "-" reads stdin. */
export function readInputFile(file: string, readStdin: () => string): string {
  try {
    return file === "-" ? readStdin() : readFileSync(file, "utf8");
  } catch (error) {
    throw new ToolError("not_found", `Cannot read ${file}: ${(error as Error).message}`);
  }
}

export function positiveInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    invalid(`--${name} needs a whole number of at least 1, not "${raw}".`);
  }
  return n;
}

/** plan and patch: what their --apply and --check ask for. */
export const MODE_FLAGS = {
  apply: { type: "boolean", description: "write the changes (default: show them, write nothing)" },
  check: {
    type: "boolean",
    description: "write nothing, and exit 1 when something would change",
  },
} as const;

export function modeOf(flags: { apply?: boolean; check?: boolean }): "apply" | "check" | "preview" {
  if (flags.apply && flags.check) invalid("Pass --apply or --check, not both.");
  return flags.apply ? "apply" : flags.check ? "check" : "preview";
}
