/**
 * The guard's refusals as sentences for a model: what went wrong, then what
 * to do next. Machine facts go in `details` (`path`, `reason`, ...).
 */

import { clip, type NextStep, ToolError, useTool } from "../errors.js";
import { escapeControls } from "../text/names.js";
import { count } from "../util/format.js";
import { STATE_FOLDER } from "../util/state-folder.js";
import { MAX_LINK_HOPS } from "./resolve.js";
import type { Refusal, Scope } from "./rules.js";

export type GuardReason =
  | "outside_root"
  | "symlink_escape"
  | "blocked"
  | "not_allowed"
  | "nul_byte"
  | "too_long"
  | "too_deep"
  | "empty"
  | "link_loop";

/** Which fence was crossed: the project root, or the working folder under `confine`. */
export type Boundary = "root" | "base";

/** The input quoted for a message: control characters escaped, very long paths shortened. */
export function quote(input: string): string {
  return `'${clip(escapeControls(input))}'`;
}

function refuse(
  reason: GuardReason,
  input: string,
  message: string,
  extra = {},
  next?: NextStep,
): ToolError {
  return new ToolError("guard", message, { path: input, reason, ...extra }, next);
}

export interface Fence {
  boundary: Boundary;
  /** Absolute path of the fence (root or base). */
  abs: string;
  /** How to name it to a model: "the project root /r" or "the working folder 'src' (/r/src)". */
  name: string;
  /** Where relative paths start, for the hint. */
  start: string;
}

export function emptyPath(input: unknown, fence: Fence): ToolError {
  return new ToolError(
    "guard",
    `No path was given. Pass a path inside ${fence.name}, such as 'src/index.ts', or '.' for ${fence.start} itself.`,
    { path: input, reason: "empty" satisfies GuardReason },
  );
}

export function nulByte(input: string): ToolError {
  return refuse(
    "nul_byte",
    input,
    `Path ${quote(input)} contains a NUL byte (\\0), which no file name can hold. Remove it and pass the plain path, such as 'src/index.ts'.`,
  );
}

/**
 * The longest file name and path Linux accepts, in bytes: NAME_MAX is 255,
 * PATH_MAX is 4,096 with the terminating NUL, so 4,095 of path (macOS allows
 * less for paths). Past these the kernel says ENAMETOOLONG; refusing first
 * names the limit.
 */
export const NAME_MAX = 255;
export const PATH_MAX = 4095;

/**
 * The most names a path may have below the root. Nothing else caps depth but
 * PATH_MAX (about 2,000 one-letter folders), and depth is what a chain of
 * folders costs: resolving a path through its descriptors opens one folder
 * per name, and a walk down a chain resolves every folder on it, the square
 * of the depth (at 2,000 folders a server's background walk held it for
 * minutes). Real trees stay far below 128 (deep Java packages and nested
 * node_modules reach a few dozen); at 128 a walk down a full chain takes a
 * fraction of a second.
 */
export const MAX_DEPTH = 128;

/** Invalid input rather than a guard refusal: no file can have this path, inside the root or not. */
function unusable(input: string, reason: GuardReason, message: string, limit: number): ToolError {
  return new ToolError("invalid_input", message, { path: input, reason, limit });
}

/** A refusal when a name in `abs`, or all of it, is longer than the system accepts. */
export function tooLong(input: string, abs: string): ToolError | undefined {
  const long = abs.split(/[\\/]/).find((name) => Buffer.byteLength(name) > NAME_MAX);
  const size = Buffer.byteLength(long ?? abs);
  if (long === undefined && size <= PATH_MAX) return undefined;
  if (long === undefined) {
    return unusable(
      input,
      "too_long",
      `Path ${quote(input)} is too long: it is ${count(size)} bytes long from the file system's root, and a whole path may have at most ${count(PATH_MAX)} (PATH_MAX). Use a path with fewer or shorter folder names.`,
      PATH_MAX,
    );
  }
  const which = long === input ? "it" : `the name ${quote(long)} in it`;
  return unusable(
    input,
    "too_long",
    `Path ${quote(input)} is too long: ${which} is ${count(size)} bytes long, and a file or folder name may have at most ${NAME_MAX} (NAME_MAX). Use a shorter name.`,
    NAME_MAX,
  );
}

/** A refusal when `names` (the path's names below the root) go deeper than MAX_DEPTH. */
export function tooDeep(input: string, names: number): ToolError | undefined {
  if (names <= MAX_DEPTH) return undefined;
  return unusable(
    input,
    "too_deep",
    `Path ${quote(input)} is too deep: it is ${count(names)} names below the root, and splice allows at most ${MAX_DEPTH}. Use a path with fewer folders.`,
    MAX_DEPTH,
  );
}

