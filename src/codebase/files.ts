/**
 * The files a syntax tool works on: files, folders (walked like `list`, so
 * .gitignore and dependency folders are respected) and globs, kept to the
 * languages splice parses, deduplicated, sorted by path and capped, and a
 * progress hook for the CLI's bar. Reading them in bulk is `code-bytes.ts`.
 */
import path from "node:path";
import picomatch from "picomatch";
import { z } from "zod";
import type { ChangeContext } from "../change/context.js";
import { reportCallProgress } from "../change/progress.js";
import {
  type Language,
  languageOf,
  missingLanguage,
  requireLanguage,
  supportedLanguageNames,
  UnknownLanguageError,
} from "../code/languages.js";
import { ToolError } from "../errors.js";
import type { EventBus } from "../events.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { pathList } from "../text/names.js";
import { count } from "../util/format.js";
import { type TreeNode, Walker } from "../workspace/walk.js";
import { walkCacheFor } from "./symbol-index-walk.js";

/** The `max_files` field of the tools that walk folders for code. */
export function maxFilesSchema(byDefault: number) {
  return z.number().int().min(1).max(100_000).optional().describe(`Default ${byDefault}.`);
}

/**
 * The `paths` field of the tools that walk folders for code: a list, or one
 * path as a string (what a model sends for one folder); a list either way.
 */
export const pathsSchema = z
  .union([z.string(), z.array(z.string()).min(1)])
  .transform((paths) => (typeof paths === "string" ? [paths] : paths))
  .describe("Files, folders or globs.");

/** The `lang` field of the tools that walk folders for code. */
export const langSchema = z.string().optional().describe('Only this language, e.g. "python".');

/** How many files a syntax edit covers unless `max_files` says otherwise. */
export const CODE_EDIT_DEFAULT_MAX_FILES = 1000;

/** The error for paths that hold no file in a language splice parses. */
export function noFiles(paths: string[], collected: CodeFiles): ToolError {
  const why = collected.warnings.length > 0 ? ` ${collected.warnings.join(" ")}` : "";
  return new ToolError(
    "not_found",
    `No file to work on in ${pathList(paths)}: none is in a language splice parses.${why}`,
    { paths },
  );
}

/** A tool's `lang` argument as a Language, or the error naming the supported ones. */
export function languageArg(name: string | undefined): Language | undefined {
  if (name === undefined) return undefined;
  try {
    return requireLanguage(name);
  } catch (error) {
    if (error instanceof UnknownLanguageError) {
      throw new ToolError(error.needsAddon ? "needs_addon" : "invalid_input", error.message, {
        language: name,
      });
    }
    throw error;
  }
}

export interface CodeFile {
  file: GuardedPath;
  language: Language;
  /** Named directly by the caller (not found by walking a folder or glob). */
  explicit: boolean;
  /** Bytes, when the walk or a stat already said. */
  size?: number;
}

export interface CodeFiles {
  files: readonly CodeFile[];
  /** Files found in a supported language before the cap. */
  found: number;
  capped: boolean;
  warnings: string[];
}

export interface CollectOptions {
  maxFiles: number;
  /** Only this language; also the language of named files whose extension says nothing. */
  language?: Language;
  /** Folder entries a walk visits before it stops (a bound on the walk itself). */
  maxScanned?: number;
}

const DEFAULT_MAX_SCANNED = 200_000;
const GLOB_CHARS = /[*?[\]{}]/;

/** The folder part of a glob that has no pattern characters: `src/**\/*.ts` → `src`. */
export function globBase(glob: string): string {
  const parts = glob.split("/");
  const fixed: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (GLOB_CHARS.test(part)) break;
    fixed.push(part);
  }
  return fixed.join("/") || ".";
}

function walkedFile(context: ChangeContext, rel: string): GuardedPath {
  // The walker ran the guard (read scope) on every entry it returns, and
  // never follows links, so a file's path is its real path.
  const abs = path.join(context.guard.root, rel);
  return { input: rel, abs, real: abs, rel, display: rel, exists: true, link: false };
}

/** A walk's files: root-relative paths, with their sizes where the walk read them. */
interface Walked {
  rels: readonly string[];
  sizes?: readonly (number | undefined)[];
}

async function walkFolder(
  context: ChangeContext,
  start: string,
  maxScanned: number,
  warnings: string[],
): Promise<Walked> {
  // Where the symbol index lives, its walk cache answers unless the walk must word a warning.
  const cached = await walkCacheFor(context)?.files(context, start, maxScanned);
  if (cached) return { rels: cached };
  const walker = new Walker(context.guard, context.workspace);
  const walk = await walker.walk({
    start,
    depth: 1000,
    limit: maxScanned,
    includeHidden: false,
    maxScanned,
  });
  warnings.push(...walk.warnings);
  if (!walk.complete) {
    warnings.push(
      `Stopped walking ${context.guard.relative(start)} after ${count(maxScanned)} entries; name a smaller folder to cover the rest.`,
    );
  }
  const rels: string[] = [];
  const sizes: (number | undefined)[] = [];
  const visit = (nodes: TreeNode[]) => {
    for (const node of nodes) {
      if (node.kind === "file") {
        rels.push(node.rel);
        sizes.push(node.size);
      } else if (node.kind === "directory") visit(node.children);
    }
  };
  visit(walk.top);
  return { rels, sizes };
}

const byPath = (a: CodeFile, b: CodeFile) =>
  a.file.display < b.file.display ? -1 : a.file.display > b.file.display ? 1 : 0;

