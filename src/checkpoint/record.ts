/**
 * What a command did to the root, kept as one backup session: the before
 * version of every file it changed or deleted (captured by the snapshot
 * before it ran) and every file it created, so undo puts the changed back
 * and removes the created, with its usual conflict rules.
 */

import { join } from "node:path";
import type { WriteRecord } from "../history/types.js";
import { changeHunks } from "../text/diff.js";
import { decodeText } from "../text/document.js";
import { SyncBarrier } from "../util/durable.js";
import { formatBytes } from "../util/format.js";
import { identify, sha256 } from "../util/hash.js";
import { readGitBlob, reflinksWork } from "./large.js";
import {
  CAPTURE_MAX_BYTES,
  CAPTURE_MAX_TOTAL,
  type ChangeKind,
  diffSnapshots,
  type Snapshot,
  type SnapshotDeps,
} from "./snapshot.js";

/** Changed files listed in a result at most; the rest are counted. */
export const LISTED_MAX = 50;

export interface ChangedFile {
  path: string;
  kind: ChangeKind;
  /** Lines added and removed; 0 and 0 for a binary file or one whose content was not kept. */
  added: number;
  removed: number;
}

export interface NotRestorable {
  path: string;
  reason: string;
}

export interface CheckpointReport {
  changed_files: ChangedFile[];
  /** Every changed file by kind, listed or not. */
  changed_counts: Record<ChangeKind, number>;
  /** Changed files past LISTED_MAX, not listed. */
  changed_files_more?: number;
  /** The backup session undo takes, when anything restorable changed. */
  backup_session?: string;
  not_restorable?: NotRestorable[];
  not_restorable_more?: number;
  /** Ignored and heavy folders the checkpoint did not look into. */
  unwatched?: string[];
  unwatched_more?: number;
}

function lines(bytes: Uint8Array): string[] | undefined {
  const text = decodeText(bytes);
  if (typeof text !== "string") return undefined;
  // "a\nb\n" is two lines, as wc -l and a diff count them.
  const out = text.split("\n");
  if (out.at(-1) === "") out.pop();
  return out;
}

/** Lines added and removed from `before` to `after` (absent: no file); 0 and 0 for a binary. */
export function countLines(before: Uint8Array | undefined, after: Uint8Array | undefined) {
  const a = before ? lines(before) : [];
  const b = after ? lines(after) : [];
  if (!a || !b) return { added: 0, removed: 0 };
  if (!before) return { added: b.length, removed: 0 };
  if (!after) return { added: 0, removed: a.length };
  let added = 0;
  let removed = 0;
  for (const h of changeHunks(a, b)) {
    added += h.lines.length;
    removed += h.end - h.start;
  }
  return { added, removed };
}

/** countLines of files up to the copy limit; a larger one counts 0 and 0 (diffing it is slow). */
export function countSmall(before: Uint8Array | undefined, after: Uint8Array | undefined) {
  const large =
    (before?.length ?? 0) > CAPTURE_MAX_BYTES || (after?.length ?? 0) > CAPTURE_MAX_BYTES;
  return large ? { added: 0, removed: 0 } : countLines(before, after);
}

/** Why a file the snapshot noted without its bytes cannot be restored; `dir` is the history's. */
export function uncapturedReason(dir: string): string {
  const clones = reflinksWork(dir)
    ? "copy-on-write clones are not used yet"
    : "this file system makes no copy-on-write clones";
  return `no copy was kept before: it was over ${formatBytes(CAPTURE_MAX_BYTES, "limit")} and not tracked unchanged by git (or over ${formatBytes(CAPTURE_MAX_TOTAL, "limit")}; ${clones}), past the ${formatBytes(CAPTURE_MAX_TOTAL, "limit")} one checkpoint copies, or unreadable`;
}

const RACED =
  "a splice write changed it while the command ran and it still holds that write: undo that write's own backup session instead";

/** The newest version splice wrote to `rel` at or after `since`, if any. */
function writtenDuring(history: SnapshotDeps["history"], rel: string, since: string) {
  return history.versions(rel).find((v) => v.kind !== "read" && v.at >= since);
}

/** The first LISTED_MAX of `items`, and how many more there are. */
export const capped = <T>(items: T[]) =>
  items.length > LISTED_MAX
    ? { list: items.slice(0, LISTED_MAX), more: items.length - LISTED_MAX }
    : { list: items, more: 0 };

/** The file as the command left it; a large one is read only when its before version is known, to record it. */
async function readNow(
  { workspace, guard }: SnapshotDeps,
  after: Snapshot,
  rel: string,
  old: Uint8Array | undefined,
): Promise<Uint8Array | undefined> {
  if (after.files.get(rel)!.size > CAPTURE_MAX_BYTES && !old) return undefined;
  try {
    return await workspace.readFile(join(guard.root, rel));
  } catch {
    return undefined; // gone again since the second pass: counted as not restorable
  }
}

