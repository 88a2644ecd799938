/**
 * The tidy tool: whitespace hygiene for files and folders (trailing
 * whitespace, final newline, mixed line endings, and indentation where an
 * .editorconfig asks for it). `check` mode changes nothing and fails when
 * something would change, for CI.
 */
import { posix } from "node:path";
import { z } from "zod";
import type { Mode } from "../../change/change.js";
import { commit } from "../../change/commit.js";
import { decodeFile } from "../../change/load.js";
import { serialized } from "../../change/lock.js";
import { literalLines } from "../../code/literal-lines.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { pathList } from "../../text/names.js";
import { type TidyFix, tidyDocument } from "../../text/tidy.js";
import { formatBytes } from "../../util/format.js";
import { identify } from "../../util/hash.js";
import { Walker } from "../../workspace/walk.js";
import type { ToolContext } from "../define.js";
import { defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, withSharedFields } from "../schemas.js";
import type { EditorConfigs } from "./editorconfig.js";

/** A folder is tidied file by file, up to this many. */
export const TIDY_MAX_FILES = 5000;
/** The text a model reads shows at most this much diff. */
const MAX_SHOWN_DIFF = 20_000;

const input = z.strictObject({
  paths: z.union([z.string(), z.array(z.string()).min(1)]),
  mode: modeSchema,
  force: forceSchema,
});

type Args = z.output<typeof input>;

export interface TidyFileResult {
  action: "tidy";
  path: string;
  header: string;
  file_hash: string;
  changed: boolean;
  applied: boolean;
  diff: string;
  fixes: TidyFix[];
  warnings: string[];
}

export interface TidyResult {
  action: "tidy";
  /** What a model reads: a summary and the diffs. */
  content: string;
  applied: boolean;
  changed: boolean;
  /** Files looked at. */
  checked: number;
  diff: string;
  backup_session?: string;
  /** The files that changed (or would). */
  results: TidyFileResult[];
  /** Files left alone, and why (binary, too large). */
  skipped: { path: string; reason: string }[];
  warnings: string[];
}

const MAKEFILE = /^(?:GNUmakefile|makefile|Makefile)$|\.mk$/;
const MARKDOWN = /\.(?:md|markdown|mdx)$/i;

async function expand(
  context: ToolContext,
  paths: string[],
  scope: "read" | "write",
  warnings: string[],
): Promise<GuardedPath[]> {
  const out = new Map<string, GuardedPath>();
  for (const path of paths) {
    const target = context.guard.check(path, scope);
    const stat = await context.workspace.stat(target.real);
    if (!stat) {
      throw new ToolError("not_found", `${target.display} does not exist. Check the path.`, {
        path: target.display,
      });
    }
    if (stat.kind !== "directory") {
      out.set(target.real, target);
      continue;
    }
    const walk = await new Walker(context.guard, context.workspace).walk({
      start: target.real,
      depth: 64,
      limit: TIDY_MAX_FILES,
      includeHidden: false,
      maxScanned: TIDY_MAX_FILES * 4,
    });
    warnings.push(...walk.warnings);
    const files: string[] = [];
    const visit = (nodes: typeof walk.top) => {
      for (const node of nodes) {
        if (node.kind === "file") files.push(node.rel);
        visit(node.children);
      }
    };
    visit(walk.top);
    if (!walk.complete || walk.shown < walk.total) {
      warnings.push(
        `${target.display} has more files than tidy takes at once (${TIDY_MAX_FILES}); tidy its folders one by one.`,
      );
    }
    for (const rel of files) {
      try {
        const file = context.guard.check(posix.join(context.guard.root, rel), scope);
        out.set(file.real, file);
      } catch {
        // A file the guard refuses for this scope is not tidy's to touch.
      }
    }
  }
  return [...out.values()];
}

