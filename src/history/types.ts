/**
 * The public shapes of the history store. Other modules are written against
 * these names: change them only together with their callers.
 */

import type { SyncBarrier } from "../util/durable.js";
import type { BatchIntent } from "./batches.js";
import type { StoredCheckpoint } from "./checkpoints.js";

export type { CheckpointFile, StoredCheckpoint } from "./checkpoints.js";

export interface HistoryOptions {
  /** The history directory, normally `<root>/.splice`. Created when missing. */
  dir: string;
  /**
   * The project root (a real path). When `dir` is inside it, every call on
   * the store resolves beneath it at the moment of the call, so a `.splice`
   * or `.splice/blobs` swapped for a link out of the root is refused; without
   * it, or with `dir` elsewhere, the calls stay beneath `dir` itself.
   */
  root?: string;
  /** The session name every event of this handle carries, e.g. "cli" or "mcp-<uuid>". */
  session: string;
  /** Bound on the blob store in bytes; default 512 MiB. */
  maxBytes?: number;
  /** Bound on the journal in events; default 100_000. */
  maxEntries?: number;
  /**
   * fsync blobs and journal lines before a write goes ahead, so they survive
   * a power loss too (default true). Without it they still survive the
   * process being killed at any moment.
   */
  fsync?: boolean;
  /**
   * With fsync: make versions durable off the hot path (durable.ts,
   * "relaxed"): a version read is synced in the background, bounded, and a
   * write's new version after it, so the write that later replaces them has
   * nothing left to wait for (default false: "full", every sync before the write).
   */
  relaxed?: boolean;
  /**
   * Where the process's spare inodes are made ahead (workspace/spares.ts,
   * the workspace's `sparesDir`): a new blob is then staged in one, not in
   * an inode made on the hot path. Default: none.
   */
  sparesDir?: string;
  /**
   * Journals above this many bytes are read a path at a time when an earlier
   * process left their totals (default 4 MiB); see journal-prefix.ts.
   */
  lazyAbove?: number;
}

export interface VersionRef {
  sha: string;
  tag: string;
  size: number;
  /** Permission bits of the file at that version, when the writer knew them (a replaced file's). */
  mode?: number;
}

export type EventKind = "read" | "write" | "rollback" | "delete";

export interface JournalEvent {
  kind: EventKind;
  /** Root-relative, "/" separators, stored exactly as given. */
  path: string;
  session: string;
  /** ISO time. Ordering never relies on it: the journal's line order is the truth. */
  at: string;
  /** The version read, or written ("after"); absent after a delete. */
  sha?: string;
  tag?: string;
  size?: number;
  /** For write/rollback/delete: the version replaced (absent when the file was new). */
  before?: VersionRef;
  /** For a read: the lines shown (1-based inclusive); absent = whole file. */
  range?: [number, number];
  /** Backup session id, when the write belonged to one. */
  backup?: string;
  /** Free text, e.g. "edit", "write", "rollback to 1A2B". */
  note?: string;
  /**
   * The change was journaled before the file was replaced and is a change
   * only once its completion mark follows (History.landed).
   */
  pending?: boolean;
  /** The program behind the session, when it said (an MCP client's `clientInfo.name`). */
  client?: string;
  /** The tool whose call made the change (`edit`, `undo`, …); absent in records older than it. */
  tool?: string;
}

/** The change that wrote a version: when, by which tool, session and program, undone by which backup session. */
export interface VersionMaker {
  at: string;
  session: string;
  tool?: string;
  client?: string;
  backup?: string;
}

export interface VersionInfo {
  sha: string;
  tag: string;
  size: number;
  at: string;
  kind: EventKind;
  session: string;
  /** The newest landed write or rollback that left the file at this version; absent for one splice only saw. */
  made?: VersionMaker;
  /** True when this version's newest event is the one that replaced it. */
  replaced: boolean;
  note?: string;
}

export interface WriteRecord {
  kind: "write" | "rollback" | "delete";
  path: string;
  /** `sha`, when given, must be the SHA-256 of `bytes` (it saves hashing them again). */
  /** `mode`: the replaced file's permission bits, so undo can bring back a deleted file as it was. */
  before?: { bytes: Uint8Array; tag: string; sha?: string; mode?: number };
  after?: { bytes: Uint8Array; tag: string; sha?: string };
  backup?: string;
  note?: string;
  /** The caller marks the change landed (History.landed) once the file is replaced. */
  pending?: boolean;
}

