import type { HistoryResult } from "../../index.js";
import { formatBytes } from "../../util/format.js";
import { defineCommand } from "../define.js";
import type { Paint } from "../format.js";
import { outputWidth, table, when } from "../history-view.js";
import { io } from "../io.js";

/**
 * One aligned line per version, newest first: its tag (the current one
 * starred), when it was made and by what (tool, session and client), its
 * size, and the backup session that undoes it. A version splice did not
 * write came from outside (git, an editor): it says when splice saw it.
 */
function historyLines(json: HistoryResult, paint: Paint): string[] {
  const rows = json.versions.map((v) => {
    const maker = v.made_by;
    const mark = v.current ? "*" : " ";
    if (maker) {
      const client = maker.client && maker.client !== maker.session ? ` (${maker.client})` : "";
      return [
        mark,
        v.file_hash,
        when(maker.at),
        `${maker.tool ?? v.kind}, ${maker.session}${client}`,
        formatBytes(v.size, "column"),
        maker.backup_session ?? "",
      ];
    }
    const seen = v.replaced
      ? `outside splice (replaced ${when(v.at)})`
      : `outside splice (${v.kind})`;
    return [
      mark,
      v.file_hash,
      v.replaced ? "" : when(v.at),
      seen,
      formatBytes(v.size, "column"),
      "",
    ];
  });
  return table(rows, outputWidth(io().stdout)).map((cells) => {
    const [mark, tag, ...rest] = cells;
    const line = `${mark === "*" ? paint("green", "*") : " "} ${paint("bold", tag!)}  ${rest.join("  ")}`;
    return line.trimEnd();
  });
}

export const history = defineCommand({
  name: "history",
  summary: "list the versions splice knows of a file, and what made each",
  usage: "PATH",
  description: `Lists the versions of PATH that splice has seen or written, newest first, one
aligned line each: the tag (* the current one), when it was made (UTC), what
made it (the tool, the session and its client), its size and the backup
session that undoes it (splice undo ID). A version splice did not write came
from outside (git, an editor). The first line names the project root whose
history it is.`,
  args: [{ name: "PATH", description: "the file whose versions to list", path: true }],
  flags: {},
  examples: ["splice history src/main.ts"],
  async run({ splice, positionals, paint, rootLine }) {
    const [path] = positionals as [string];
    // With a path, history lists that file's versions (without one, the calls to undo).
    const json = (await splice.history({ path })) as HistoryResult;
    const n = json.versions.length;
    const head = `${json.path}: ${n} version${n === 1 ? "" : "s"}; current ${json.current_hash ?? "missing"}`;
    return {
      json,
      human: [paint("dim", rootLine), head, ...historyLines(json, paint)].join("\n"),
    };
  },
});
