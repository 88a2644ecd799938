import path from "node:path";
import { z } from "zod";
import { reportCallProgress } from "../../change/progress.js";
import { isToolError, ToolError, type Voice, voiced } from "../../errors.js";
import type { GuardedPath, PathGuard } from "../../guard/path-guard.js";
import { count } from "../../util/format.js";
import { TEMP_GLOBS } from "../../workspace/temp.js";
import { SKIPPED_FOLDERS } from "../../workspace/walk.js";
import type { ToolContext } from "../define.js";
import { defineTool, manual, READS } from "../define.js";
import { type Collected, collectHits, type FileHits, type SearchHit } from "./collect.js";
import { type ConfinedRead, confirmHits, confirmStderr } from "./confirm.js";
import { type Runner, type RunSpec, searchEncoded } from "./encoded.js";
import { type SearchGlobs, searchGlobs } from "./globs.js";
import { SEARCH_LIMITS } from "./limits.js";
import { budgetNotes, emptyNotice, moreNote, renderWithin, rgError } from "./messages.js";
import { remoteSearch } from "./remote.js";
import { withoutVanished } from "./vanished.js";

/** Bytes of the output budget kept for a search's notices and warnings. */
const NOTICE_BYTES = 1_500;

/**
 * The hits as the model reads them, within the output budget; what did not
 * fit is said first and last, with where to search on.
 */
function hitsText(
  context: ToolContext,
  found: { files: FileHits[]; hits: unknown[]; truncated: boolean },
  contextLines: number,
  limit: number,
): (v: Voice) => string {
  const { files, hits, truncated } = found;
  const shown = renderWithin(files, contextLines, context.limits.outputBytes - NOTICE_BYTES);
  if (shown.next !== undefined) {
    const all = {
      matches: hits.length,
      files: files.length,
      more: truncated,
      context: contextLines,
    };
    return (v) => {
      const notes = budgetNotes(shown, all, v);
      return `${notes.first}\n${shown.text}\n\n${notes.last}`;
    };
  }
  return (v) =>
    truncated ? shown.text + moreNote(hits.length, files.length, limit, v) : shown.text;
}

export type { SearchHit };

/** Four bytes a character at most: well inside one argument's 128 KiB. */
const MAX_PATTERN_CHARS = 16_384;