/**
 * The code files of a walk, sorted by path. A walk cache returns the same
 * list while no folder changed, so the files made of it are kept with it
 * (per language filter) and a warm call builds none.
 */
const walkedCode = new WeakMap<readonly string[], Map<string, readonly CodeFile[]>>();

function codeFilesOf(
  context: ChangeContext,
  walked: Walked,
  only: Language | undefined,
): readonly CodeFile[] {
  const key = only?.id ?? "";
  const kept = walked.sizes ? undefined : walkedCode.get(walked.rels)?.get(key);
  if (kept) return kept;
  const out: CodeFile[] = [];
  for (const [i, rel] of walked.rels.entries()) {
    const language = languageOf(rel);
    if (!language || (only && only.id !== language.id)) continue;
    out.push({
      file: walkedFile(context, rel),
      language,
      explicit: false,
      size: walked.sizes?.[i],
    });
  }
  out.sort(byPath);
  if (!walked.sizes) {
    const byLanguage = walkedCode.get(walked.rels) ?? new Map();
    byLanguage.set(key, out);
    walkedCode.set(walked.rels, byLanguage);
  }
  return out;
}

/** Collects the files `inputs` name, in sorted order, capped at `maxFiles`. */
export async function collectCodeFiles(
  context: ChangeContext,
  inputs: readonly string[],
  options: CollectOptions,
): Promise<CodeFiles> {
  const warnings: string[] = [];
  const maxScanned = options.maxScanned ?? DEFAULT_MAX_SCANNED;
  const byRel = new Map<string, CodeFile>();
  const wanted = (language: Language | undefined) =>
    language !== undefined && (!options.language || options.language.id === language.id);
  /** One folder named alone: its sorted list is the answer as it is. */
  let alone: readonly CodeFile[] | undefined;

  for (const input of inputs) {
    if (GLOB_CHARS.test(input)) {
      const base = context.guard.check(globBase(input), "read");
      const matcher = picomatch(input, { dot: false });
      const baseDir = context.guard.base;
      const walked = await walkFolder(context, base.real, maxScanned, warnings);
      for (const code of codeFilesOf(context, walked, options.language)) {
        const rel = code.file.rel;
        const fromBase = path.relative(baseDir, path.join(context.guard.root, rel));
        if (matcher(fromBase.split(path.sep).join("/")) || matcher(rel)) {
          if (!byRel.has(rel)) byRel.set(rel, code);
        }
      }
      continue;
    }
    const file = context.guard.check(input, "read");
    const stat = await context.workspace.stat(file.real);
    if (!stat) {
      throw new ToolError("not_found", `${file.display} does not exist. Check the path.`, {
        path: file.display,
      });
    }
    if (stat.kind === "directory") {
      const walked = codeFilesOf(
        context,
        await walkFolder(context, file.real, maxScanned, warnings),
        options.language,
      );
      if (inputs.length === 1) alone = walked;
      else for (const code of walked) if (!byRel.has(code.file.rel)) byRel.set(code.file.rel, code);
      continue;
    }
    const language = languageOf(file.display) ?? options.language;
    if (!language) {
      const why =
        missingLanguage(file.display) ??
        `it is not in a language splice parses. The supported languages are: ${supportedLanguageNames()}.`;
      warnings.push(`Skipped ${file.display}: ${why}`);
      continue;
    }
    if (!wanted(language)) {
      warnings.push(
        `Skipped ${file.display}: it is ${language.name}, not ${options.language?.name}.`,
      );
      continue;
    }
    byRel.set(file.rel, { file, language, explicit: true, size: stat.size });
  }

  const all = alone ?? [...byRel.values()].sort(byPath);
  const capped = all.length > options.maxFiles;
  if (capped) {
    warnings.push(
      `Covered the first ${count(options.maxFiles)} of ${count(all.length)} files (in path order); narrow the paths or raise max_files to cover the rest.`,
    );
  }
  return {
    files: capped ? all.slice(0, options.maxFiles) : all,
    found: all.length,
    capped,
    warnings,
  };
}

/** Whether a syntax edit in this mode only looks (preview, check) and needs no approval. */
export function onlyLooks(mode: string | undefined): boolean {
  return mode === "preview" || mode === "check";
}

/** A syntax edit's footprint: it reads its paths when it only looks, else writes them. */
export function codeEditFootprint(inputs: readonly string[], mode: string | undefined) {
  const paths = footprintPaths(inputs);
  return onlyLooks(mode) ? { reads: paths, writes: [] } : { reads: [], writes: paths };
}

/** What a call over these paths may touch, for scheduling: a glob touches its folder. */
export function footprintPaths(inputs: readonly string[]): string[] {
  return inputs.map((p) => (GLOB_CHARS.test(p) ? globBase(p) : p));
}

export interface Progress {
  phase: string;
  done: number;
  total: number;
}

/** Keyed by the toolkit's event bus, which every call's context shares. */
const progressListeners = new WeakMap<EventBus, (progress: Progress) => void>();

/** Lets a host show progress of long syntax operations of a toolkit (the CLI draws a bar). */
export function onCodeProgress(
  toolkit: { events: EventBus },
  listener: ((progress: Progress) => void) | undefined,
): void {
  if (listener) progressListeners.set(toolkit.events, listener);
  else progressListeners.delete(toolkit.events);
}

export function reportProgress(context: ChangeContext, progress: Progress): void {
  reportCallProgress(context, progress);
  progressListeners.get(context.events)?.(progress);
}
