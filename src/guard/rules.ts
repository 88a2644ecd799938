/**
 * Allow and block lists: picomatch globs on root-relative "/" paths.
 *
 * Block lists match case-insensitively (on a case-insensitive disk `.GIT/config`
 * is git's own file, and over-blocking `.ENV` costs nothing); allow lists match
 * case-sensitively. Both choices fail closed.
 */
import picomatch from "picomatch";
import { ToolError } from "../errors.js";
import { STATE_FOLDER } from "../util/state-folder.js";

export type Scope = "read" | "write";

/** Never read or written, whatever the options say. */
export const ALWAYS_BLOCKED: readonly string[] = Object.freeze([
  "**/.git",
  "**/.git/**",
  `**/${STATE_FOLDER}`,
  `**/${STATE_FOLDER}/**`,
]);

/** Files that usually hold secrets; refused for reading (and so for writing) by default. */
export const DEFAULT_READ_BLOCKLIST: readonly string[] = Object.freeze([
  "**/.env",
  // Templates such as .env.example hold no secrets and agents need to read them.
  "**/.env.!(example|sample|template|dist)",
  "**/.envrc",
  "**/*.pem",
  "**/*.key",
  "**/id_{rsa,dsa,ecdsa,ed25519}*",
]);

/** Which list refused a path; decides the wording of the error. */
export type ListName =
  | "always"
  | "secrets"
  | "read_block"
  | "read_allow"
  | "write_block"
  | "write_allow";

interface Glob {
  pattern: string;
  /**
   * Whether the path matches. `lower` is the path lowercased when it is all
   * ASCII, else undefined: the literal prefilter compares against it.
   */
  test: (p: string, lower: string | undefined) => boolean;
}

export interface Refusal {
  reason: "blocked" | "not_allowed";
  list: ListName;
  /** The block pattern that matched (block lists only). */
  pattern?: string;
  /** The allow patterns (allow lists only). */
  patterns?: readonly string[];
  /** The root-relative path that matched or failed to match. */
  matched: string;
}

export interface RuleOptions {
  allowlist?: string[];
  blocklist?: string[];
  readAllowlist?: string[];
  readBlocklist?: string[];
  /** Root-relative folders blocked like `.splice` (a history folder kept elsewhere in the root). */
  protectedDirs?: readonly string[];
}

/** A folder and everything in it, matched by path segments (its name may hold glob characters). */
function folderRule(dir: string): Glob {
  const lower = dir.toLowerCase();
  return {
    pattern: `${dir}/**`,
    test: (p) => {
      const q = p.toLowerCase();
      return q === lower || q.startsWith(`${lower}/`);
    },
  };
}

const GROUP_OPEN = "([{";
const GROUP_CLOSE = ")]}";
const WILD = "*?!@+";

/**
 * The longest run of plain characters, outside every group, brace and
 * class, that each path the glob matches must contain; undefined when no
 * such run is sure (a negated glob, escapes, a leading "./", a top-level
 * "|"), or too short to rule much out. A path without it cannot match, and
 * a substring test costs a small part of the glob's regular expression.
 */
export function requiredLiteral(pattern: string): string | undefined {
  if (pattern.startsWith("!") || pattern.startsWith("./") || pattern.includes("\\")) {
    return undefined;
  }
  let best = "";
  let run = "";
  let depth = 0;
  const flush = () => {
    // A slash beside "**" is optional ("**/.git" matches ".git"): only the names are sure.
    const sure = run.replace(/^\/+|\/+$/g, "");
    if (sure.length > best.length) best = sure;
    run = "";
  };
  for (const c of pattern) {
    if (GROUP_OPEN.includes(c)) depth++;
    else if (GROUP_CLOSE.includes(c)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && c === "|") return undefined;
    else if (depth === 0 && !WILD.includes(c)) {
      run += c;
      continue;
    }
    flush();
  }
  flush();
  return best.length >= 3 ? best : undefined;
}

