import { z } from "zod";
import { loadTextFile, notTextError } from "../../change/load.js";
import { type Language, languageOf, parseCodeAsync } from "../../code/languages.js";
import { outlineEntries, outlineLines } from "../../code/outline.js";
import { extractDefinitions } from "../../code/symbols.js";
import { describeProblem, syntaxProblems } from "../../code/syntax-check.js";
import { loadedIn, readRaw } from "../../codebase/code-bytes.js";
import {
  type CodeFile,
  collectCodeFiles,
  footprintPaths,
  languageArg,
  maxFilesSchema,
  reportProgress,
} from "../../codebase/files.js";
import { type SymbolIndex, symbolIndexFor } from "../../codebase/symbol-index.js";
import { fileStamp } from "../../codebase/symbol-index-store.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { normalizedText } from "../../text/document.js";
import { mapLimit } from "../../util/map-limit.js";
import type { ToolContext } from "../define.js";
import { defineTool, manual, READS } from "../define.js";
import { OutlineBlocks, type Outlined, type OutlineFile } from "./blocks.js";
import { outlineUnparsed } from "./plain.js";

export const OUTLINE_DEFAULT_MAX_FILES = 1000;

/** Bytes of the output budget kept for an outline's closing notes and warnings. */
const OUTLINE_NOTICE_BYTES = 1_500;
const READ_AHEAD = 16;

const input = z.strictObject({
  path: z.string(),
  max_files: maxFilesSchema(OUTLINE_DEFAULT_MAX_FILES),
  lang: z.string().optional().describe('Only this language, e.g. "go".'),
});

type Args = z.output<typeof input>;

export interface OutlineResult {
  path: string;
  /** What a model reads: per file `¶path#TAG`, then `start..end signature` lines, nested by indentation. */
  content: string;
  files: OutlineFile[];
  files_outlined: number;
  /** Files in a supported language under the path (before max_files). */
  files_found: number;
  truncated: boolean;
  warnings: string[];
}

type Read = { skipped: string } | { notText: string; bytes: Uint8Array } | { outlined: Outlined };

/** Why bytes are not text, as loading them in their encoding says. */
async function notTextOf(context: ToolContext, code: CodeFile, bytes: Uint8Array): Promise<Read> {
  const loaded = await loadedIn(context, code.file, bytes);
  return { notText: "kind" in loaded ? loaded.reason : "it is not text", bytes };
}

/** A file read and parsed (on the thread pool, so a batch parses side by side), or why not. */
async function readParsed(context: ToolContext, code: CodeFile): Promise<Read> {
  const raw = await readRaw(context, code);
  if ("skipped" in raw) return raw;
  const loaded = await loadedIn(context, code.file, raw.bytes);
  if ("kind" in loaded) return { notText: loaded.reason, bytes: raw.bytes };
  const root = (await parseCodeAsync(code.language, normalizedText(loaded.doc))).root();
  const defs = extractDefinitions(root, code.language, loaded.doc.lines);
  const broken = syntaxProblems(root)[0];
  return {
    outlined: {
      lines: outlineLines(defs, loaded.doc.lines),
      entries: outlineEntries(defs, code.language),
      ...(broken ? { broken: describeProblem(broken) } : {}),
      tag: loaded.tag,
      totalLines: loaded.doc.lines.length,
      loaded,
    },
  };
}

/**
 * A folder's file from the symbol index: its bytes are read and hashed
 * (an outline names the version it shows), and parsed only when they differ
 * from the entry's.
 */
async function readIndexed(
  context: ToolContext,
  index: SymbolIndex,
  code: CodeFile,
): Promise<Read> {
  const checkedAt = Date.now();
  const stat = fileStamp(code.file.real);
  if (!stat) {
    index.put(code.file.rel, null);
    return { skipped: "gone" };
  }
  const raw = await readRaw(context, { file: code.file, size: stat.size });
  if ("skipped" in raw) return raw;
  const entry = await index.forBytes(context, code, raw.bytes, stat, checkedAt);
  if (!entry) return notTextOf(context, code, raw.bytes);
  return {
    outlined: {
      lines: entry.defs.map((d) => d.line),
      entries: entry.defs.map((d) => ({
        name: d.name,
        qualified_name: d.qualified,
        kind: d.kind,
        lines: [d.start, d.end],
        depth: d.depth,
      })),
      ...(entry.broken ? { broken: entry.broken } : {}),
      tag: entry.tag,
      totalLines: entry.lines,
    },
  };
}

