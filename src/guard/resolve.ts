/**
 * Symlink resolution for the guard, one component at a time, on the
 * segment-wise containment of util/paths.ts.
 */
import { lstatSync, readlinkSync } from "node:fs";
import path from "node:path";
import { isInside, segments } from "../util/paths.js";

/** The kernel's own limit (Linux MAXSYMLINKS); more hops than this is a loop. */
export const MAX_LINK_HOPS = 40;

/** Why resolution stopped; the guard turns this into a ToolError for the model. */
export class ResolveStop extends Error {
  constructor(
    readonly kind: "escape" | "loop",
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

/**
 * Resolves `rest` below the real directory `start`, following links one at a
 * time. Every link that sits inside `fence` must lead (after its own chain is
 * resolved) inside `fence`, or a ResolveStop("escape") is thrown — this also
 * catches dangling links whose missing target is outside. Links outside the
 * fence (met only while resolving an inside link's absolute target, such as
 * `/var -> /private/var`) are followed; the inside link's final place decides.
 * Other I/O errors (EACCES, ENAMETOOLONG) are thrown as they are.
 */
export function resolveReal(start: string, rest: readonly string[], fence: string): Resolution {
  let hops = 0;
  let link = false;

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
