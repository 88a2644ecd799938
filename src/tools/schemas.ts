/** Argument schemas several tools share, so each field reads the same in every tool. */
import { z } from "zod";

export const modeSchema = z
  .enum(["apply", "preview", "check", "validate_only"])
  .optional()
  .describe('"apply" (default) writes; "preview" shows the diff; "check" fails on a change.');

export const validateSchema = z
  .boolean()
  .optional()
  .describe("Language-server check of the result; false skips it.");

export const forceSchema = z
  .boolean()
  .optional()
  .describe("Also write read-only files; they stay read-only.");
