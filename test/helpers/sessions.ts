/** Many real backup sessions in a project's history, fast: for the review page's list at scale. */
import { join } from "node:path";
import { History, type WriteRecord } from "../../src/history/history.js";
import { SyncBarrier } from "../../src/util/durable.js";
import { newBackupId } from "../../src/util/ids.js";

/**
 * `count` one-file backup sessions by `agents` history sessions
 * (`mcp-agent-N`, in turn, a share each), journaled through the history API
 * as the tools would have (the versions stored, one journal line each), in
 * one append per agent; returns their ids, oldest first. Even
 * agents' changes name their tool (edit), odd agents' (edits and writes)
 * are as splice wrote them before it recorded the tool, so only their note
 * says it.
 */
export function journalSessions(root: string, count: number, agents: number): string[] {
  const history = History.open({ dir: join(root, ".splice"), root, session: "seed", fsync: false });
  const ids: string[] = [];
  const seen = new Set<string>();
  const per = count / agents;
  for (let agent = 0; agent < agents; agent++) {
    const records: WriteRecord[] = [];
    const upTo = Math.min(count, Math.round((agent + 1) * per));
    for (let i = ids.length; i < upTo; i++) {
      // Ids are random within a second: 10,000 made in a few seconds may meet; each must be new.
      let id = newBackupId();
      while (seen.has(id)) id = newBackupId();
      seen.add(id);
      ids.push(id);
      const v = i % 500;
      const text = (n: number) => new TextEncoder().encode(`export const v = ${n};\n`);
      records.push({
        kind: "write",
        path: `src/m${i % 100}.ts`,
        before: { bytes: text(v), tag: `B${v}` },
        after: { bytes: text(v + 1), tag: `A${v}` },
        backup: id,
        note: agent % 2 === 0 || i % 3 ? "edit" : "write",
      });
    }
    const barrier = new SyncBarrier();
    const own = history.forSession(`mcp-agent-${agent}`);
    (agent % 2 ? own : own.forTool("edit")).recordWrites(records, barrier);
    barrier.flushSync();
  }
  return ids;
}
