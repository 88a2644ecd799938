/**
 * The history of a dry run: it answers as `base` would had the dry run's
 * reads and writes been journalled after everything `base` knows, and it
 * records them in memory only. It holds `base` as a reader, so nothing it
 * does can reach the base's journal or blobs.
 */
import type { SyncBarrier } from "../util/durable.js";
import { sha256 } from "../util/hash.js";
import type { StoredCheckpoint } from "./checkpoints.js";
import { EventIndex } from "./event-index.js";
import {
  type BackupMark,
  type BackupSession,
  checkWriteRecord,
  type HistoryReader,
  type HistoryStore,
  type LastRead,
  readEvent,
  type VersionInfo,
  type VersionRef,
  type WriteRecord,
  writeEvent,
} from "./types.js";

export class DryRunHistory implements HistoryStore {
  readonly dir: string;
  readonly session: string;
  private readonly base: HistoryReader;
  private readonly blobs = new Map<string, Uint8Array>();
  /** The dry run's own events, newer than every event of `base`. */
  private readonly own = new EventIndex();

  constructor(base: HistoryReader) {
    this.base = base;
    this.dir = base.dir;
    this.session = base.session;
  }

  /** `sha`, when given, must be the SHA-256 of `bytes`, as for the real store. */
  private put(bytes: Uint8Array, knownSha?: string): string {
    const sha = knownSha ?? sha256(bytes);
    // A copy, as the real store's file is: the caller may reuse its buffer.
    if (!this.blobs.has(sha)) this.blobs.set(sha, bytes.slice());
    return sha;
  }

  private ref(version: {
    bytes: Uint8Array;
    tag: string;
    sha?: string;
    mode?: number;
  }): VersionRef {
    const ref: VersionRef = {
      sha: this.put(version.bytes, version.sha),
      tag: version.tag,
      size: version.bytes.length,
    };
    if (version.mode !== undefined) ref.mode = version.mode;
    return ref;
  }

  keepBlob(bytes: Uint8Array, sha?: string): string {
    return this.put(bytes, sha);
  }

  /** Checkpoints a dry run saved, in memory only. */
  private readonly named = new Map<string, StoredCheckpoint>();

  hasBlob(sha: string): boolean {
    return this.blobs.has(sha) || this.base.hasBlob(sha);
  }

  checkpoint(name: string): StoredCheckpoint | undefined {
    return this.named.get(name) ?? this.base.checkpoint(name);
  }

  checkpoints(): StoredCheckpoint[] {
    const base = this.base.checkpoints().filter((c) => !this.named.has(c.name));
    return [...this.named.values()].reverse().concat(base);
  }

  saveCheckpoint(checkpoint: StoredCheckpoint): void {
    this.named.delete(checkpoint.name);
    this.named.set(checkpoint.name, checkpoint);
  }

  getBlob(sha: string): Uint8Array | undefined {
    return this.blobs.get(sha) ?? this.base.getBlob(sha);
  }

  recordRead(
    path: string,
    bytes: Uint8Array,
    tag: string,
    range?: [number, number],
    knownSha?: string,
  ): VersionRef {
    if (knownSha && this.own.isRepeatRead(this.session, path, knownSha, range)) {
      return { sha: knownSha, tag, size: bytes.length };
    }
    const version = this.ref({ bytes, tag, ...(knownSha ? { sha: knownSha } : {}) });
    this.own.add(readEvent(path, this.session, version, range));
    return version;
  }

  /** Nothing is durable in memory: `barrier` gets nothing to sync. */
  recordWrite(e: WriteRecord, _barrier?: SyncBarrier): { before?: VersionRef; after?: VersionRef } {
    checkWriteRecord(e);
    const out: { before?: VersionRef; after?: VersionRef } = {};
    if (e.before) out.before = this.ref(e.before);
    if (e.after) out.after = this.ref(e.after);
    // A dry run replaces no file: its changes are never pending.
    const by = this.tool === undefined ? {} : { tool: this.tool };
    this.own.add(writeEvent({ ...e, pending: false }, this.session, out, by));
    return out;
  }

