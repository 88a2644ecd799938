/**
 * Argument schemas several tools share, so each field reads the same in every
 * tool. They go to the model in a dozen tools on every turn, so they carry no
 * descriptions: the values say what they do, each tool's manual says more, and
 * a refusal that `force` would lift names it.
 */
import { z } from "zod";

export const modeSchema = z.enum(["apply", "preview", "check", "validate_only"]).optional();

export const validateSchema = z.boolean().optional();

export const forceSchema = z.boolean().optional();

/** What each shared field does, in the model's words: the end of each manual that takes them. */
const SHARED_FIELDS = {
  mode: '`mode`: "preview" shows the diff and writes nothing; "check" fails if anything would change; "validate_only" asks the language server and writes nothing.',
  force: "`force`: true writes a read-only file too (it stays read-only).",
  validate:
    "`validate`: false skips the language-server check; true checks where it would not by default.",
} as const;

/** A tool's manual with a line for each shared field it takes. */
export function withSharedFields(
  manual: string,
  ...fields: readonly (keyof typeof SHARED_FIELDS)[]
): string {
  return `${manual}\n\n${fields.map((f) => `- ${SHARED_FIELDS[f]}`).join("\n")}`;
}