export interface LastRead {
  sha: string;
  tag: string;
  range?: [number, number];
  at: string;
}

export interface HistoryStats {
  blobs: number;
  bytes: number;
  events: number;
}

export interface CollectResult {
  removedBlobs: number;
  freedBytes: number;
}

/**
 * What a history answers without recording anything: the reads tools and the
 * change pipeline make. A dry run builds on one of these, so it cannot write.
 */
export interface HistoryReader {
  /** Where the store lives; errors on paths inside it are told as history failures. */
  readonly dir: string;
  /** The session this handle reads as and records for. */
  readonly session: string;
  /** Set when no history can be kept: reads are not journaled and writes are refused with it. */
  readonly unavailable?: { message: string } | undefined;
  /** Set while reads cannot be journaled (the folder broke after it opened): they are known in memory only. */
  readonly unkept?: { message: string; details?: Record<string, unknown> } | undefined;
  getBlob(sha: string): Uint8Array | undefined;
  /** Whether the store holds the blob, without reading it. */
  hasBlob(sha: string): boolean;
  /** The named checkpoint, if it is kept (see checkpoints.ts). */
  checkpoint(name: string): StoredCheckpoint | undefined;
  /** Every checkpoint kept, newest first. */
  checkpoints(): StoredCheckpoint[];
  hasSeen(path: string, sha: string): boolean;
  /** The shas this session saw `path` at with `tag`, newest first. */
  seenShasForTag(path: string, tag: string): string[];
  /** The version of `path` this session read or wrote most recently. */
  lastSeen(path: string): { sha: string; tag: string } | undefined;
  lastRead(path: string): LastRead | undefined;
  /** Every distinct version of `path` any session recorded, newest first. */
  versions(path: string): VersionInfo[];
  findByTag(path: string, tag: string): VersionInfo[];
  /** The sha the newest event leaves `path` at; undefined after a delete or when unknown. */
  latestKnown(path: string): string | undefined;
  /** Whether `path` holding `sha` is splice's own doing: its newest write's version, or the one a write under way replaces. */
  isOwnVersion(path: string, sha: string): boolean;
  versionBefore(path: string, sha: string): VersionRef | undefined;
  /** Backup sessions of every session, newest first. */
  backups(): BackupSession[];
  /** What changes when a backup session appears (a cheap look, for a page watching history). */
  backupMark(): BackupMark;
}

/**
 * The history as tools and the change pipeline use it (`ToolContext.history`):
 * its reads and the two calls that record. Bounding the store, its stats and
 * other sessions' views are not part of it: no tool needs them.
 */
export interface HistoryStore extends HistoryReader {
  /** Record what a read showed; returns the version it names. */
  recordRead(
    path: string,
    bytes: Uint8Array,
    tag: string,
    range?: [number, number],
    knownSha?: string,
  ): VersionRef;
  /**
   * Record a write, rollback or delete before the file is replaced; with a
   * `barrier`, what must be durable joins it and is synced when it is flushed.
   */
  recordWrite(
    e: WriteRecord,
    barrier?: SyncBarrier,
  ): { before?: VersionRef; after?: VersionRef; id?: string };
  /** Marks a `pending` change (by the id recordWrite returned) as landed: its file was replaced. */
  landed(id: string): void;
  /**
   * recordWrite for every change of a batch as one transaction: the blobs
   * side by side, one journal append, and what must be durable in `barrier`.
   */
  recordWrites(
    records: readonly WriteRecord[],
    barrier: SyncBarrier,
    /** A batch id: the batch's intent goes in the same append (batches.ts). */
    batch?: string,
  ): { id?: string }[];
  /**
   * Names the program behind this session (an MCP client's `clientInfo.name`):
   * the session's changes from now on carry it, so people see who made them.
   */
  nameClient(name: string): void;
  /**
   * This session's history as one tool's calls record it: every change
   * journaled through the view names `tool` (the toolkit gives each call one).
   */
  forTool(tool: string): HistoryStore;
  /**
   * Another session's view of the same store (the root watch keeps outside
   * versions under a session of their own); absent where a store holds one
   * session only (a dry run's).
   */
  forSession?(session: string): HistoryStore;
  /** landed for every id of a batch, in one journal append; `done` marks the batch `done` ended. */
  landedAll(ids: readonly string[], done?: string): void;
  /**
   * The batches a process began and never ended (it stopped between two
   * renames), to finish at the next open; absent where nothing is journaled.
   */
  interruptedBatches?(): BatchIntent[];
  /**
   * Keeps bytes as a blob without journaling them (not synced): a copy taken
   * before a command may change the file, named by a backup session later.
   * Unnamed blobs are collected only after BLOB_GRACE_MS. Returns the sha.
   */
  keepBlob(bytes: Uint8Array, sha?: string): string;
  /**
   * Keeps a named checkpoint (replacing one of the same name), durably; the
   * blobs it names are kept with it.
   */
  saveCheckpoint(checkpoint: StoredCheckpoint): void;
}