/** A named file in no language splice parses is outlined as plain text; a folder without one is an error. */
async function outlineUnsupported(
  context: ToolContext,
  target: GuardedPath,
  folder: boolean,
  language: Language | undefined,
  warnings: readonly string[],
): Promise<OutlineResult> {
  const own = folder ? undefined : languageOf(target.display);
  if (own && language && own.id !== language.id) {
    throw new ToolError(
      "invalid_input",
      `${target.display} is ${own.name}, not ${language.name}. Leave lang out to outline it as ${own.name}.`,
      { path: target.display },
    );
  }
  if (!folder) {
    const o = await outlineUnparsed(context, target);
    const file = { path: target.display, file_hash: o.fileHash, total_lines: o.totalLines };
    context.events.emit({ type: "files_read", paths: [target.display] });
    return {
      path: target.display,
      content: o.content,
      files: [{ ...file, definitions: [] }],
      files_outlined: 1,
      files_found: 1,
      truncated: o.truncated,
      warnings: [],
    };
  }
  throw new ToolError(
    "not_found",
    `No file under ${target.display} is in a language splice parses. ${warnings.join(" ")}`.trim(),
  );
}

async function outline(context: ToolContext, args: Args): Promise<OutlineResult> {
  const language = languageArg(args.lang);
  const target = context.guard.check(args.path, "read");
  const stat = await context.workspace.stat(target.real);
  const folder = stat?.kind === "directory";
  const collected = await collectCodeFiles(context, [args.path], {
    maxFiles: args.max_files ?? OUTLINE_DEFAULT_MAX_FILES,
    ...(language ? { language } : {}),
  });
  if (collected.files.length === 0) {
    return outlineUnsupported(context, target, folder, language, collected.warnings);
  }
  const warnings = [...collected.warnings];
  const room = context.limits.outputBytes - OUTLINE_NOTICE_BYTES;
  const shown = new OutlineBlocks(folder, context.limits.maxLines, room, warnings, (file, l, tag) =>
    context.history.recordRead(file.rel, l.bytes, tag, undefined, l.sha),
  );
  const total = collected.files.length;
  // Folders come from the symbol index; a named file is parsed, as its read is recorded.
  const index = folder ? symbolIndexFor(context) : undefined;
  index?.refresh();
  // In path order, a batch read ahead at a time; parsing stops once the output is full.
  for (let at = 0; at < total && !shown.truncated; at += READ_AHEAD) {
    const batch = collected.files.slice(at, at + READ_AHEAD);
    const parsed = await mapLimit(batch, READ_AHEAD, (code) =>
      index ? readIndexed(context, index, code) : readParsed(context, code),
    );
    for (const [i, code] of batch.entries()) {
      reportProgress(context, { phase: "outlining", done: at + i + 1, total });
      const file = parsed[i]!;
      if ("notText" in file) {
        // Refused as read refuses it: binary, or an encoding that cannot be told for sure.
        if (!folder) await loadTextFile(context, code.file);
        if (!folder) throw notTextError(code.file.display, file.notText);
        shown.notText.push(code.file.display);
        continue;
      }
      if ("skipped" in file) {
        warnings.push(`Skipped ${code.file.display} (${file.skipped}).`);
        continue;
      }
      if (!shown.add(code.file, file.outlined)) break;
    }
  }
  index?.flush();
  const content = shown.finish(collected.files.length);
  const { files } = shown;
  context.events.emit({ type: "files_read", paths: files.map((f) => f.path) });
  return {
    path: target.display,
    content,
    files,
    files_outlined: files.length,
    files_found: collected.found,
    truncated: shown.truncated,
    warnings,
  };
}

export const outlineTool = defineTool({
  name: "outline",
  description: `List what a file or folder defines (functions, classes, types, …) with line ranges: the cheap way to find what to read.
Example: {"path": "src/parser.ts"}`,
  manual: manual("outline/outline.md"),
  example: { path: "src/parser.ts" },
  input,
  annotations: READS,
  kind: "read",
  needsApproval: false,
  footprint: (args) => ({ reads: footprintPaths([args.path]), writes: [] }),
  summarize: (args) => ({ subject: args.path, summary: `outline ${args.path}` }),
  call: outline,
});