function compile(patterns: readonly string[], option: string, nocase: boolean): Glob[] {
  return patterns.map((pattern) => {
    if (typeof pattern !== "string" || pattern.trim() === "") {
      throw new ToolError(
        "invalid_input",
        `The ${option} option holds an empty or non-text pattern. Give globs such as 'src/**' or '**/*.pem'.`,
        { option, pattern },
      );
    }
    try {
      const test = picomatch(pattern, { dot: true, nocase });
      const literal = requiredLiteral(pattern);
      if (literal === undefined) return { pattern, test: (p: string) => test(p) };
      const needle = nocase ? literal.toLowerCase() : literal;
      // Case-blind, the prefilter trusts only an ASCII path's lowercase (see refusal).
      const may = (p: string, lower: string | undefined) =>
        nocase ? lower === undefined || lower.includes(needle) : p.includes(needle);
      return { pattern, test: (p: string, lower) => may(p, lower) && test(p) };
    } catch (error) {
      throw new ToolError(
        "invalid_input",
        `The ${option} pattern '${pattern}' is not a valid glob (${(error as Error).message}). Fix the pattern, for example 'src/**'.`,
        { option, pattern },
      );
    }
  });
}

const NON_ASCII = /[^\x00-\x7f]/;

/** The compiled lists of one guard. */
export class Rules {
  readonly #always: Glob[];
  readonly #readBlock: Glob[];
  readonly #readBlockList: ListName;
  readonly #readAllow: Glob[];
  readonly #writeBlock: Glob[];
  readonly #writeAllow: Glob[];

  constructor(options: RuleOptions) {
    this.#always = [
      ...compile(ALWAYS_BLOCKED, "built-in", true),
      ...(options.protectedDirs ?? []).map(folderRule),
    ];
    const custom = options.readBlocklist !== undefined;
    this.#readBlock = compile(
      options.readBlocklist ?? DEFAULT_READ_BLOCKLIST,
      "readBlocklist",
      true,
    );
    this.#readBlockList = custom ? "read_block" : "secrets";
    this.#readAllow = compile(options.readAllowlist ?? [], "readAllowlist", false);
    this.#writeBlock = compile(options.blocklist ?? [], "blocklist", true);
    this.#writeAllow = compile(options.allowlist ?? [], "allowlist", false);
  }

  /**
   * The first rule that refuses a path, checking both the name as written
   * (`lexical`) and the place it leads (`real`), or undefined when allowed.
   * A write must pass the read rules too. The root itself ("") is exempt from
   * allow lists (it is the folder being listed) but never from block lists.
   */
  refusal(lexical: string, real: string, scope: Scope): Refusal | undefined {
    const paths = lexical === real ? [real] : [lexical, real];
    // Outside ASCII, lowercase and a case-blind regular expression fold letters apart
    // ("ς" matches "Σ" but lowercases to no "σ"): only an ASCII path's lowercase is trusted.
    const lowers = paths.map((p) => (NON_ASCII.test(p) ? undefined : p.toLowerCase()));
    const blocked = (list: Glob[], name: ListName): Refusal | undefined => {
      for (const [i, p] of paths.entries()) {
        const hit = list.find((g) => g.test(p, lowers[i]));
        if (hit) return { reason: "blocked", list: name, pattern: hit.pattern, matched: p };
      }
      return undefined;
    };
    const allowed = (list: Glob[], name: ListName): Refusal | undefined => {
      if (list.length === 0) return undefined;
      for (const [i, p] of paths.entries()) {
        if (p === "") continue;
        if (!list.some((g) => g.test(p, lowers[i]))) {
          return {
            reason: "not_allowed",
            list: name,
            patterns: list.map((g) => g.pattern),
            matched: p,
          };
        }
      }
      return undefined;
    };
    return (
      blocked(this.#always, "always") ??
      blocked(this.#readBlock, this.#readBlockList) ??
      allowed(this.#readAllow, "read_allow") ??
      (scope === "write"
        ? (blocked(this.#writeBlock, "write_block") ?? allowed(this.#writeAllow, "write_allow"))
        : undefined)
    );
  }
}
