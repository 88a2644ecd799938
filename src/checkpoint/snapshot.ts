/**
 * The state of a root at one moment, cheap enough to take around every
 * command: per regular file its stat (meta.ts), walked as
 * `list` walks (.gitignore, heavy folders, the guard), and the bytes of every
 * file up to CAPTURE_MAX_BYTES kept in history as blobs, before the command
 * can change them. Two snapshots diff into what was created, changed, deleted.
 */
import { lstatSync, type Stats } from "node:fs";
import { posix } from "node:path";
import { setImmediate } from "node:timers/promises";
import type { GuardedPath, PathGuard } from "../guard/path-guard.js";
import type { HistoryStore } from "../history/types.js";
import { sha256 } from "../util/hash.js";
import { mapLimit } from "../util/map-limit.js";
import { STATE_FOLDERS } from "../util/state-folder.js";
import { isTempName } from "../workspace/temp.js";
import { ignoredBy, type Layer, loadLayer, screenEntry } from "../workspace/walk.js";
import type { DirEntry, Workspace } from "../workspace/workspace.js";
import { trackedUnchanged } from "./large.js";
import { type FileMeta, isRacy, metaOf, sameMeta } from "./meta.js";
import { keepTable, priorTable, readClock, trustedSha } from "./table.js";

/**
 * Files up to this size are copied into history before a command runs (as
 * the history's own read limits; a blob is stored once per content).
 */
export const CAPTURE_MAX_BYTES = 1024 * 1024;

/**
 * New bytes one snapshot copies into history at most (a quarter of the
 * store's default 512 MiB bound), so a large tree cannot push older history
 * out; files past it are uncaptured, like those over the cap.
 */
export const CAPTURE_MAX_TOTAL = 128 * 1024 * 1024;

/** Folders read or files statted side by side: modest, the machine is shared. */
const PARALLEL = 16;
/** Files statted between two yields to the event loop. */
const STAT_SLICE = 2_000;

export interface Snapshot {
  /** ISO time the walk began: history events from then on happened during the command. */
  at: string;
  /** Root-relative path → its metadata, regular files only. */
  files: Map<string, FileMeta>;
  /** Folders and files not entered: ignored by a .gitignore or a heavy folder (node_modules). */
  unwatched: string[];
  /** Files over CAPTURE_MAX_BYTES (git not holding them), past CAPTURE_MAX_TOTAL or unreadable. */
  uncaptured: Set<string>;
}

export interface SnapshotDeps {
  guard: PathGuard;
  workspace: Workspace;
  history: HistoryStore;
}

/** Always skipped and never worth naming (splice's own store, git's). */
const SILENT = new Set(STATE_FOLDERS);

/**
 * Walks the root; with `capture`, every file up to the cap is kept in history
 * first. `known` is the root's state already known as of now (a root watch's
 * table, checkpoint/outside.ts): its metadata stands in for the walk.
 */
export async function takeSnapshot(
  deps: SnapshotDeps,
  capture: boolean,
  known?: Snapshot,
): Promise<Snapshot> {
  const snapshot = known ?? (await metadataPass(deps));
  if (!capture) return snapshot;
  // This process's last table, else the one an earlier process left (per history:
  // a sha known to one store says nothing of another's blobs).
  const last = priorTable(deps);
  let trusted = 0;
  const toCapture: { rel: string; meta: FileMeta }[] = [];
  let budget = CAPTURE_MAX_TOTAL;
  const large: string[] = [];
  for (const [rel, meta] of snapshot.files) {
    if (meta.size > CAPTURE_MAX_BYTES) {
      snapshot.uncaptured.add(rel);
      // Its bytes go into history once a command changes it: no larger than one checkpoint's copies.
      if (meta.size <= CAPTURE_MAX_TOTAL) large.push(rel);
      continue;
    }
    // Unchanged since the last snapshot: its bytes are in history already.
    const sha = last && trustedSha(deps, last, rel, meta);
    if (sha) {
      meta.sha = sha;
      trusted++;
    } else if (budget < meta.size) snapshot.uncaptured.add(rel);
    else {
      budget -= meta.size;
      toCapture.push({ rel, meta });
    }
  }
  await mapLimit(toCapture, PARALLEL, async ({ rel, meta }) => {
    try {
      const bytes = await deps.workspace.readFile(posix.join(deps.guard.root, rel));
      meta.sha = deps.history.keepBlob(bytes, sha256(bytes));
    } catch {
      snapshot.uncaptured.add(rel);
    }
  });
  // Large files git holds unchanged are restorable from its object store, not copied.
  for (const [rel, id] of await trackedUnchanged(deps.guard.root, large)) {
    snapshot.files.get(rel)!.git = id;
    snapshot.uncaptured.delete(rel);
  }
  // Written again only when it would say something new: a file read, or one gone.
  keepTable(deps, snapshot.files, toCapture.length > 0 || trusted !== (last?.size ?? -1));
  return snapshot;
}

