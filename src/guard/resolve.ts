/**
 * Symlink resolution for the guard, one component at a time, on the
 * segment-wise containment of util/paths.ts.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
} from "node:fs";
import path from "node:path";
import { isInside, segments } from "../util/paths.js";

/** The kernel's own limit (Linux MAXSYMLINKS); more hops than this is a loop. */
export const MAX_LINK_HOPS = 40;

/** Why resolution stopped; the guard turns this into a ToolError for the model. */
export class ResolveStop extends Error {
  constructor(
    readonly kind: "escape" | "loop" | "too_deep",
    /** Absolute path of the link where resolution stopped. */
    readonly link: string,
    /** For "escape": the link's text as stored (readlink). */
    readonly target = "",
    /** For "escape": where the link finally leads. */
    readonly resolved = "",
  ) {
    super(`${kind} at ${link}`);
    this.name = "ResolveStop";
  }
}

export interface Resolution {
  /** Absolute path with every existing link resolved; missing components appended lexically. */
  real: string;
  /** Whether `real` exists now. */
  exists: boolean;
  /** Whether the last name of the path is itself a link (`real` is where it leads). */
  link: boolean;
}

interface Step extends Omit<Resolution, "link"> {
  /** Whether `real` is an existing directory (so more components may follow). */
  dir: boolean;
}

type Kind = "missing" | "link" | "dir" | "other";

/** How many names an absolute path has ("/" has none). */
const depthOf = (abs: string) => abs.split(path.sep).filter(Boolean).length;

function kindOf(p: string): Kind {
  try {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return "link";
    return st.isDirectory() ? "dir" : "other";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    throw error;
  }
}

/** O_PATH where its value is the generic one (x86, arm, arm64, riscv, ...); 0 elsewhere. */
const O_PATH =
  process.platform === "linux" && !["sparc", "sparc64"].includes(process.arch) ? 0o10000000 : 0;

/** Whether the kernel can name what a descriptor holds (Linux with /proc). */
const NAMES_DESCRIPTORS = O_PATH !== 0 && existsSync("/proc/self/fd");

/**
 * `abs` itself when nothing on its way is a link, asked of the kernel in one
 * lookup: the descriptor of `abs` (its last name not followed) is named by
 * /proc as the path the kernel reached, which differs from `abs` as soon as
 * one folder on the way is a link. Undefined when that cannot be told (not
 * Linux, a link on the way, a missing folder): the walk then decides. A walk
 * costs one lookup of the whole prefix per name, the square of the depth;
 * this costs the depth once.
 */
function linkFree(abs: string): boolean {
  let fd: number;
  try {
    fd = openSync(abs, O_PATH | constants.O_NOFOLLOW);
  } catch {
    return false;
  }
  try {
    return !fstatSync(fd).isSymbolicLink() && readlinkSync(`/proc/self/fd/${fd}`) === abs;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** The resolution of a path with no link on its way, existing or one name short of it; else undefined. */
function withoutLinks(start: string, rest: readonly string[]): Resolution | undefined {
  if (!NAMES_DESCRIPTORS || rest.some((part) => part === "." || part === "..")) return undefined;
  const abs = path.join(start, ...rest);
  if (linkFree(abs)) return { real: abs, exists: true, link: false };
  // A new file in a folder that exists: the folder has no link on its way, and the name is free.
  if (rest.length > 0 && linkFree(path.dirname(abs)) && kindOf(abs) === "missing") {
    return { real: abs, exists: false, link: false };
  }
  return undefined;
}

/**
 * Resolves `rest` below the real directory `start`, following links one at a
 * time. Every link that sits inside `fence` must lead (after its own chain is
 * resolved) inside `fence`, or a ResolveStop("escape") is thrown — this also
 * catches dangling links whose missing target is outside. Links outside the
 * fence (met only while resolving an inside link's absolute target, such as
 * `/var -> /private/var`) are followed; the inside link's final place decides.
 * A link that leads more than `maxDepth` names below `start` stops it
 * (ResolveStop("too_deep")): what it reaches would cost every later call a
 * descriptor walk that deep. Other I/O errors (EACCES, ENAMETOOLONG) are
 * thrown as they are.
 */
export function resolveReal(
  start: string,
  rest: readonly string[],
  fence: string,
  maxDepth = Number.POSITIVE_INFINITY,
): Resolution {
  const plain = withoutLinks(start, rest);
  if (plain) return plain;
  let hops = 0;
  let link = false;
  const deepest = depthOf(start) + maxDepth;

  const walk = (from: string, parts: readonly string[], top = false): Step => {
    let current = from;
    let exists = true;
    let dir = true;
    for (const part of parts) {
      if (top) link = false;
      if (part === ".") continue;
      // Below something that is not a directory nothing exists (the kernel says ENOTDIR).
      if (exists && !dir) exists = false;
      if (part === "..") {
        // `current` is real while it exists, so this is the kernel's `..`.
        current = path.dirname(current);
        continue;
      }
      const next = path.join(current, part);
      if (depthOf(next) > deepest) throw new ResolveStop("too_deep", next);
      if (!exists) {
        current = next;
        continue;
      }
      const kind = kindOf(next);
      if (kind === "link") {
        hops += 1;
        if (hops > MAX_LINK_HOPS) throw new ResolveStop("loop", next);
        const target = readlinkSync(next);
        const origin = path.isAbsolute(target) ? path.parse(target).root : current;
        const step = walk(origin, segments(target));
        if (isInside(fence, next) && !isInside(fence, step.real)) {
          throw new ResolveStop("escape", next, target, step.real);
        }
        ({ real: current, exists, dir } = step);
        if (top) link = true;
        continue;
      }
      current = next;
      if (kind === "missing") exists = false;
      dir = kind === "dir";
    }
    return { real: current, exists, dir: exists && dir };
  };

  const { real, exists } = walk(start, rest, true);
  return { real, exists, link };
}
