/**
 * What counts as a definition in each language: the syntax node kinds, what
 * each one defines, and where its name is. Data only (the tables are in
 * specs-braces.ts, specs-other.ts and specs-data.ts); symbols.ts runs it.
 * Kinds come from the tree-sitter grammars the @ast-grep packages ship.
 */
import type { LanguageSpec } from "./def-spec.js";
import { BRACE_SPECS } from "./specs-braces.js";
import { DATA_SPECS } from "./specs-data.js";
import { OTHER_SPECS } from "./specs-other.js";

/** Every language splice finds definitions in, by its id in languages.ts. */
export const SPECS: Record<string, LanguageSpec> = {
  ...BRACE_SPECS,
  ...OTHER_SPECS,
  ...DATA_SPECS,
};
