/**
 * PathGuard: every path a tool touches passes `check` before any byte is read
 * or written. A path must stay inside the root (and inside `base` when
 * confined) both as written and after its symlinks are resolved, and must
 * pass the allow and block lists of its scope. A write must also pass the
 * read rules.
 *
 * The check is a snapshot of the disk at one moment; writers still replace a
 * link rather than follow it.
 */
import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { ToolError } from "../errors.js";
import { isInside, posixRelative, segmentsBelow } from "../util/paths.js";
import {
  emptyPath,
  type Fence,
  linkEscape,
  linkLoop,
  MAX_DEPTH,
  nulByte,
  outside,
  quote,
  refused,
  tooDeep,
  tooDeepThroughLink,
  tooLong,
} from "./messages.js";
import { ResolveStop, resolveReal } from "./resolve.js";
import { Rules, type Scope } from "./rules.js";

export type { GuardReason } from "./messages.js";
export { DEFAULT_READ_BLOCKLIST, type Scope } from "./rules.js";

/** Where inside the root a guard lets paths go: the part of its options a toolkit takes as they are. */
export interface GuardScope {
  /** Working folder inside the root (absolute, or relative to root); relative inputs resolve against it. Default: root. */
  base?: string;
  /** Keep every path inside `base`, not only inside the root. */
  confine?: boolean;
  /** Globs (picomatch, on the root-relative path) a write must match; undefined/empty: everything allowed. */
  allowlist?: string[];
  /** Globs a write must not match (added to the defaults). */
  blocklist?: string[];
  /** Globs (root-relative) a read must match (writes must pass them too). */
  readAllowlist?: string[];
  /** Replaces the default secret patterns (.env*, *.pem, *.key, id_*); git's and splice's own folders stay blocked. */
  readBlocklist?: string[];
}

export interface GuardOptions extends GuardScope {
  /** The project root; realpath'd in the constructor (must exist). */
  root: string;
  /** Where history lives when not `<root>/.splice`: blocked like `.splice` if inside the root. */
  historyDir?: string;
  /**
   * The root is on this remote host (its real path there, already resolved):
   * paths are checked as written, inputs may name it `HOST:PATH`, and links
   * are resolved there, by the RemoteWorkspace at every call.
   */
  host?: string;
}

export interface GuardedPath {
  /** What the caller passed. */
  input: string;
  /** Absolute path as written: lexical resolution against base, no symlink resolution. */
  abs: string;
  /** Absolute path with every existing symlink resolved; missing components appended lexically. Inside root. */
  real: string;
  /** `real` relative to root, "/" separators, "" for the root itself. */
  rel: string;
  /** What to show a model: `rel`, or "." for the root. */
  display: string;
  /** Whether `real` exists now. */
  exists: boolean;
  /** Whether the path as written names a symlink (inside the root) that leads to `real`. */
  link: boolean;
}

/** Realpath of an existing folder, or a ToolError saying what to pass instead. */
function realFolder(folder: string, option: "root" | "base"): string {
  let real: string;
  try {
    real = realpathSync(folder);
  } catch {
    throw new ToolError(
      "not_found",
      `The ${option} folder ${quote(folder)} does not exist. Create it first, or pass an existing folder as the ${option}.`,
      { path: folder, option },
    );
  }
  if (!statSync(real).isDirectory()) {
    throw new ToolError(
      "invalid_input",
      `The ${option} ${quote(folder)} is a file, not a folder. Pass the folder that contains it as the ${option}.`,
      { path: folder, option },
    );
  }
  return real;
}

export class PathGuard {
  /** Realpath of the root. */
  readonly root: string;
  /** Realpath of base (the root when no base was given). */
  readonly base: string;
  readonly #confine: boolean;
  readonly #rules: Rules;
  /** Other spellings of the root (the root as given, before realpath), mapped onto `root`. */
  readonly #aliases: string[];
  readonly #fence: Fence;
  /** The remote host the root is on (GuardOptions.host). */
  readonly host: string | undefined;

