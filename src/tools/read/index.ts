import { z } from "zod";
import { loadTextFile } from "../../change/load.js";
import { clip, isToolError, ToolError } from "../../errors.js";
import { isNotebookPath } from "../../media/kind.js";
import { header, renderHashline } from "../../text/hashline.js";
import { pathList } from "../../text/names.js";
import { formatRange, parseRange } from "../../text/range.js";
import { count } from "../../util/format.js";
import type { ToolContext } from "../define.js";
import { defineTool, manual, READS } from "../define.js";
import { targetsInput } from "../targets.js";
import { readLine } from "./line.js";
import { readBinary, readMediaNamed, readNotebook } from "./media.js";
import type { ReadResult } from "./result.js";
import { readSymbol } from "./symbol.js";

export type { DefinitionInfo, ReadResult } from "./result.js";

const lineRange = z
  // An array of two, not a tuple: prefixItems is outside Gemini's and OpenAI strict's schemas.
  .union([z.string(), z.array(z.number().int()).length(2)]);

const target = {
  fields: {
    path: z.string(),
    line_range: lineRange.optional(),
    symbol: z.string().optional(),
    line: z.number().int().min(1).optional(),
    pages: z.string().optional(),
  },
  about: {
    path: "A file (a folder with symbol).",
    line_range: '"40..80" or [40, 80], inclusive.',
    symbol: 'A definition: "parse" or "Parser.parse".',
    line: "The function or class around this line.",
    pages: 'PDF pages: "3..5".',
  },
};

/**
 * One call shows at most this many per-file line caps in all (10,000 lines by
 * default): enough for several whole files, while many targets cannot fill a
 * model's context in one result.
 */
export const READ_TOTAL_FILES = 5;

const input = targetsInput(target, {});

type Target = z.output<typeof input>["targets"][number];

/** What a read may still show: lines, and bytes of the result's text (the output budget). */
interface Room {
  lines: number;
  bytes: number;
}

/** Kept from the output budget for the result's own closing notice (targets not shown). */
const RESULT_NOTICE_BYTES = 800;
/** A target is read only with at least this much room left; the rest are named, not shown. */
const MIN_TARGET_BYTES = 1_500;

/** Bytes of a target's text as the model reads it: its content and its warnings. */
const shownBytes = (r: ReadResult) =>
  Buffer.byteLength(r.content) + r.warnings.reduce((n, w) => n + Buffer.byteLength(w) + 3, 2);