/**
 * What a walk made of one folder, kept for the next walk in this process: while
 * the folder's own stat and the ignore layers above it are the same, so are its
 * entries and their verdicts (an entry added, removed or renamed changes the
 * folder's mtime and ctime), and only its files need statting again.
 */
interface Listing {
  /** The folder's stat key when read; "" (racy, unknown): never reused. */
  stat: string;
  /** The layers it was screened with (compared by identity). */
  layers: Layer[];
  /** Its .gitignore's stat key, when it has one. */
  gitignore?: string;
  /** The layers its subfolders are screened with. */
  inner: Layer[];
  files: { rel: string; abs: string }[];
  folders: { abs: string; rel: string }[];
  unwatched: string[];
}

/** The root's layers: one array, so its listing can be reused too. */
const NO_LAYERS: Layer[] = [];

/** Per guard (its verdicts are part of a listing), folder rel → its listing. */
const listings = new WeakMap<PathGuard, Map<string, Listing>>();

/** A folder's or .gitignore's stat as one string; undefined when gone or racy. */
function lstatKey(abs: string, clock: number | undefined): string | undefined {
  try {
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st || isRacy(st.ctimeMs, clock)) return undefined;
    return `${st.size}\t${st.mtimeMs}\t${st.ctimeMs}\t${st.ino}\t${st.dev}\t${st.mode}`;
  } catch {
    return undefined;
  }
}

/** Per regular file its metadata, walked with `list`'s filters. */
async function metadataPass(deps: SnapshotDeps): Promise<Snapshot> {
  const { guard } = deps;
  const at = new Date().toISOString();
  const clock = readClock(deps); // before any stat: what changes after it is racy
  const snapshot: Snapshot = { at, files: new Map(), unwatched: [], uncaptured: new Set() };
  const last = listings.get(guard);
  const kept = new Map<string, Listing>();
  const files: { rel: string; abs: string }[][] = [];
  let level: Folder[] = [{ abs: guard.root, rel: "", layers: NO_LAYERS }];
  while (level.length > 0) {
    const next: Folder[] = [];
    await mapLimit(level, PARALLEL, async (folder) => {
      // Statted before it is read: a change after the stat shows in the next one.
      const stat = lstatKey(folder.abs, clock);
      const was = last?.get(folder.rel);
      let listing: Listing | undefined;
      if (stat && was?.stat === stat && was.layers === folder.layers) {
        const gitignore = was.gitignore && lstatKey(posix.join(folder.abs, ".gitignore"), clock);
        if (gitignore === was.gitignore) listing = was;
      }
      listing ??= await listFolder(deps, folder, stat ?? "", clock);
      if (!listing) {
        snapshot.unwatched.push(folder.rel || ".");
        return;
      }
      if (listing.stat) kept.set(folder.rel, listing);
      files.push(listing.files);
      for (const rel of listing.unwatched) snapshot.unwatched.push(rel);
      for (const sub of listing.folders) next.push({ ...sub, layers: listing.inner });
    });
    level = next;
  }
  listings.set(guard, kept); // folders gone since are dropped

  // Stats synchronously (4× faster than the async ones here), yielding between slices.
  let statted = 0;
  for (const list of files) {
    for (const { rel, abs } of list) {
      if (++statted % STAT_SLICE === 0) await setImmediate();
      let st: Stats | undefined;
      try {
        st = lstatSync(abs, { throwIfNoEntry: false });
      } catch {
        snapshot.unwatched.push(rel); // unreadable (EACCES): named, not guessed
        continue;
      }
      if (!st?.isFile()) continue; // gone between the listing and the stat, or replaced
      snapshot.files.set(rel, metaOf(st, clock));
    }
  }
  snapshot.unwatched.sort();
  return snapshot;
}

