/** Argument schemas several tools share, so each field reads the same in every tool. */
import { z } from "zod";

export const modeSchema = z
  .enum(["apply", "preview", "check", "validate_only"])
  .optional()
  .describe(
    '"apply" (default) writes; "preview" shows the diff only; "check" fails if it would change anything; "validate_only" reports what the language server says about the result, writing nothing.',
  );

export const validateSchema = z
  .boolean()
  .optional()
  .describe(
    "Check the result with the language server (default: on for languages with a server in their project); false skips it.",
  );

export const forceSchema = z
  .boolean()
  .optional()
  .describe("Write files that are read-only (no write permission) too; they stay read-only.");