/** How far past a bound the store may grow before a record call collects. */
export function margin(bound: number): number {
  return Math.max(1, Math.ceil(bound / 10));
}

/** A positive option, or `fallback` when not given. */
export function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be positive`);
  return value;
}

export const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;
export const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * A blob younger than this is never collected, referenced or not: a
 * concurrent process may have stored it and not yet appended the event that
 * names it.
 */
export const BLOB_GRACE_MS = 60_000;

/** A compaction lock older than this is considered abandoned. */
export const LOCK_STALE_MS = 30_000;

export const EVENT_KINDS: readonly EventKind[] = ["read", "write", "rollback", "delete"];

/** What an event names as (after) sha and before sha, for reference counting. */
export function shasOf(event: JournalEvent): string[] {
  const out: string[] = [];
  if (event.sha) out.push(event.sha);
  if (event.before?.sha) out.push(event.before.sha);
  return out;
}

/** The fields every event starts with. */
function newEvent(kind: EventKind, path: string, session: string): JournalEvent {
  if (typeof path !== "string" || path === "") {
    throw new TypeError("a history path must be non-empty");
  }
  return { kind, path, session, at: new Date().toISOString() };
}

/** The event of a read of `version` (lines `range` shown; absent = the whole file). */
export function readEvent(
  path: string,
  session: string,
  version: VersionRef,
  range?: [number, number],
): JournalEvent {
  const event: JournalEvent = { ...newEvent("read", path, session), ...version };
  if (range) event.range = [range[0], range[1]];
  return event;
}

/** Throws when a write record's kind and versions disagree. */
export function checkWriteRecord(e: WriteRecord): void {
  if (e.kind === "delete" && e.after) throw new TypeError("a delete has no after version");
  if (e.kind !== "delete" && !e.after) throw new TypeError(`a ${e.kind} needs an after version`);
}

/** Who made a change beside its session: the program and the tool, when known. */
export interface Maker {
  client?: string | undefined;
  tool?: string | undefined;
}

/** The event of a write record whose versions were stored as `refs`. */
export function writeEvent(
  e: WriteRecord,
  session: string,
  refs: { before?: VersionRef; after?: VersionRef },
  by: Maker = {},
): JournalEvent {
  const event = newEvent(e.kind, e.path, session);
  if (by.client !== undefined) event.client = by.client;
  if (by.tool !== undefined) event.tool = by.tool;
  if (refs.after) Object.assign(event, refs.after);
  if (refs.before) event.before = { ...refs.before };
  if (e.backup !== undefined) event.backup = e.backup;
  if (e.note !== undefined) event.note = e.note;
  if (e.pending) event.pending = true;
  return event;
}

/** One file change inside a backup session. */
export interface BackupChange {
  path: string;
  kind: EventKind;
  /** The original content; absent when the change created the file. */
  before?: VersionRef;
  /** What the change wrote; absent for a delete. */
  after?: VersionRef;
  note?: string;
}

/** How many backup sessions there are, and the newest one's id. */
export interface BackupMark {
  count: number;
  newest?: string;
}

/** Everything one tool call changed, so it can be undone as a unit. */
export interface BackupSession {
  id: string;
  at: string;
  session: string;
  /** The program behind the session, when it said (see `HistoryStore.nameClient`). */
  client?: string;
  /** The tool whose call made it (see `HistoryStore.forTool`); absent in older records. */
  tool?: string;
  changes: BackupChange[];
}