/** Reads and screens one folder; undefined when it cannot be read. */
async function listFolder(
  deps: SnapshotDeps,
  folder: Folder,
  stat: string,
  clock: number | undefined,
): Promise<Listing | undefined> {
  const { guard, workspace } = deps;
  let entries: DirEntry[];
  try {
    entries = await workspace.readDir(folder.abs);
  } catch {
    return undefined;
  }
  const listing: Listing = {
    stat,
    layers: folder.layers,
    inner: folder.layers,
    files: [],
    folders: [],
    unwatched: [],
  };
  if (entries.some((e) => e.name === ".gitignore" && e.kind === "file")) {
    const gitignore = lstatKey(posix.join(folder.abs, ".gitignore"), clock);
    const layer = await loadLayer(workspace, folder.abs, folder.rel);
    if (layer) listing.inner = [...folder.layers, layer];
    // Racy or gone: the listing is not kept, so the next walk reads it again.
    if (gitignore) listing.gitignore = gitignore;
    else listing.stat = "";
  }
  const layers = listing.inner;
  const checked = checkedFolder(guard, folder.abs);
  for (const entry of entries) {
    if (entry.kind === "file" && checked) {
      const file = plainFile(guard, checked, entry.name, layers);
      if (file === "ignored") listing.unwatched.push(posix.join(folder.rel, entry.name));
      else if (file) listing.files.push(file);
      continue;
    }
    const seen = screenEntry(guard, folder, entry, layers, false);
    if (seen.verdict === "skipped" || seen.verdict === "ignored") {
      if (!SILENT.has(entry.name)) listing.unwatched.push(seen.rel);
      continue;
    }
    if (seen.verdict !== "ok") continue;
    if (seen.kind === "directory") listing.folders.push({ abs: seen.abs, rel: seen.rel });
    else if (entry.kind === "file") listing.files.push({ rel: seen.rel, abs: seen.abs });
  }
  return listing;
}

interface Folder {
  abs: string;
  rel: string;
  /** The ignore layers above it (the parent listing's `inner`). */
  layers: Layer[];
}

function checkedFolder(guard: PathGuard, abs: string): GuardedPath | undefined {
  try {
    return guard.check(abs, "read");
  } catch {
    return undefined; // outside a confined session's base: every entry is screened in full
  }
}

/** screenEntry's verdict for a plain file, without resolving its folder again. */
function plainFile(
  guard: PathGuard,
  folder: GuardedPath,
  name: string,
  layers: readonly Layer[],
): { rel: string; abs: string } | "ignored" | undefined {
  if (isTempName(name)) return undefined;
  const rel = folder.rel === "" ? name : `${folder.rel}/${name}`;
  if (ignoredBy(layers, rel, false)) return "ignored";
  try {
    return { rel, abs: guard.checkEntry(folder, name, "read").abs };
  } catch {
    return undefined; // secrets and blocked paths: not looked at, as list does not show them
  }
}

export type ChangeKind = "created" | "changed" | "deleted";

/**
 * What differs between two snapshots, sorted by path. With `racy`, a file
 * whose before stat was racy and whose bytes were kept counts as changed too:
 * the caller compares its bytes (a same-tick rewrite keeps every stat field).
 */
export function diffSnapshots(
  before: Snapshot,
  after: Snapshot,
  racy = false,
): [string, ChangeKind][] {
  const out: [string, ChangeKind][] = [];
  for (const [rel, was] of before.files) {
    const now = after.files.get(rel);
    if (!now) out.push([rel, "deleted"]);
    else if (!sameMeta(was, now) || (racy && was.racy && was.sha)) out.push([rel, "changed"]);
  }
  for (const rel of after.files.keys()) if (!before.files.has(rel)) out.push([rel, "created"]);
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