  constructor(options: GuardOptions) {
    this.host = options.host;
    const real = (folder: string, option: "root" | "base") =>
      this.host === undefined ? realFolder(folder, option) : path.posix.resolve(folder);
    const given = path.resolve(options.root);
    this.root = real(given, "root");
    this.#aliases = given === this.root ? [] : [given];
    const rootFence: Fence = {
      boundary: "root",
      abs: this.root,
      name: `the project root ${this.root}`,
      start: "the root",
    };

    const baseInput = options.base ?? ".";
    const baseLexical = this.#mapAlias(path.resolve(this.root, baseInput));
    if (!isInside(this.root, baseLexical)) throw outside(baseInput, rootFence);
    this.base = real(baseLexical, "base");
    if (!isInside(this.root, this.base)) {
      throw linkEscape(baseInput, rootFence, {
        display: baseInput,
        isInput: true,
        target: this.base,
        resolved: this.base,
      });
    }

    this.#confine = options.confine === true;
    this.#rules = new Rules({
      ...options,
      protectedDirs: this.host ? [] : this.#insideRoot(options.historyDir),
    });
    const baseRel = posixRelative(this.root, this.base) ?? "";
    const baseName = baseRel === "" ? "the root" : `the working folder '${baseRel}'`;
    this.#fence = this.#confine
      ? { boundary: "base", abs: this.base, name: `${baseName} (${this.base})`, start: baseName }
      : { ...rootFence, start: baseName };
  }

  /** `dir` relative to the root, as written and as it resolves, when it lies inside the root. */
  #insideRoot(dir: string | undefined): string[] {
    if (dir === undefined) return [];
    const lexical = this.#mapAlias(path.resolve(dir));
    let real = lexical;
    try {
      real = realpathSync(lexical);
    } catch {
      // not made yet: the name as written is the one it will have
    }
    const rels = [lexical, real].map((p) => posixRelative(this.root, p));
    return [...new Set(rels.filter((rel): rel is string => rel !== undefined && rel !== ""))];
  }

  check(input: string, scope: Scope): GuardedPath {
    const fence = this.#fence;
    if (typeof input !== "string" || input === "") throw emptyPath(input, fence);
    if (input.includes("\0")) throw nulByte(input);

    const abs = this.#mapAlias(path.resolve(this.base, this.#onHost(input)));
    const long = tooLong(input, abs);
    if (long) throw long;
    const below = segmentsBelow(this.root, abs);
    if (below === undefined || !isInside(fence.abs, abs)) throw outside(input, fence);
    // Before the walk below: its cost grows with the square of the depth.
    const deep = tooDeep(input, below.length);
    if (deep) throw deep;

    let real: string;
    let exists: boolean;
    let link: boolean;
    try {
      ({ real, exists, link } =
        this.host === undefined
          ? resolveReal(this.root, below, fence.abs, MAX_DEPTH)
          : { real: abs, exists: true, link: false });
    } catch (error) {
      throw this.#resolveError(input, abs, fence, error);
    }
    // Each link was checked on the way; this holds unless the root itself moved.
    if (!isInside(fence.abs, real)) {
      throw linkEscape(input, fence, {
        display: input,
        isInput: true,
        target: real,
        resolved: real,
      });
    }

    const lexicalRel = below.join("/");
    const rel = posixRelative(this.root, real) ?? "";
    const refusal = this.#rules.refusal(lexicalRel, rel, scope);
    if (refusal) throw refused(input, scope, { lexical: lexicalRel, real: rel }, refusal);

    // Show the name the caller used (a link keeps its own name); history keys on `rel`.
    const display = lexicalRel === "" ? "." : lexicalRel;
    return { input, abs, real, rel, display, exists, link };
  }

  /**
   * `check` of a plain entry (a file, not a link) named `name` in `folder`,
   * a folder `check` resolved: its real path is known and inside the fence,
   * so only the rules are left to ask. For a walk that stats every file
   * (checkpoints); the caller must lstat the entry and skip it unless it is
   * a regular file, since it may have become a link since the listing.
   */
  checkEntry(folder: GuardedPath, name: string, scope: Scope): GuardedPath {
    // Joined by hand: a walk calls this once per file, and path.join and a
    // relative path from the root cost more than the rest together.
    const abs = childPath(folder.abs, name);
    const real = childPath(folder.real, name);
    const rel = folder.rel === "" ? name : `${folder.rel}/${name}`;
    const lexical = folder.display === "." ? name : `${folder.display}/${name}`;
    const refusal = this.#rules.refusal(lexical, rel, scope);
    if (refusal) throw refused(abs, scope, { lexical, real: rel }, refusal);
    return { input: abs, abs, real, rel, display: lexical, exists: true, link: false };
  }

  /** The root-relative display of an absolute path already known to be inside (for listing output). */
  relative(abs: string): string {
    const rel = posixRelative(this.root, this.#mapAlias(path.resolve(this.root, abs)));
    if (rel === undefined) return abs;
    return rel === "" ? "." : rel;
  }

  /** `HOST:PATH` on this guard's host as PATH; other inputs as they are. */
  #onHost(input: string): string {
    const prefix = `${this.host}:`;
    if (this.host === undefined || !input.startsWith(prefix)) return input;
    return input.slice(prefix.length) || ".";
  }

  /** An absolute path written with the root's given spelling, moved onto the real root. */
  #mapAlias(abs: string): string {
    if (isInside(this.root, abs)) return abs;
    for (const alias of this.#aliases) {
      const below = segmentsBelow(alias, abs);
      if (below !== undefined) return path.join(this.root, ...below);
    }
    return abs;
  }

  #resolveError(input: string, abs: string, fence: Fence, error: unknown): ToolError {
    if (error instanceof ResolveStop) {
      const display = this.relative(error.link);
      if (error.kind === "loop") return linkLoop(input, display);
      if (error.kind === "too_deep") return tooDeepThroughLink(input);
      return linkEscape(input, fence, {
        display,
        isInput: error.link === abs,
        target: error.target,
        resolved: error.resolved,
      });
    }
    const e = error as NodeJS.ErrnoException;
    return new ToolError(
      "io",
      `Could not inspect path ${quote(input)} (${e.code ?? e.message}), so it cannot be checked. Check that its folders exist and are readable, or use another path.`,
      { path: input, reason: "io", errno: e.code },
    );
  }
}

/** `path.join(folder, name)` for a normalized absolute folder and a plain entry name. */
const childPath = (folder: string, name: string) =>
  folder.endsWith(path.sep) ? `${folder}${name}` : `${folder}${path.sep}${name}`;
