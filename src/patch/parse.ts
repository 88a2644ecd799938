/** Reads a patch in either format; "auto" tells them apart by the Codex begin marker. */
import { looksLikeCodex, parseCodexPatch } from "./codex.js";
import { PatchParseError } from "./errors.js";
import type { ParsedPatch, PatchFormat } from "./types.js";
import { looksLikeUnified, parseUnifiedPatch } from "./unified.js";

export type { AppliedHunks, HunkPlacement } from "./apply.js";
export { applyHunks } from "./apply.js";
export * from "./types.js";

export function detectFormat(text: string): PatchFormat | undefined {
  if (looksLikeCodex(text)) return "codex";
  if (looksLikeUnified(text)) return "unified";
  return undefined;
}

export function parsePatch(text: string, format: PatchFormat | "auto" = "auto"): ParsedPatch {
  const chosen = format === "auto" ? detectFormat(text) : format;
  if (chosen === "codex") return parseCodexPatch(text);
  if (chosen === "unified") return parseUnifiedPatch(text);
  throw new PatchParseError(
    'This is neither a unified diff ("--- a/path", "+++ b/path", "@@ -1,3 +1,4 @@" hunks) nor a Codex patch ("*** Begin Patch" … "*** End Patch").',
    1,
  );
}