async function tidyOne(
  context: ToolContext,
  file: GuardedPath,
  configs: EditorConfigs,
  mode: Mode,
  skipped: TidyResult["skipped"],
  force: boolean | undefined,
): Promise<TidyFileResult | undefined> {
  const stat = await context.workspace.stat(file.real);
  if (stat?.kind !== "file") return undefined;
  if (!force && (stat.mode & 0o222) === 0) {
    const octal = `0${(stat.mode & 0o777).toString(8)}`;
    skipped.push({
      path: file.display,
      reason: `read-only (mode ${octal}); pass force: true to tidy it too`,
    });
    return undefined;
  }
  if (stat.size > context.limits.maxFileBytes) {
    skipped.push({ path: file.display, reason: `too large (${formatBytes(stat.size)})` });
    return undefined;
  }
  const bytes = await context.workspace.readFile(file.real);
  const doc = await decodeFile(context, file, bytes);
  if ("kind" in doc) {
    skipped.push({ path: file.display, reason: `not a text file (${doc.reason})` });
    return undefined;
  }
  const name = posix.basename(file.real);
  const options = await configs.optionsFor(file.real, MARKDOWN.test(name));
  const warnings: string[] = [];
  if (options.indent?.style === "space" && MAKEFILE.test(name)) {
    delete options.indent; // make needs its recipe tabs, whatever an editorconfig glob says
    warnings.push(`${file.display} is a Makefile: its tabs were kept.`);
  }
  let tidied = tidyDocument(doc, options);
  // Only a file with whitespace to fix is parsed, to keep what is inside its strings.
  if (tidied.fixes.some((f) => f.kind === "indentation" || f.kind === "trailing_whitespace")) {
    const literal = literalLines(file.real, doc);
    if (literal && (literal.starts.size > 0 || literal.ends.size > 0)) {
      tidied = tidyDocument(doc, { ...options, literal });
    }
  }
  if (tidied.ambiguousIndent.length > 0) {
    const lines = tidied.ambiguousIndent;
    const shown =
      lines.slice(0, 10).join(", ") + (lines.length > 10 ? ` and ${lines.length - 10} more` : "");
    warnings.push(
      `${file.display}: left the indentation of line${lines.length === 1 ? "" : "s"} ${shown} as it was (it does not convert evenly).`,
    );
  }
  if (tidied.fixes.length === 0) return undefined;
  const before = { bytes, doc, ...identify(bytes, undefined, doc.encoding), mode: stat.mode };
  const outcome = await commit(
    context,
    { kind: "write", file, before, doc: tidied.doc, note: "tidy", action: "tidy" },
    // Whitespace changes are not worth a language server's time.
    { mode: mode === "check" ? "preview" : mode, validate: false, force: true },
  );
  if (!outcome.changed) return undefined;
  return {
    action: "tidy",
    path: file.display,
    header: outcome.header,
    file_hash: outcome.tag,
    changed: true,
    applied: outcome.applied,
    diff: outcome.diff,
    fixes: tidied.fixes,
    warnings,
  };
}

function describe(r: TidyFileResult): string {
  const parts = r.fixes.map((f) =>
    f.kind === "final_newline"
      ? f.detail
      : `${f.detail} (${f.lines.length} line${f.lines.length === 1 ? "" : "s"})`,
  );
  return `${r.path}: ${parts.join("; ")}`;
}

async function tidy(context: ToolContext, args: Args): Promise<TidyResult> {
  const mode: Mode = args.mode ?? "apply";
  const paths = typeof args.paths === "string" ? [args.paths] : args.paths;
  const warnings: string[] = [];
  const files = await expand(context, paths, mode === "apply" ? "write" : "read", warnings);
  // editorconfig (and the semver it brings) loads with the first tidy call, not with splice.
  const { EditorConfigs } = await import("./editorconfig.js");
  const configs = new EditorConfigs(context);
  const results: TidyFileResult[] = [];
  const skipped: TidyResult["skipped"] = [];
  for (const file of files) {
    const step = () => tidyOne(context, file, configs, mode, skipped, args.force);
    const r = mode === "apply" ? await serialized(context, file.real, step) : await step();
    if (r) results.push(r);
  }
  for (const s of skipped) warnings.push(`Skipped ${s.path}: ${s.reason}.`);
  for (const r of results) warnings.push(...r.warnings);
  const diff = results.map((r) => r.diff).join("");
  const verb = mode === "apply" ? "tidied" : "would change";
  const summary =
    results.length === 0
      ? `tidy: ${files.length} file${files.length === 1 ? "" : "s"} checked, all tidy.`
      : `tidy: ${results.length} of ${files.length} file${files.length === 1 ? "" : "s"} ${verb}:\n${results.map(describe).join("\n")}`;
  if (mode === "check" && results.length > 0) {
    throw new ToolError("check_failed", `${summary}\n(check mode writes nothing)\n${diff}`, {
      paths: results.map((r) => r.path),
      diff,
    });
  }
  const shown =
    diff.length > MAX_SHOWN_DIFF
      ? `${diff.slice(0, MAX_SHOWN_DIFF)}\n[… ${diff.length - MAX_SHOWN_DIFF} more characters of diff in "diff"]`
      : diff;
  const wrote = results.some((r) => r.applied);
  return {
    action: "tidy",
    content: shown ? `${summary}\n${shown.trimEnd()}` : summary,
    applied: mode === "apply",
    changed: results.length > 0,
    checked: files.length,
    diff,
    ...(wrote ? { backup_session: context.backup } : {}),
    results,
    skipped,
    warnings,
  };
}

export const tidyTool = defineTool({
  name: "tidy",
  description: `Fix whitespace in files or folders: trailing spaces, the final newline, mixed line endings, indentation as .editorconfig says.
Example: {"paths": ["src"], "mode": "check"}`,
  manual: withSharedFields(manual("tidy/tidy.md"), "mode", "force"),
  example: { paths: ["src", "README.md"], mode: "check" },
  input,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  kind: "edit",
  needsApproval: (args) => args.mode === undefined || args.mode === "apply",
  footprint: (args) => {
    const paths = typeof args.paths === "string" ? [args.paths] : args.paths;
    return args.mode === "apply" || args.mode === undefined
      ? { reads: [], writes: paths }
      : { reads: paths, writes: [] };
  },
  summarize: (args) => {
    const subject = pathList(typeof args.paths === "string" ? [args.paths] : args.paths);
    return { subject, summary: `tidy ${subject}` };
  },
  preview: async (context, args) => (await tidy(context, { ...args, mode: "preview" })).diff,
  call: tidy,
});
