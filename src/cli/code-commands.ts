/**
 * The syntax commands: `read --symbol/--line`, `outline`, `ast`, `rename`.
 * Rewrites preview by default and write only with --apply. Long runs draw a
 * progress bar on stderr when it is a terminal.
 */

import { onCodeProgress, type Progress } from "../codebase/files.js";
import type { CodeEditResult } from "../codebase/rewrite.js";
import { ToolError } from "../errors.js";
import type { Splice } from "../splice.js";
import type { OutlineResult } from "../tools/outline/index.js";
import type { ReadResult } from "../tools/read/index.js";
import type { CommandInput, CommandOutput } from "./commands.js";
import { formatDiff, formatHashline, formatWarnings, type Paint } from "./format.js";

/** Below this many files a run is quick enough to need no bar. */
const PROGRESS_MIN_FILES = 50;
const BAR_WIDTH = 30;

function usage(message: string): never {
  throw new ToolError("invalid_input", message);
}

function flag(input: CommandInput, name: string): string | undefined {
  const value = input.flags[name];
  return typeof value === "string" ? value : undefined;
}

function positiveInt(input: CommandInput, name: string): number | undefined {
  const raw = flag(input, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    usage(`--${name} needs a whole number of at least 1, not "${raw}".`);
  return n;
}

/** Draws `phase [#####.....] 120/4000` on stderr while `fn` runs, if stderr is a terminal. */
async function withProgress<T>(splice: Splice, fn: () => Promise<T>): Promise<T> {
  const stream = process.stderr;
  if (!stream.isTTY) return fn();
  let last = 0;
  let drawn = false;
  const draw = (p: Progress) => {
    if (p.total < PROGRESS_MIN_FILES) return;
    const now = Date.now();
    if (now - last < 80 && p.done < p.total) return;
    last = now;
    const filled = Math.round((p.done / p.total) * BAR_WIDTH);
    const bar = `${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}`;
    stream.write(`\r${p.phase} [${bar}] ${p.done}/${p.total} files\u001b[K`);
    drawn = true;
  };
  onCodeProgress(splice.context, draw);
  try {
    return await fn();
  } finally {
    onCodeProgress(splice.context, undefined);
    if (drawn) stream.write("\r\u001b[K");
  }
}

function readView(results: ReadResult[], paint: Paint): string {
  return results
    .map((r) =>
      [
        r.content ? formatHashline(r.content, paint) : paint("red", `${r.path}:`),
        ...formatWarnings(r.warnings, paint),
      ]
        .filter(Boolean)
        .join("\n"),
    )
    .join("\n\n");
}

/** `path:10..20` names a range; a colon followed by anything else is part of the name. */
function splitTarget(arg: string): { path: string; line_range?: string } {
  const m = /^(.*):(\d+(?:(?:\.\.|-|,)\d+)?)$/.exec(arg);
  return m ? { path: m[1]!, line_range: m[2]! } : { path: arg };
}

function editView(r: CodeEditResult, paint: Paint): string {
  const lines: string[] = [];
  for (const f of r.files) {
    if (!f.diff && f.warnings.length === 0) continue;
    lines.push(paint("bold", f.header ?? f.path));
    if (f.diff) lines.push(formatDiff(f.diff, paint));
    lines.push(...formatWarnings(f.warnings, paint));
  }
  lines.push(...formatWarnings(r.warnings, paint));
  const head = r.content.split("\n", 1)[0]!;
  const hint = r.mode === "apply" || r.files_changed === 0 ? "" : " (add --apply to write)";
  lines.push(
    paint(
      r.files_changed > 0 ? "green" : "dim",
      `${head.replace(/ Run again with mode "apply" to write\.$/, "")}${hint}`,
    ),
  );
  return lines.join("\n");
}

function rewriteArgs(input: CommandInput) {
  const lang = flag(input, "lang");
  const maxFiles = positiveInt(input, "max-files");
  return {
    mode: input.flags.apply === true ? ("apply" as const) : ("preview" as const),
    ...(lang ? { lang } : {}),
    ...(maxFiles ? { max_files: maxFiles } : {}),
  };
}

export const codeCommands: Record<string, (input: CommandInput) => Promise<CommandOutput>> = {
  async read(input) {
    const symbol = flag(input, "symbol");
    const lineFlag = flag(input, "line");
    if (input.positionals.length === 0) {
      usage("read needs at least one PATH: splice read src/main.ts [--symbol NAME | --line N]");
    }
    let line: number | undefined;
    if (lineFlag !== undefined) {
      line = Number(lineFlag);
      if (!Number.isInteger(line) || line < 1)
        usage(`--line needs a line number, not "${lineFlag}".`);
    }
    const targets = input.positionals.map((p) => {
      if (symbol !== undefined) return { path: p, symbol };
      const t = splitTarget(p);
      return line !== undefined && t.line_range === undefined ? { path: t.path, line } : t;
    });
    const json = await withProgress(input.splice, () => input.splice.read({ targets }));
    return { json, human: readView(json.results, input.paint) };
  },

  async outline(input) {
    const [path] = input.positionals;
    if (!path) usage("outline needs a PATH: splice outline src/parser.ts");
    const lang = flag(input, "lang");
    const maxFiles = positiveInt(input, "max-files");
    const json = (await withProgress(input.splice, () =>
      input.splice.call("outline", {
        path,
        ...(lang ? { lang } : {}),
        ...(maxFiles ? { max_files: maxFiles } : {}),
      }),
    )) as OutlineResult;
    const human = [
      formatHashline(json.content, input.paint).replaceAll("\n¶", "\n\n¶"),
      ...formatWarnings(json.warnings, input.paint),
    ].join("\n");
    return { json, human };
  },

  async ast(input) {
    const [pattern, ...paths] = input.positionals;
    const rewrite = flag(input, "rewrite");
    if (!pattern || rewrite === undefined || paths.length === 0) {
      usage(
        "ast needs a PATTERN, --rewrite OUT and PATHS: splice ast 'console.log($$$A)' --rewrite 'logger.info($$$A)' src [--apply]",
      );
    }
    const json = (await withProgress(input.splice, () =>
      input.splice.call("ast_edit", {
        ops: [{ pat: pattern, out: rewrite }],
        paths,
        ...rewriteArgs(input),
      }),
    )) as CodeEditResult;
    return { json, human: editView(json, input.paint) };
  },

  async rename(input) {
    const [name, newName, ...paths] = input.positionals;
    if (!name || !newName || paths.length === 0) {
      usage("rename needs OLD, NEW and PATHS: splice rename parseConfig loadConfig src [--apply]");
    }
    const json = (await withProgress(input.splice, () =>
      input.splice.call("ast_rename", {
        name,
        new_name: newName,
        paths,
        ...rewriteArgs(input),
      }),
    )) as CodeEditResult;
    return { json, human: editView(json, input.paint) };
  },
};
