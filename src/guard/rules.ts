/**
 * Allow and block lists: picomatch globs on root-relative "/" paths.
 *
 * Block lists match case-insensitively (on a case-insensitive disk `.GIT/config`
 * is git's own file, and over-blocking `.ENV` costs nothing); allow lists match
 * case-sensitively. Both choices fail closed.
 */
import picomatch from "picomatch";
import { ToolError } from "../errors.js";

export type Scope = "read" | "write";

/** Never read or written, whatever the options say. */
export const ALWAYS_BLOCKED: readonly string[] = Object.freeze([
  "**/.git",
  "**/.git/**",
  "**/.splice",
  "**/.splice/**",
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
  test: (p: string) => boolean;
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
      return { pattern, test: (p: string) => test(p) };
    } catch (error) {
      throw new ToolError(
        "invalid_input",
        `The ${option} pattern '${pattern}' is not a valid glob (${(error as Error).message}). Fix the pattern, for example 'src/**'.`,
        { option, pattern },
      );
    }
  });
}

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
    const blocked = (list: Glob[], name: ListName): Refusal | undefined => {
      for (const p of paths) {
        const hit = list.find((g) => g.test(p));
        if (hit) return { reason: "blocked", list: name, pattern: hit.pattern, matched: p };
      }
      return undefined;
    };
    const allowed = (list: Glob[], name: ListName): Refusal | undefined => {
      if (list.length === 0) return undefined;
      for (const p of paths) {
        if (p === "") continue;
        if (!list.some((g) => g.test(p))) {
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