const input = z.strictObject({
  pattern: z
    .string()
    .min(1)
    // ripgrep takes it as one argument, and Linux caps one argument at 128 KiB.
    .max(MAX_PATTERN_CHARS, {
      error: `a pattern may have at most ${count(MAX_PATTERN_CHARS)} characters; search for a distinctive part of it`,
    })
    .describe("Literal text unless regex."),
  path: z.string().optional().describe("A folder or file."),
  glob: z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
    .optional()
    .describe('e.g. "*.ts" or ["src/**", "!*.test.ts"]'),
  regex: z.boolean().optional(),
  ignore_case: z.boolean().optional(),
  context: z
    .number()
    .int()
    .min(0)
    .max(SEARCH_LIMITS.maxContext)
    .optional()
    .describe("Lines around each match."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(SEARCH_LIMITS.maxLimit)
    .optional()
    .describe(`Default ${SEARCH_LIMITS.defaultLimit}.`),
});

export interface SearchResult {
  pattern: string;
  content: string;
  matches: number;
  files: number;
  truncated: boolean;
  hits: SearchHit[];
  warnings: string[];
}

/**
 * Secret-file exclusions handed to rg so it never even reads those files, each
 * with a probe name: an exclusion is used only when this guard refuses the
 * probe, so a project that unblocks `*.pem` still finds its .pem files. The
 * per-file guard check after rg stays the authority.
 */
const SECRET_EXCLUSIONS: readonly (readonly [string, string])[] = [
  ["!.env", ".env"],
  ["!.envrc", ".envrc"],
  ["!*.pem", "probe.pem"],
  ["!*.key", "probe.key"],
  ["!id_rsa*", "id_rsa"],
  ["!id_dsa*", "id_dsa"],
  ["!id_ecdsa*", "id_ecdsa"],
  ["!id_ed25519*", "id_ed25519"],
];
/** Matches an empty search looks for in ignored files, to say where the pattern is. */
const IGNORED_PROBE = 3;
const PROBE_DIR = "splice-search-probe-5d1c";
const exclusionCache = new WeakMap<PathGuard, string[]>();

function exclusions(guard: PathGuard): string[] {
  let globs = exclusionCache.get(guard);
  if (globs) return globs;
  // The folders list does not enter (.git and .splice among them); naming one as path still searches it.
  globs = [...SKIPPED_FOLDERS].map((name) => `!${name}`).concat(TEMP_GLOBS);
  for (const [glob, probe] of SECRET_EXCLUSIONS) {
    try {
      guard.check(path.join(guard.base, PROBE_DIR, probe), "read");
    } catch (error) {
      if (isToolError(error) && error.details.reason === "blocked") globs.push(glob);
    }
  }
  exclusionCache.set(guard, globs);
  return globs;
}

/** rg's arguments for one run of the search (`spec` says how it differs from the default run). */
function rgArgs(
  args: z.output<typeof input>,
  globs: SearchGlobs,
  skip: readonly string[],
  spec: RunSpec & { target: string },
): string[] {
  const out = ["--json", "--no-config", "--hidden", "--no-require-git", ...(spec.extra ?? [])];
  out.push(args.regex || spec.regex ? "--engine=auto" : "--fixed-strings");
  if (args.ignore_case) out.push("--ignore-case");
  if (args.context && !spec.regex) out.push(`--context=${args.context}`);
  out.push(...globs.rgArgs);
  for (const g of skip) out.push(`--iglob=${g}`);
  // rg prints paths as it was given them: relative to the root, "./" for the root itself.
  const targets = (spec.targets ?? [spec.target]).map((t) => t || "./");
  out.push("--", spec.regex ?? args.pattern, ...targets);
  return out;
}

/**
 * For an empty result only: the same search again with ignore files off and
 * binary files searched (rg skips a binary file before its first match when
 * the NUL comes early), stopping after a few matches, to tell which files
 * match but are not shown.
 */
async function whyEmpty(
  binaryFound: readonly string[],
  probe: (extra: string[]) => Promise<Collected>,
  read: ConfinedRead,
): Promise<{ binary: string[]; ignored: string[] }> {
  const found = await probe(["--no-ignore", "--binary"]);
  await confirmHits(found, read);
  const binary = new Set([...binaryFound, ...found.binary]);
  const ignored: string[] = [];
  for (const file of found.files) {
    if ((await read(file.path))?.includes(0)) binary.add(file.path);
    else ignored.push(file.path);
  }
  return { binary: [...binary], ignored };
}

/** The path searched, checked: it exists and is no FIFO, socket or device; and whether it is a folder. */
async function searchTarget(
  context: ToolContext,
  at: string | undefined,
): Promise<{ where: GuardedPath; folder: boolean }> {
  const where = context.guard.check(at || ".", "read");
  if (!where.exists) throw missingError(where.display);
  const kind = (await context.workspace.stat(where.real))?.kind;
  if (kind === "other") {
    // rg would read a FIFO named as its path, and wait for a writer forever.
    throw new ToolError(
      "not_a_file",
      `${where.display} is not a regular file (a named pipe, socket or device), so splice does not search it. Name a file or folder.`,
      { path: where.display },
    );
  }
  return { where, folder: kind === "directory" };
}

function missingError(display: string): ToolError {
  return new ToolError(
    "not_found",
    `${display} does not exist.`,
    { path: display },
    {
      tool: "list",
      say: (v) =>
        `Check the path with ${v.tool("list")}, or search the whole project by leaving the path out.`,
    },
  );
}

/** A path as rg printed it (relative to the root, "./" for a root search) made relative, or undefined when not shown. */
function acceptor(guard: PathGuard, globs: SearchGlobs): (printed: string) => string | undefined {
  return (printed) => {
    const rel = printed.replace(/^\.\//, "");
    if (!globs.matches(rel)) return undefined;
    try {
      guard.check(path.join(guard.root, rel), "read");
      return rel;
    } catch {
      return undefined; // a secret or blocked file: its lines are never shown
    }
  };
}

/** rg's complaints as warnings; thrown when they are the whole answer, or when the path went away meanwhile. */
async function warningsOf(
  context: ToolContext,
  where: GuardedPath,
  outcome: Collected["outcome"],
  matches: number,
  args: z.output<typeof input>,
): Promise<string[]> {
  const root = context.guard.root;
  if (outcome.code === 2) {
    outcome.stderr = await confirmStderr(outcome.stderr, async (rel) =>
      Boolean(await context.workspace.stat(path.join(root, rel)).catch(() => undefined)),
    );
    // Every message was about a file the swap made rg see: nothing went wrong here.
    if (outcome.stderr === "") outcome.code = matches > 0 ? 0 : 1;
  }
  const warnings: string[] = [];
  const stderr = withoutVanished(outcome.stderr).stderr;
  if (outcome.code === 2) {
    // Deleted while rg searched: the path is gone now, not a fault of the search.
    if (!(await context.workspace.stat(where.real))) throw missingError(where.display);
    if (matches === 0 && stderr !== "") throw rgError(stderr, args);
    for (const line of stderr.split("\n").filter((l) => l.trim() !== "")) {
      if (warnings.length >= SEARCH_LIMITS.maxWarnings) break;
      warnings.push(line.replace(/^rg: /, ""));
    }
  }
  return warnings;
}

export const searchTool = defineTool({
  name: "search",
  description: `Search file contents with ripgrep; prints path:line: text.
Example: {"pattern": "createServer(", "glob": "*.ts"}`,
  manual: manual("search/search.md"),
  example: { pattern: "createServer", path: "src", glob: "*.ts" },
  input,
  annotations: READS,
  kind: "read",
  needsApproval: false,
  footprint: (args) => ({ reads: [args.path || "."], writes: [] }),
  summarize: (args) => ({
    subject: args.pattern,
    summary: `search ${JSON.stringify(args.pattern)}${args.path ? ` in ${args.path}` : ""}`,
  }),
  async call(context: ToolContext, args): Promise<SearchResult> {
    const guard = context.guard;
    const { where, folder } = await searchTarget(context, args.path);
    const globs = searchGlobs(args.glob === undefined ? [] : [args.glob].flat());
    const limit = args.limit ?? SEARCH_LIMITS.defaultLimit;
    const contextLines = args.context ?? 0;
    const skip = exclusions(guard);

    const accept = acceptor(guard, globs);
    let matched = 0;
    const run: Runner = (spec) =>
      collectHits({
        argv: rgArgs(args, globs, skip, { ...spec, target: where.rel }),
        cwd: guard.root,
        ...(context.workspace.shell
          ? { start: remoteSearch(context.workspace.shell, guard.root) }
          : {}),
        limit: spec.most,
        accept: (path) => {
          const rel = accept(path);
          // Files with matches so far: how many ripgrep has searched is not known until it ends.
          if (rel !== undefined)
            reportCallProgress(context, { phase: "matching", done: ++matched });
          return rel;
        },
        signal: context.signal,
      });
    const read: ConfinedRead = (rel) =>
      context.workspace.readFile(path.join(guard.root, rel)).catch(() => undefined);
    const found = await searchEncoded({
      context,
      where,
      folder,
      pattern: args.pattern,
      regex: args.regex ?? false,
      limit,
      skip,
      run,
      read,
    });
    const { files, hits, truncated, outcome } = found;

    const warnings = await warningsOf(context, where, outcome, hits.length, args);

    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const order = new Map(files.map((f, i) => [f.path, i]));
    hits.sort((a, b) => order.get(a.path)! - order.get(b.path)! || a.line - b.line);

    const shown = hitsText(context, found, contextLines, limit);
    const empty =
      hits.length === 0
        ? await whyEmpty(found.binary, (extra) => run({ extra, most: IGNORED_PROBE }), read)
        : undefined;
    // The notices name arguments: said in the model's voice, and kept for the CLI's.
    const content = (v: Voice) =>
      empty
        ? emptyNotice(args, where.display, empty.binary, empty.ignored, v) +
          (truncated ? moreNote(hits.length, files.length, limit, v) : "")
        : shown(v);

    context.events.emit({
      type: "search_hits",
      pattern: args.pattern,
      path: where.display,
      matches: hits.length,
      files: files.map((f) => f.path),
    });
    const result = {
      pattern: args.pattern,
      matches: hits.length,
      files: files.length,
      truncated,
      hits,
      warnings,
    };
    return voiced(result, content);
  },
});
