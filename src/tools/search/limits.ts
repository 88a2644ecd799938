import { MAX_LINE_CHARS } from "./collect.js";

export const SEARCH_LIMITS = {
  /** Matches shown when no limit is given. */
  defaultLimit: 200,
  maxLimit: 2000,
  maxContext: 10,
  /** A shown line longer than this is cut to a window around its first match. */
  maxLineChars: MAX_LINE_CHARS,
  /** rg warnings (unreadable files) kept in `warnings`. */
  maxWarnings: 5,
} as const;
