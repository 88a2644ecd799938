import { z } from "zod";
import { listSessions } from "../../change/backup-list.js";
import type { SessionList } from "../../change/backup-summary.js";
import { loadReplaced } from "../../change/load.js";
import type { VersionMaker } from "../../history/history.js";
import { defineTool, manual, READS } from "../define.js";
import type { HistoryResult, VersionMaker as MadeBy } from "./result.js";

export type { HistoryResult, VersionEntry } from "./result.js";

const input = z.strictObject({
  path: z.string().optional().describe("Omit to list calls you can undo."),
  before: z.string().optional().describe("A list's next."),
  all_sessions: z.boolean().optional().describe("Also other agents' changes."),
});

export const historyTool = defineTool({
  name: "history",
  description: `List a file's versions, newest first, with tags for rollback; without path, the calls you can undo.
Example: {"path": "src/a.ts"}`,
  manual: manual("history/history.md"),
  example: { path: "src/main.ts" },
  input,
  annotations: READS,
  kind: "read",
  needsApproval: false,
  footprint: (args) => ({ reads: args.path === undefined ? [] : [args.path], writes: [] }),
  summarize: (args) => ({
    subject: args.path ?? "",
    summary: args.path === undefined ? "list the calls that can be undone" : `history ${args.path}`,
  }),
  async call(context, args): Promise<HistoryResult | SessionList> {
    // Read-only, so a client that asks before every call that may write lists without asking.
    if (args.path === undefined) return listSessions(context, args, { tool: "history", args: {} });
    const file = context.guard.check(args.path, "read");
    // Whatever the file holds now, text or not, has a tag to compare with.
    const stat = await context.workspace.stat(file.real);
    const current = stat?.kind === "file" ? await loadReplaced(context, file) : undefined;
    const versions = context.history.versions(file.rel).map((v) => ({
      file_hash: v.tag,
      at: v.at,
      kind: v.kind,
      replaced: v.replaced,
      session: v.session,
      size: v.size,
      ...(v.note ? { note: v.note } : {}),
      current: v.sha === current?.sha,
      ...(v.made ? { made_by: madeBy(v.made) } : {}),
    }));
    return { path: file.display, current_hash: current?.tag ?? null, versions };
  },
});

function madeBy(m: VersionMaker): MadeBy {
  const { backup, ...rest } = m;
  return { ...rest, ...(backup !== undefined ? { backup_session: backup } : {}) };
}
