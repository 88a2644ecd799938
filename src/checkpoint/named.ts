/**
 * Named checkpoints of a root (the checkpoint tool): `create` notes every
 * file and keeps the bytes a run's checkpoint keeps, stored in history under
 * a name; `diff` compares the root now against it, whatever changed it;
 * what restoring needs of each file is worked out here, written by the tool
 * through undo's restore path.
 */
import { join } from "node:path";
import { ToolError } from "../errors.js";
import type { CheckpointFile, StoredCheckpoint } from "../history/types.js";
import { sha256 } from "../util/hash.js";
import { gitBlobId, readGitBlob } from "./large.js";
import type { FileMeta } from "./meta.js";
import { countSmall, type NotRestorable, uncapturedReason } from "./record.js";
import { type ChangeKind, type SnapshotDeps, takeSnapshot } from "./snapshot.js";

export interface CheckpointSummary {
  name: string;
  at: string;
  files: number;
  /** Files noted with no copy of their bytes: a change to them cannot be restored. */
  uncaptured: string[];
  unwatched: string[];
}

const missing = (name: string) =>
  new ToolError(
    "not_found",
    `There is no checkpoint "${name}".`,
    { name },
    {
      tool: "checkpoint",
      args: { action: "list" },
      say: (v) =>
        `${v.call("checkpoint", { action: "list" })} to see the checkpoints kept. ${v.call("checkpoint", { action: "create", name })} to take one by that name.`,
    },
  );

/** Takes a checkpoint of the root and keeps it in history as `name`, replacing one of that name. */
export async function createCheckpoint(
  deps: SnapshotDeps,
  name: string,
): Promise<CheckpointSummary> {
  const snapshot = await takeSnapshot(deps, true);
  const files: Record<string, CheckpointFile> = {};
  for (const [rel, meta] of snapshot.files) {
    // A sha remembered from an earlier snapshot may name a blob collected since.
    if (meta.sha && !deps.history.hasBlob(meta.sha)) await recapture(deps, rel, meta, snapshot);
    files[rel] = stored(meta);
  }
  const checkpoint: StoredCheckpoint = {
    name,
    at: new Date().toISOString(),
    session: deps.history.session,
    files,
    uncaptured: [...snapshot.uncaptured].sort(),
    unwatched: snapshot.unwatched,
  };
  deps.history.saveCheckpoint(checkpoint);
  return {
    name,
    at: checkpoint.at,
    files: snapshot.files.size,
    uncaptured: checkpoint.uncaptured,
    unwatched: checkpoint.unwatched,
  };
}

async function recapture(
  deps: SnapshotDeps,
  rel: string,
  meta: FileMeta,
  snapshot: { uncaptured: Set<string> },
): Promise<void> {
  try {
    const bytes = await deps.workspace.readFile(join(deps.guard.root, rel));
    meta.sha = deps.history.keepBlob(bytes, sha256(bytes));
  } catch {
    delete meta.sha;
    snapshot.uncaptured.add(rel);
  }
}

function stored(meta: FileMeta): CheckpointFile {
  const file: CheckpointFile = {
    size: meta.size,
    mtime_ms: meta.mtimeMs,
    // A racy stat proves nothing (a same-tick rewrite keeps it): 0 never matches, so its bytes are compared.
    ctime_ms: meta.racy ? 0 : meta.ctimeMs,
    ino: String(meta.ino),
    mode: meta.mode,
  };
  if (meta.sha) file.sha = meta.sha;
  if (meta.git) file.git = meta.git;
  return file;
}

/** One file that differs from the checkpoint. */
export interface CheckpointChange {
  path: string;
  kind: ChangeKind;
  added: number;
  removed: number;
  /** Only the permission bits differ. */
  mode_only?: boolean;
  /** What the checkpoint holds of it (absent for a created file). */
  was?: CheckpointFile;
  /** The bytes it had, when the checkpoint kept them (history or git). */
  before?: Uint8Array;
  /** The SHA-256 of what is there now; absent for a deleted file. */
  now?: string;
}

export interface CheckpointDiff {
  checkpoint: StoredCheckpoint;
  changes: CheckpointChange[];
  not_restorable: NotRestorable[];
}

/** Reading the current bytes of larger files to compare them: up to this size. */
const COMPARE_MAX_BYTES = 256 * 1024 * 1024;

/** What differs between checkpoint `name` and the root now, sorted by path. */
export async function diffCheckpoint(deps: SnapshotDeps, name: string): Promise<CheckpointDiff> {
  const checkpoint = deps.history.checkpoint(name);
  if (!checkpoint) throw missing(name);
  const now = await takeSnapshot(deps, false);
  const changes: CheckpointChange[] = [];
  const refused: NotRestorable[] = [];
  const uncaptured = new Set(checkpoint.uncaptured);
  const read = async (rel: string, size: number) => {
    if (size > COMPARE_MAX_BYTES) return undefined;
    try {
      return await deps.workspace.readFile(join(deps.guard.root, rel));
    } catch {
      return undefined;
    }
  };
  const paths = new Set([...Object.keys(checkpoint.files), ...now.files.keys()]);
  for (const rel of [...paths].sort()) {
    const was = checkpoint.files[rel];
    const meta = now.files.get(rel);
    if (was && meta && sameAsStored(was, meta)) continue;
    const bytes = meta ? await read(rel, meta.size) : undefined;
    let before: Uint8Array | undefined;
    if (was?.sha) before = deps.history.getBlob(was.sha);
    else if (was?.git) before = await readGitBlob(deps.guard.root, was.git);
    const kind: ChangeKind = !was ? "created" : !meta ? "deleted" : "changed";
    if (was && meta && bytes && sameBytes(was, bytes)) {
      if (was.mode === meta.mode) continue; // touched only
      changes.push({
        path: rel,
        kind,
        added: 0,
        removed: 0,
        mode_only: true,
        was,
        now: sha256(bytes),
        // The bytes are the checkpoint's (their hash matched): only the mode goes back.
        before: before ?? bytes,
      });
      continue;
    }
    const lines =
      (was && !before) || (meta && !bytes) ? { added: 0, removed: 0 } : countSmall(before, bytes);
    const change: CheckpointChange = { path: rel, kind, ...lines };
    if (was) change.was = was;
    if (before) change.before = before;
    if (bytes) change.now = sha256(bytes);
    changes.push(change);
    if (was && !before) {
      refused.push({
        path: rel,
        reason: uncaptured.has(rel)
          ? uncapturedReason(deps.history.dir)
          : was.git
            ? "git no longer holds the blob the checkpoint named"
            : "its copy is no longer in history",
      });
    } else if (meta && !bytes) {
      refused.push({ path: rel, reason: "it cannot be read now (too large or unreadable)" });
    }
  }
  return { checkpoint, changes, not_restorable: refused };
}

const sameAsStored = (was: CheckpointFile, now: FileMeta) =>
  was.size === now.size &&
  was.mtime_ms === now.mtimeMs &&
  was.ctime_ms === now.ctimeMs &&
  was.ino === String(now.ino) &&
  was.mode === now.mode;

function sameBytes(was: CheckpointFile, bytes: Uint8Array): boolean {
  if (was.size !== bytes.length) return false;
  if (was.sha) return was.sha === sha256(bytes);
  if (was.git) return was.git === gitBlobId(bytes);
  return false;
}