/** Why undo could not restore a change the command made, when it could not. */
function unrestorable(
  { history }: SnapshotDeps,
  before: Snapshot,
  rel: string,
  kind: ChangedFile["kind"],
  old: Uint8Array | undefined,
  now: Uint8Array | undefined,
): string | undefined {
  if (kind !== "created" && !old) {
    if (before.uncaptured.has(rel)) return uncapturedReason(history.dir);
    return before.files.get(rel)?.git
      ? "git no longer holds the blob of its version before the command"
      : "its copy was trimmed from history while the command ran";
  }
  if (kind !== "deleted" && !now) {
    return `it is over ${formatBytes(CAPTURE_MAX_BYTES, "limit")} (or unreadable), so undo cannot check it is unchanged`;
  }
  return undefined;
}

/**
 * A file splice wrote while the command ran, holding what splice wrote last:
 * what that write replaced, if not the version before the command, is what
 * the command made of it first. No record when that is not known.
 */
function racedChange(
  history: SnapshotDeps["history"],
  { path, kind, note }: { path: string; kind: ChangedFile["kind"]; note: string },
  was: { sha?: string; mode?: number } | undefined,
  racedSha: string,
  now: Uint8Array,
): { listed: ChangedFile; record?: WriteRecord } {
  const first = was?.sha ? history.getBlob(was.sha) : undefined;
  const replaced = history.versionBefore(path, racedSha);
  const mid = replaced && replaced.sha !== was?.sha ? history.getBlob(replaced.sha) : undefined;
  if (!first || !mid) return { listed: { path, kind, ...countSmall(first, now) } };
  return {
    listed: { path, kind, ...countSmall(first, mid) },
    record: {
      kind: "write",
      path,
      note,
      before: { bytes: first, ...identify(first), mode: was!.mode },
      after: { bytes: mid, ...identify(mid) },
    },
  };
}

/** The report's list of changed files, capped, and their counts by kind. */
function changeReport(listed: ChangedFile[]): CheckpointReport {
  const counts = { created: 0, changed: 0, deleted: 0 };
  for (const f of listed) counts[f.kind]++;
  const shown = capped(listed);
  const report: CheckpointReport = { changed_files: shown.list, changed_counts: counts };
  if (shown.more > 0) report.changed_files_more = shown.more;
  return report;
}

/**
 * Diffs `before` against the root as it is now and records the before
 * versions in backup session `backup`; undefined when nothing changed.
 */
export async function recordCommand(
  deps: SnapshotDeps,
  before: Snapshot,
  after: Snapshot,
  backup: () => string,
  note: string,
): Promise<CheckpointReport | undefined> {
  const { history, guard } = deps;
  const changes = diffSnapshots(before, after, true);
  const unwatched = capped(after.unwatched);
  if (changes.length === 0) return undefined;
  const records: WriteRecord[] = [];
  const listed: ChangedFile[] = [];
  const refused: NotRestorable[] = [];
  for (const [rel, kind] of changes) {
    const was = before.files.get(rel);
    // A splice write during the command (an edit racing it) made the version the command replaced.
    const raced = writtenDuring(history, rel, before.at);
    const old = raced
      ? history.getBlob(raced.sha)
      : was?.sha
        ? history.getBlob(was.sha)
        : was?.git
          ? await readGitBlob(guard.root, was.git)
          : undefined;
    const now = kind === "deleted" ? undefined : await readNow(deps, after, rel, old);
    if (raced && now && raced.sha === sha256(now)) {
      const change = racedChange(history, { path: rel, kind, note }, was, raced.sha, now);
      listed.push(change.listed);
      if (change.record) records.push(change.record);
      else refused.push({ path: rel, reason: RACED });
      continue;
    }
    if (old && now && old.length === now.length && Buffer.from(old).equals(now)) {
      // Same bytes: touched (nothing to undo), or only its mode changed (undo puts it back).
      if (!was || was.mode === after.files.get(rel)!.mode) continue;
      listed.push({ path: rel, kind, added: 0, removed: 0 });
    } else listed.push({ path: rel, kind, ...countSmall(old, now) });
    const why = unrestorable(deps, before, rel, kind, old, now);
    if (why) {
      refused.push({ path: rel, reason: why });
      continue;
    }
    const record: WriteRecord = { kind: kind === "deleted" ? "delete" : "write", path: rel, note };
    if (old) record.before = { bytes: old, ...identify(old), ...(was ? { mode: was.mode } : {}) };
    if (now) record.after = { bytes: now, ...identify(now) };
    records.push(record);
  }

  if (listed.length === 0) return undefined;
  const report = changeReport(listed);
  if (records.length > 0) {
    const id = backup();
    const barrier = new SyncBarrier();
    history.recordWrites(
      records.map((r) => ({ ...r, backup: id })),
      barrier,
    );
    barrier.flushSync();
    report.backup_session = id;
  }
  const notRestorable = capped(refused);
  if (notRestorable.list.length > 0) report.not_restorable = notRestorable.list;
  if (notRestorable.more > 0) report.not_restorable_more = notRestorable.more;
  if (unwatched.list.length > 0) report.unwatched = unwatched.list;
  if (unwatched.more > 0) report.unwatched_more = unwatched.more;
  return report;
}