  landed(_id: string): void {}

  /** A dry run journals nothing, so there is nothing to name. */
  nameClient(): void {}

  /** The tool whose call the writes belong to, as the real store records it (forTool). */
  private tool: string | undefined;

  /** A view that stamps `tool` on its writes; everything else is this dry run's, shared. */
  forTool(tool: string): DryRunHistory {
    const view = Object.create(this) as DryRunHistory;
    view.tool = tool;
    return view;
  }

  recordWrites(records: readonly WriteRecord[], barrier: SyncBarrier): { id?: string }[] {
    return records.map((r) => {
      this.recordWrite(r, barrier);
      return {};
    });
  }

  landedAll(_ids: readonly string[]): void {}

  hasSeen(path: string, sha: string): boolean {
    return this.own.hasSeen(this.session, path, sha) || this.base.hasSeen(path, sha);
  }

  seenShasForTag(path: string, tag: string): string[] {
    const shas = [
      ...this.own.seenShasForTag(this.session, path, tag),
      ...this.base.seenShasForTag(path, tag),
    ];
    return [...new Set(shas)];
  }

  lastSeen(path: string): { sha: string; tag: string } | undefined {
    return this.own.lastSeen(this.session, path) ?? this.base.lastSeen(path);
  }

  lastRead(path: string): LastRead | undefined {
    return this.own.lastRead(this.session, path) ?? this.base.lastRead(path);
  }

  /**
   * Each version described by its newest occurrence: the dry run's, when it
   * has one; what wrote it is the dry run's write, else the real store's.
   */
  versions(path: string): VersionInfo[] {
    const base = new Map(this.base.versions(path).map((v) => [v.sha, v]));
    const own = this.own.versions(path).map((v) => {
      const made = v.made ?? base.get(v.sha)?.made;
      return made ? { ...v, made } : v;
    });
    const shas = new Set(own.map((v) => v.sha));
    return [...own, ...[...base.values()].filter((v) => !shas.has(v.sha))];
  }

  findByTag(path: string, tag: string): VersionInfo[] {
    return this.versions(path).filter((v) => v.tag === tag);
  }

  latestKnown(path: string): string | undefined {
    return this.own.eventsOf(path).length > 0
      ? this.own.latestKnown(path)
      : this.base.latestKnown(path);
  }

  isOwnVersion(path: string, sha: string): boolean {
    return this.own.eventsOf(path).length > 0
      ? this.own.isOwnVersion(path, sha)
      : this.base.isOwnVersion(path, sha);
  }

  /**
   * The `before` of the newest write that made `sha`, the dry run's first.
   * When neither made it, `base` answers with its newest other version, which
   * misses only one the dry run recorded of a file changed outside it meanwhile.
   */
  versionBefore(path: string, sha: string): VersionRef | undefined {
    const made = this.own.producerOf(path, sha);
    if (made) return made.before ? { ...made.before } : undefined;
    if (this.base.versions(path).length === 0) return this.own.versionBefore(path, sha);
    return this.base.versionBefore(path, sha);
  }

  /**
   * Newest first. A session id both know keeps its place and its first
   * change from `base`, and gains the dry run's changes after its own.
   */
  backups(): BackupSession[] {
    const own = new Map(this.own.backups().map((b) => [b.id, b]));
    const known = this.base.backups().map((b) => {
      const more = own.get(b.id);
      if (!more) return b;
      own.delete(b.id);
      return { ...b, changes: [...b.changes, ...more.changes] };
    });
    return [...own.values(), ...known];
  }

  backupMark(): BackupMark {
    const all = this.backups();
    return { count: all.length, ...(all[0] ? { newest: all[0].id } : {}) };
  }
}
