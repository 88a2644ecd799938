import { readFileSync } from "node:fs";
import { ToolError } from "../errors.js";
import type { Splice } from "../splice.js";
import type { EditResult } from "../tools/edit/index.js";
import type { HistoryResult } from "../tools/history/index.js";
import type { ReadResult } from "../tools/read/index.js";
import type { RollbackResult } from "../tools/rollback/index.js";
import type { SessionSummary, UndoResult } from "../tools/undo/index.js";
import type { WriteResult } from "../tools/write/index.js";
import { codeCommands } from "./code-commands.js";
import { formatDiff, formatHashline, formatWarnings, type Paint } from "./format.js";
import { lspCommands } from "./lsp-commands.js";
import { planCommands } from "./plan-commands.js";

export interface CommandInput {
  splice: Splice;
  positionals: string[];
  flags: Record<string, string | boolean | undefined>;
  readStdin: () => string;
  paint: Paint;
}

/** A command's JSON result and its human view. */
export interface CommandOutput {
  json: unknown;
  human: string;
}

function usage(message: string): never {
  throw new ToolError("invalid_input", message);
}

function textArg(input: CommandInput, inline: string, file: string): string {
  const { flags } = input;
  if (typeof flags[inline] === "string") return flags[inline] as string;
  if (typeof flags[file] === "string") return readFileSync(flags[file] as string, "utf8");
  return input.readStdin();
}

/** `path:10..20` names a range; a colon followed by anything else is part of the name. */
function splitTarget(arg: string): { path: string; line_range?: string } {
  const m = /^(.*):(\d+(?:(?:\.\.|-|,)\d+)?)$/.exec(arg);
  return m ? { path: m[1]!, line_range: m[2]! } : { path: arg };
}

function changeView(r: { header: string; diff: string; warnings: string[] }, paint: Paint): string {
  const lines = [paint("bold", r.header)];
  if (r.diff) lines.push(formatDiff(r.diff, paint));
  lines.push(...formatWarnings(r.warnings, paint));
  return lines.join("\n");
}

export const commands: Record<string, (input: CommandInput) => Promise<CommandOutput>> = {
  async read(input) {
    if (input.positionals.length === 0)
      usage("read needs at least one PATH: splice read src/main.ts");
    const json = await input.splice.read({ targets: input.positionals.map(splitTarget) });
    const human = json.results
      .map((r: ReadResult) =>
        [
          r.content ? formatHashline(r.content, input.paint) : input.paint("red", `${r.path}:`),
          ...formatWarnings(r.warnings, input.paint),
        ]
          .filter(Boolean)
          .join("\n"),
      )
      .join("\n\n");
    return { json, human };
  },

  async write(input) {
    const [path] = input.positionals;
    if (!path) usage("write needs a PATH: splice write notes.txt --text 'hello'");
    const text = textArg(input, "text", "file");
    const json = await input.splice.write({
      targets: [{ path, text, force: input.flags.force === true }],
    });
    const human = json.results.map((r: WriteResult) => changeView(r, input.paint)).join("\n\n");
    return { json, human };
  },

  async edit(input) {
    const [path] = input.positionals;
    const hash = input.flags.hash;
    if (!path || typeof hash !== "string") {
      usage("edit needs a PATH and --hash TAG: splice edit src/a.ts --hash 1A2B --ops 'delete 3'");
    }
    const ops = textArg(input, "ops", "ops-file");
    const json = await input.splice.edit({ targets: [{ path, file_hash: hash, ops }] });
    const human = json.results.map((r: EditResult) => changeView(r, input.paint)).join("\n\n");
    return { json, human };
  },

  async rollback(input) {
    const [path, hash = ""] = input.positionals;
    if (!path) usage("rollback needs a PATH: splice rollback src/main.ts [TAG]");
    const json: RollbackResult = await input.splice.rollback({ path, hash });
    const note = input.paint(
      "dim",
      `(replaced ${json.replaced_hash ?? "nothing: the file was missing"})`,
    );
    return { json, human: `${changeView(json, input.paint)}\n${note}` };
  },

  async history(input) {
    const [path] = input.positionals;
    if (!path) usage("history needs a PATH: splice history src/main.ts");
    const json: HistoryResult = await input.splice.history({ path });
    const rows = json.versions.map((v) => {
      const mark = v.current ? input.paint("green", "* ") : "  ";
      const what = v.replaced ? `replaced by ${v.note ?? v.kind}` : (v.note ?? v.kind);
      return `${mark}${input.paint("bold", v.file_hash)}  ${v.at}  ${what.padEnd(24)} ${v.size} bytes  ${input.paint("dim", v.session)}`;
    });
    const head = `${json.path}: ${json.versions.length} version(s); current ${json.current_hash ?? "missing"}`;
    return { json, human: [head, ...rows].join("\n") };
  },

  async undo(input) {
    const [id] = input.positionals;
    const { flags, paint } = input;
    if (flags.list) {
      const json = (await input.splice.call("undo", { list: true, all_sessions: true })) as {
        sessions: SessionSummary[];
      };
      const human = json.sessions
        .map((s) => {
          const mark = s.undone
            ? paint("dim", " (undone)")
            : s.is_undo
              ? paint("dim", " (undo)")
              : "";
          const files = s.files.map((f) => {
            const undone = f.undone && !s.undone ? paint("dim", " (undone)") : "";
            return `  ${f.action.padEnd(8)} ${f.path}${undone}\n${formatDiff(f.diff, paint)}`;
          });
          return [
            `${paint("bold", s.backup_session)}  ${s.at}  ${paint("dim", s.session)}${mark}`,
            ...files,
          ].join("\n");
        })
        .join("\n\n");
      return { json, human: human || "No backup sessions yet." };
    }
    const args = {
      all_sessions: true,
      ...(id ? { backup_session: id } : {}),
      ...(typeof flags.path === "string" ? { path: flags.path } : {}),
    };
    const json = (await input.splice.call("undo", args)) as UndoResult;
    const lines = [
      `Undid ${paint("bold", json.undone)}${json.backup_session ? ` (undo it with: splice undo ${json.backup_session})` : ""}`,
    ];
    for (const f of json.files) {
      lines.push(
        `${f.action.padEnd(9)} ${f.path}`,
        ...(f.diff ? [formatDiff(f.diff, paint)] : []),
        ...formatWarnings(f.warnings, paint),
      );
    }
    return { json, human: lines.join("\n") };
  },

  ...lspCommands,
  ...planCommands,
  // Last: its `read` adds --symbol and --line to the plain read above.
  ...codeCommands,
};
