/**
 * Which folder is the project: the nearest ancestor holding `.splice/` or
 * `.git`, as git finds its repository, so `cd src && splice read a.ts` keeps
 * one history for the whole project. Paths typed inside the root are
 * relative to where you stand; the tools take them relative to the root.
 */
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from "node:path";
import { segmentsBelow } from "../util/paths.js";
import { STATE_FOLDER, stateFolderOf } from "../util/state-folder.js";
import { io } from "./io.js";

export interface ChosenRoot {
  root: string;
  /** Why this folder: the flag, a marker found, nothing found, or the host of `HOST:PATH` arguments. */
  reason: "--root" | typeof STATE_FOLDER | ".git" | "current folder" | "HOST:PATH";
  /** For HOST:PATH: the marker found there above the paths (none: the folder that holds them). */
  found?: typeof STATE_FOLDER | ".git";
}

function exists(path: string, kind: "dir" | "any"): boolean {
  try {
    const s = statSync(path);
    return kind === "any" || s.isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where a `.splice/` marks no project: history a command left when run in
 * the home folder or at `/` would otherwise claim every folder below.
 */
export function notProjects(): string[] {
  return [homedir(), parse(io().cwd).root].map((d) => resolve(d));
}

/** The nearest folder from `cwd` up that holds `.splice/` or `.git` (a worktree's is a file). */
export function findRoot(cwd: string, ignored: readonly string[] = notProjects()): ChosenRoot {
  let dir = resolve(cwd);
  for (;;) {
    const counts = !ignored.includes(dir);
    if (counts && exists(stateFolderOf(dir), "dir")) return { root: dir, reason: STATE_FOLDER };
    if (exists(join(dir, ".git"), "any")) return { root: dir, reason: ".git" };
    const up = dirname(dir);
    if (up === dir) return { root: resolve(cwd), reason: "current folder" };
    dir = up;
  }
}

export function chooseRoot(flag: string | undefined, cwd: string): ChosenRoot {
  return flag === undefined ? findRoot(cwd) : { root: resolve(cwd, flag), reason: "--root" };
}

/**
 * A path as typed, made relative to the root when the user stands inside
 * the root but below it. Standing at the root or outside it (a script
 * passing --root), paths are the root's, as they always were.
 */
export function rootPath(root: string, cwd: string, typed: string): string {
  if (typed === "" || typed === "-" || isAbsolute(typed)) return typed;
  const here = segmentsBelow(resolve(root), resolve(cwd));
  if (here === undefined || here.length === 0) return typed;
  const path = relative(root, resolve(cwd, typed));
  return (path === "" ? "." : path).split(sep).join("/");
}

interface PathArg {
  path?: boolean;
  variadic?: boolean;
}

function isPathAt(args: readonly PathArg[], i: number): boolean {
  const spec = args[Math.min(i, args.length - 1)];
  const covers = i < args.length || spec?.variadic === true;
  return covers && spec?.path === true;
}

/** The positionals that are paths (`path: true` in their spec). */
export function pathPositionals(
  args: readonly PathArg[],
  positionals: readonly string[],
): string[] {
  return positionals.filter((_, i) => isPathAt(args, i));
}

/** The positionals with every path argument (`path: true` in its spec) made root-relative. */
export function rootPositionals(
  args: readonly PathArg[],
  positionals: readonly string[],
  toRoot: (typed: string) => string,
): string[] {
  return positionals.map((value, i) => (isPathAt(args, i) ? toRoot(value) : value));
}

/** One line for --verbose and history headers: which root, and why. */
export function describeRoot(chosen: ChosenRoot): string {
  const why =
    chosen.reason === "--root"
      ? "from --root"
      : chosen.reason === "current folder"
        ? "no .splice/ or .git above, so the current folder"
        : chosen.reason === "HOST:PATH"
          ? `from the HOST:PATH arguments: ${chosen.found ? `nearest folder there holding ${chosen.found}` : "the folder there that holds them"}`
          : `nearest folder holding ${chosen.reason}`;
  return `root ${chosen.root} (${why})`;
}