function lineCount(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function toRange(value: z.output<typeof lineRange>): [number, number] | undefined {
  return typeof value === "string" ? parseRange(value) : [value[0]!, value[1]!];
}

/** Precedence: symbol, then line_range, then line; the losers are named in a warning. */
async function readTarget(context: ToolContext, t: Target, room: Room): Promise<ReadResult[]> {
  const warnings: string[] = [];
  if (t.symbol !== undefined) {
    const ignored = [
      t.line_range !== undefined && "a line range",
      t.line !== undefined && "a line",
    ];
    const names = ignored.filter(Boolean);
    if (names.length > 0) {
      warnings.push(
        `A symbol wins over ${names.join(" and ")}; ${names.length === 1 ? "it was" : "they were"} ignored.`,
      );
    }
    return readSymbol(context, t.path, t.symbol, warnings);
  }
  if (t.line !== undefined && t.line_range === undefined) {
    const file = context.guard.check(t.path, "read");
    return [await readLine(context, file, await loadTextFile(context, file), t.line, warnings)];
  }
  if (t.line !== undefined) warnings.push("A line range wins over a line; the line was ignored.");
  const result = await readOne(context, t, room).catch((error: unknown) => {
    if (!isToolError(error) || error.code !== "is_directory") throw error;
    const symbol = { targets: [{ path: t.path, symbol: "Name" }] };
    throw new ToolError("is_directory", error.facts, error.details, {
      tool: "read",
      args: symbol,
      say: (v) =>
        `${error.next ? `${error.next.say(v)} ` : ""}${v.call("read", symbol)} to search the folder for a definition.`,
    });
  });
  result.warnings.unshift(...warnings);
  return [result];
}

async function readOne(context: ToolContext, t: Target, room: Room): Promise<ReadResult> {
  const file = context.guard.check(t.path, "read");
  const media = await readMediaNamed(context, file, t.pages);
  if (media) return media;
  let loaded: Awaited<ReturnType<typeof loadTextFile>>;
  try {
    loaded = await loadTextFile(context, file);
  } catch (error) {
    if (!isToolError(error) || error.code !== "binary") throw error;
    return readBinary(context, file, error, t.pages);
  }
  // A notebook reads as its cells; a line_range reads its JSON lines.
  if (isNotebookPath(file.display) && t.line_range === undefined) {
    return readNotebook(context, file, loaded);
  }
  const total = loaded.doc.lines.length;
  const warnings: string[] = [];
  let start: number | undefined;
  let end: number | undefined;
  if (t.line_range !== undefined) {
    const range = toRange(t.line_range);
    if (!range || range[0] < 1 || range[1] < range[0]) {
      throw new ToolError(
        "invalid_input",
        `The line range ${clip(JSON.stringify(t.line_range))} is not valid; use "start..end" with 1 <= start <= end, e.g. "1..50".`,
      );
    }
    if (range[0] > Math.max(total, 1)) {
      throw new ToolError(
        "invalid_input",
        `Lines ${formatRange(range)} start past the end: ${file.display} has ${total} lines. Read "1..${Math.max(total, 1)}" or less.`,
      );
    }
    if (range[1] > total) {
      warnings.push(`Lines ${formatRange(range)} end past line ${total}; showing up to ${total}.`);
    }
    [start, end] = range;
  }
  const rendered = renderHashline(loaded.doc, file.display, loaded.tag, {
    start,
    end,
    maxLines: Math.min(context.limits.maxLines, room.lines),
    maxBytes: room.bytes,
    maxLineLength: context.limits.maxLineLength,
  });
  const whole = rendered.shown[0] <= 1 && rendered.shown[1] >= total;
  context.history.recordRead(
    file.rel,
    loaded.bytes,
    loaded.tag,
    whole ? undefined : rendered.shown,
    loaded.sha,
  );
  return {
    path: file.display,
    file_hash: loaded.tag,
    header: header(file.display, loaded.tag, loaded.doc.encoding),
    content: rendered.content,
    total_lines: total,
    warnings,
  };
}

export const readTool = defineTool({
  name: "read",
  description: `Read files with line numbers: "N| text" lines (N| is not in the file) under a header ¶path#TAG; line-op edits pass TAG as file_hash. Narrow with line_range, symbol or line.
Example: {"path": "src/a.ts", "line_range": "40..80"}`,
  manual: manual("read/read.md"),
  example: { path: "src/main.ts", line_range: "1..80" },
  input,
  annotations: READS,
  kind: "read",
  needsApproval: false,
  footprint: (args) => ({ reads: args.targets.map((t) => t.path), writes: [] }),
  summarize: (args) => {
    const subject = pathList(args.targets.map((t) => t.path));
    return { subject, summary: `read ${subject}` };
  },
  async call(context, args): Promise<{ results: ReadResult[]; not_shown?: string[] }> {
    const results: ReadResult[] = [];
    const lines = READ_TOTAL_FILES * context.limits.maxLines;
    const bytes = context.limits.outputBytes;
    const room: Room = { lines, bytes: bytes - RESULT_NOTICE_BYTES };
    let notShown: string[] = [];
    for (const [i, t] of args.targets.entries()) {
      if (room.lines <= 0 || room.bytes < MIN_TARGET_BYTES) {
        notShown = args.targets.slice(i).map((u) => u.path);
        break;
      }
      try {
        const shown = await readTarget(context, t, room);
        for (const r of shown) {
          room.lines -= lineCount(r.content);
          room.bytes -= shownBytes(r);
        }
        results.push(...shown);
      } catch (error) {
        if (!isToolError(error)) throw error;
        const failed = { code: error.code, message: error.message };
        // The CLI says the advice in its own voice; JSON and hosts see only code and message.
        if (error.next)
          Object.defineProperty(failed, "thrown", { value: error, enumerable: false });
        results.push({ path: t.path, content: "", warnings: [error.message], error: failed });
      }
    }
    context.events.emit({
      type: "files_read",
      paths: results.filter((r) => r.file_hash).map((r) => r.path),
    });
    if (notShown.length === 0) return { results };
    results.push({
      path: notShown[0]!,
      content: "",
      warnings: [
        `not shown: ${notShown.length} more target(s) (${notShown.join(", ")}); this read reached what one result shows (${count(lines)} lines, ${count(bytes)} bytes). Read them in another call, fewer files or fewer lines at a time`,
      ],
    });
    return { results, not_shown: notShown };
  },
});
