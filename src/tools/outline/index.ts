import { z } from "zod";
import { type LoadedFile, notTextError } from "../../change/load.js";
import { languageOf, parseCodeAsync } from "../../code/languages.js";
import { type OutlineEntry, outlineEntries, outlineLines } from "../../code/outline.js";
import { extractDefinitions } from "../../code/symbols.js";
import { describeProblem, syntaxProblems } from "../../code/syntax-check.js";
import {
  type CodeFile,
  collectCodeFiles,
  footprintPaths,
  languageArg,
  loadedFrom,
  maxFilesSchema,
  readRaw,
  reportProgress,
} from "../../codebase/files.js";
import { type SymbolIndex, symbolIndexFor } from "../../codebase/symbol-index.js";
import { fileStamp } from "../../codebase/symbol-index-store.js";
import { ToolError } from "../../errors.js";
import { documentFromBytes, normalizedText } from "../../text/document.js";
import { header } from "../../text/hashline.js";
import { mapLimit } from "../../util/map-limit.js";
import type { ToolContext } from "../define.js";
import { defineTool, manual, READS } from "../define.js";
import { outlineUnparsed } from "./plain.js";

export const OUTLINE_DEFAULT_MAX_FILES = 1000;
const READ_AHEAD = 16;

const input = z.strictObject({
  path: z.string().describe("A file or folder."),
  max_files: maxFilesSchema("of a folder to outline", OUTLINE_DEFAULT_MAX_FILES),
  lang: z.string().optional().describe('Only this language, e.g. "go".'),
});

type Args = z.output<typeof input>;

export interface OutlineFile {
  path: string;
  file_hash: string;
  total_lines: number;
  definitions: OutlineEntry[];
}

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

const count = (n: number) => n.toLocaleString("en-US");

/** What the outline of one file shows, from a parse or from the index. */
interface Outlined {
  lines: string[];
  entries: OutlineEntry[];
  /** The first parse error, described. */
  broken?: string;
  tag: string;
  totalLines: number;
  loaded?: LoadedFile;
}

type Read = { skipped: string } | { notText: string; bytes: Uint8Array } | { outlined: Outlined };

const notTextOf = (bytes: Uint8Array): Read => {
  const doc = documentFromBytes(bytes);
  return { notText: "reason" in doc ? doc.reason : "it is not UTF-8 text", bytes };
};

/** A file read and parsed (on the thread pool, so a batch parses side by side), or why not. */
async function readParsed(context: ToolContext, code: CodeFile): Promise<Read> {
  const raw = await readRaw(context, code);
  if ("skipped" in raw) return raw;
  const loaded = loadedFrom(raw.bytes);
  if (!loaded) return notTextOf(raw.bytes);
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
  const entry = await index.forBytes(code, raw.bytes, stat, checkedAt);
  if (!entry) return notTextOf(raw.bytes);
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
      `No file under ${target.display} is in a language splice parses. ${collected.warnings.join(" ")}`.trim(),
    );
  }
  const warnings = [...collected.warnings];
  const maxLines = context.limits.maxLines;
  const out: string[] = [];
  const files: OutlineFile[] = [];
  let empty = 0;
  const notText: string[] = [];
  let truncated = false;
  const total = collected.files.length;
  // Folders come from the symbol index; a named file is parsed, as its read is recorded.
  const index = folder ? symbolIndexFor(context) : undefined;
  index?.refresh();
  // In path order, a batch read ahead at a time; parsing stops once the output is full.
  for (let at = 0; at < total && !truncated; at += READ_AHEAD) {
    const batch = collected.files.slice(at, at + READ_AHEAD);
    const parsed = await mapLimit(batch, READ_AHEAD, (code) =>
      index ? readIndexed(context, index, code) : readParsed(context, code),
    );
    for (const [i, code] of batch.entries()) {
      reportProgress(context, { phase: "outlining", done: at + i + 1, total });
      const file = parsed[i]!;
      if ("notText" in file) {
        if (!folder) throw notTextError(code.file.display, file.notText);
        notText.push(code.file.display);
        continue;
      }
      if ("skipped" in file) {
        warnings.push(`Skipped ${code.file.display} (${file.skipped}).`);
        continue;
      }
      const o = file.outlined;
      // The parser recovers by folding or dropping the definitions around an error.
      if (o.broken) {
        warnings.push(
          `${code.file.display} has parse errors (${o.broken}); its outline may be incomplete, definitions around them can be missing. Read the file there, or fix the syntax.`,
        );
      }
      if (o.entries.length === 0 && folder) {
        empty++;
        continue;
      }
      const tag = o.tag;
      const display = code.file.display;
      const block = [
        header(display, tag),
        ...(o.lines.length > 0 ? o.lines : ["[no definitions]"]),
      ];
      if (out.length + block.length > maxLines) {
        const room = maxLines - out.length;
        if (room > 2 && !folder) out.push(...block.slice(0, room - 1));
        truncated = true;
        break;
      }
      out.push(...block);
      files.push({
        path: display,
        file_hash: tag,
        total_lines: o.totalLines,
        definitions: o.entries,
      });
      // A file's outline names its version, so a block op may use its line numbers.
      if (!folder && o.loaded) {
        context.history.recordRead(code.file.rel, o.loaded.bytes, tag, undefined, o.loaded.sha);
      }
    }
  }
  index?.flush();
  if (empty > 0) out.push(`[${count(empty)} file(s) with no definitions not shown]`);
  if (notText.length > 0) {
    const named = notText.slice(0, 5).join(", ") + (notText.length > 5 ? ", …" : "");
    const notice = `skipped ${count(notText.length)} file(s) that are not UTF-8 text (binary or another encoding): ${named}`;
    out.push(`[${notice}]`);
    warnings.push(`${notice}.`);
  }
  if (truncated) {
    out.push(
      folder
        ? `[outline stopped at ${count(maxLines)} lines after ${count(files.length)} of ${count(collected.files.length)} files; outline a subfolder or a file for the rest]`
        : `[outline stopped at ${count(maxLines)} lines; read the file by symbol or line_range for the rest]`,
    );
  }
  context.events.emit({ type: "files_read", paths: files.map((f) => f.path) });
  return {
    path: target.display,
    content: out.join("\n"),
    files,
    files_outlined: files.length,
    files_found: collected.found,
    truncated,
    warnings,
  };
}

export const outlineTool = defineTool({
  name: "outline",
  description: `List what a file or folder defines (functions, classes, types, …) with line ranges: the cheapest way to find what to read.
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