/** A refusal when a link on the way leads deeper than MAX_DEPTH below the root. */
export function tooDeepThroughLink(input: string): ToolError {
  return unusable(
    input,
    "too_deep",
    `Path ${quote(input)} is too deep: a link on its way leads more than ${MAX_DEPTH} names below the root, and splice allows at most ${MAX_DEPTH}. Use a path with fewer folders.`,
    MAX_DEPTH,
  );
}

export function outside(input: string, fence: Fence): ToolError {
  const confined = fence.boundary === "base" ? ", and this session is confined to it" : "";
  return refuse(
    "outside_root",
    input,
    `Path ${quote(input)} resolves outside ${fence.name}${confined}. Use a path inside it, such as 'src/main.ts'; relative paths start at ${fence.start}.`,
    { boundary: fence.boundary },
  );
}

export function linkEscape(
  input: string,
  fence: Fence,
  link: { display: string; isInput: boolean; target: string; resolved: string },
): ToolError {
  const where =
    link.target === link.resolved ? `'${link.target}'` : `'${link.target}' (${link.resolved})`;
  const head = link.isInput
    ? `Path ${quote(input)} is a symbolic link to ${where}, outside ${fence.name}.`
    : `Path ${quote(input)} goes through the symbolic link '${link.display}', which points to ${where}, outside ${fence.name}.`;
  const noun = fence.boundary === "root" ? "the root" : "the working folder";
  return refuse(
    "symlink_escape",
    input,
    `${head} splice does not follow links out of ${noun}. Use a file that really lies inside ${noun}, or ask the user to copy what you need into the project.`,
    { boundary: fence.boundary, link: link.display, target: link.target },
  );
}

export function linkLoop(input: string, link: string): ToolError {
  return refuse(
    "link_loop",
    input,
    `Path ${quote(input)} runs through more than ${MAX_LINK_HOPS} symbolic links (at '${link}'), so the links form a loop. Use a path that does not go through '${link}', or ask the user to fix or remove the looping link.`,
    { link },
  );
}

const GIT_WHY = "it is inside a .git folder, which holds git's own data";

/** The history folder a built-in or protected-folder pattern names. */
const historyFolder = (pattern = "") =>
  pattern.startsWith("**/") ? STATE_FOLDER : `'${pattern.replace(/\/\*\*$/, "")}'`;

/** `lexical` and `real` are the root-relative paths as written and as resolved. */
export function refused(
  input: string,
  scope: Scope,
  paths: { lexical: string; real: string },
  r: Refusal,
): ToolError {
  const leads = paths.lexical !== paths.real ? ` (which leads to '${paths.real || "."}')` : "";
  const subject = `Path ${quote(input)}${leads}`;
  const extra = {
    scope,
    list: r.list,
    matched: r.matched,
    ...(r.pattern ? { pattern: r.pattern } : {}),
  };
  const readRule = r.list !== "write_block" && r.list !== "write_allow";
  const alsoWrite =
    scope === "write" && readRule && r.list !== "always"
      ? " splice does not write files it may not read, because history would copy their old content."
      : "";

  if (r.reason === "not_allowed") {
    const kind = r.list === "read_allow" ? "read" : "write";
    const list = (r.patterns ?? []).map((p) => `'${p}'`).join(", ");
    return refuse(
      "not_allowed",
      input,
      `${subject} is not in the ${kind} allow list.${alsoWrite} Use a path that matches one of ${list}, or ask the user to widen the allow list.`,
      { ...extra, patterns: r.patterns },
    );
  }

  let why: string;
  let next: string | NextStep;
  switch (r.list) {
    case "always": {
      const git = /(^|\/)\.git(\/|$)/i.test(r.matched);
      why = git
        ? GIT_WHY
        : `it is inside ${historyFolder(r.pattern)}, which holds splice's own history`;
      next = git
        ? useTool(
            "run",
            (run) =>
              `Do not touch it; use git commands (for example through ${run}) to inspect history.`,
          )
        : {
            tool: "undo",
            say: (v) => `Do not touch it; use ${v.tool("undo")} and ${v.tool("history")} instead.`,
          };
      break;
    }
    case "secrets":
      why = `it matches the secret pattern '${r.pattern}' (such files usually hold credentials)`;
      next = "Do not open it; if you need a value from it, ask the user.";
      break;
    case "read_block":
      why = `it matches the read block pattern '${r.pattern}' set for this project`;
      next = "Choose another file, or ask the user to change the block list.";
      break;
    default:
      why = `it matches the write block pattern '${r.pattern}' set for this project`;
      next = "You may read it but not change it; ask the user if it must change.";
  }
  return refuse(
    "blocked",
    input,
    `${subject} is blocked${r.list === "always" ? "" : readRule ? " for reading" : " for writing"}: ${why}.${alsoWrite}${typeof next === "string" ? ` ${next}` : ""}`,
    extra,
    typeof next === "string" ? undefined : next,
  );
}
