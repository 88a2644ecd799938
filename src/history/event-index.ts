/**
 * The in-memory index over the journal: events per path in journal order,
 * what each session has seen, and running totals that decide when to
 * collect. Every query here is answered from memory; the store feeds it the
 * journal's new lines before each query.
 */
import type { StoredEvent } from "./journal.js";
import type {
  BackupMark,
  BackupSession,
  LastRead,
  VersionInfo,
  VersionMaker,
  VersionRef,
} from "./types.js";

/** sha -> tag, in the order the session saw them (re-seeing moves a sha to the end). */
type SeenVersions = Map<string, string>;

export class EventIndex {
  private byPath = new Map<string, StoredEvent[]>();
  private seen = new Map<string, Map<string, SeenVersions>>();
  private ids = new Set<string>();
  private sizes = new Map<string, number>();
  private backupEvents = new Map<string, StoredEvent[]>();
  /** Ids of pending changes whose completion mark was seen. */
  private landedIds = new Set<string>();
  /** Events indexed (duplicates excluded). */
  count = 0;
  /** Sum of the sizes of the distinct blobs the indexed events name (plus blobs noted directly). */
  bytes = 0;

  reset(): void {
    this.byPath = new Map();
    this.seen = new Map();
    this.ids = new Set();
    this.sizes = new Map();
    this.backupEvents = new Map();
    this.landedIds = new Set();
    this.count = 0;
    this.bytes = 0;
  }

  /** The indexed events of one path, in journal order. */
  eventsOf(path: string): readonly StoredEvent[] {
    return this.byPath.get(path) ?? [];
  }

  /** Index one event; false when its id was already indexed. */
  add(event: StoredEvent): boolean {
    if (event.id !== undefined) {
      if (this.ids.has(event.id)) return false;
      this.ids.add(event.id);
    }
    this.count++;
    let list = this.byPath.get(event.path);
    if (!list) {
      list = [];
      this.byPath.set(event.path, list);
    }
    list.push(event);
    if (event.backup !== undefined) {
      const group = this.backupEvents.get(event.backup) ?? [];
      group.push(event);
      this.backupEvents.set(event.backup, group);
    }
    if (event.sha) this.noteBlob(event.sha, event.size ?? 0);
    if (event.before) this.noteBlob(event.before.sha, event.before.size);
    if (event.sha && event.kind !== "delete") this.markSeen(event.session, event.path, event);
    return true;
  }

  /** The completion marks noted so far (kept across a re-index of the same journal). */
  landedSoFar(): string[] {
    return [...this.landedIds];
  }

  /** Notes completion marks (a mark may come before its event when two polls split them). */
  markLanded(ids: Iterable<string>): void {
    for (const id of ids) this.landedIds.add(id);
  }

  /**
   * Whether a change happened. A pending change without its completion mark
   * is one whose process died between the journal line and the rename,
   * unless a later event of the path names the version it wrote (the process
   * died just after the rename, and a read or the next write saw the file).
   * Deciding it from the journal alone keeps undo a function of history; the
   * file's bytes are not evidence, an outside writer may have changed them.
   */
  landed(event: StoredEvent): boolean {
    if (!event.pending || (event.id !== undefined && this.landedIds.has(event.id))) return true;
    if (!event.sha) return false;
    const events = this.byPath.get(event.path) ?? [];
    for (let i = events.lastIndexOf(event) + 1; i > 0 && i < events.length; i++) {
      const later = events[i]!;
      if (later.sha === event.sha || later.before?.sha === event.sha) return true;
    }
    return false;
  }

  /** Count a blob towards the byte total (once per sha). */
  noteBlob(sha: string, size: number): void {
    if (this.sizes.has(sha)) return;
    this.sizes.set(sha, size);
    this.bytes += size;
  }

  private markSeen(session: string, path: string, event: StoredEvent): void {
    let paths = this.seen.get(session);
    if (!paths) {
      paths = new Map();
      this.seen.set(session, paths);
    }
    let versions = paths.get(path);
    if (!versions) {
      versions = new Map();
      paths.set(path, versions);
    }
    const sha = event.sha as string;
    versions.delete(sha);
    versions.set(sha, event.tag ?? "");
  }

  seenShasForTag(session: string, path: string, tag: string): string[] {
    const versions = this.seen.get(session)?.get(path);
    if (!versions) return [];
    const out: string[] = [];
    for (const [sha, seenTag] of versions) if (seenTag === tag) out.push(sha);
    return out.reverse();
  }

  hasSeen(session: string, path: string, sha: string): boolean {
    return this.seen.get(session)?.get(path)?.has(sha) ?? false;
  }

  /** The version of `path` this session saw (read or wrote) most recently. */
  lastSeen(session: string, path: string): { sha: string; tag: string } | undefined {
    const versions = this.seen.get(session)?.get(path);
    if (!versions || versions.size === 0) return undefined;
    const [sha, tag] = [...versions].at(-1)!;
    return { sha, tag };
  }

  /** Whether the newest event of `path` already is this read: same session, version and range. */
  isRepeatRead(session: string, path: string, sha: string, range?: [number, number]): boolean {
    const e = this.byPath.get(path)?.at(-1);
    if (e?.kind !== "read" || e.session !== session || e.sha !== sha) return false;
    return e.range?.[0] === range?.[0] && e.range?.[1] === range?.[1];
  }

  lastRead(session: string, path: string): LastRead | undefined {
    const events = this.byPath.get(path) ?? [];
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.kind !== "read" || e.session !== session || !e.sha) continue;
      const out: LastRead = { sha: e.sha, tag: e.tag ?? "", at: e.at };
      if (e.range) out.range = [e.range[0], e.range[1]];
      return out;
    }
    return undefined;
  }

  /**
   * Every distinct version of a path, newest first, each described by its
   * newest occurrence. Within one event the written version (after) is newer
   * than the replaced one (before).
   */
  versions(path: string): VersionInfo[] {
    const events = this.byPath.get(path) ?? [];
    const out: VersionInfo[] = [];
    const done = new Set<string>();
    const push = (ref: VersionRef, e: StoredEvent, replaced: boolean) => {
      if (done.has(ref.sha)) return;
      done.add(ref.sha);
      const info: VersionInfo = {
        sha: ref.sha,
        tag: ref.tag,
        size: ref.size,
        at: e.at,
        kind: e.kind,
        session: e.session,
        replaced,
      };
      if (e.note !== undefined) info.note = e.note;
      out.push(info);
    };
    const makers = new Map<string, VersionMaker>();
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.sha && (e.kind === "write" || e.kind === "rollback") && this.landed(e)) {
        if (!makers.has(e.sha)) makers.set(e.sha, makerOf(e));
      }
      if (e.sha) push({ sha: e.sha, tag: e.tag ?? "", size: e.size ?? 0 }, e, false);
      if (e.before) push(e.before, e, true);
    }
    for (const v of out) {
      const made = makers.get(v.sha);
      if (made) v.made = made;
    }
    return out;
  }

  /** The sha the newest event leaves the path at; undefined after a delete or when unknown. */
  latestKnown(path: string): string | undefined {
    const events = this.byPath.get(path);
    const last = events?.[events.length - 1];
    if (!last || last.kind === "delete") return undefined;
    return last.sha;
  }

  /**
   * Whether `path` holding `sha` is splice's own doing: the version its
   * newest write left, or the one that write replaces while it has not
   * landed (between the journal line and the rename, when a watch may read
   * the file, and reads may be journaled after that line).
   */
  isOwnVersion(path: string, sha: string): boolean {
    const events = this.byPath.get(path) ?? [];
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.kind === "read") continue;
      return e.sha === sha || (e.before?.sha === sha && !this.landed(e));
    }
    return false;
  }

  /**
   * The version a path had before `sha`: the `before` of the newest
   * write/rollback that produced `sha` (undefined when that write created the
   * file); when no write produced it, the newest other version recorded.
   */
  versionBefore(path: string, sha: string): VersionRef | undefined {
    const made = this.producerOf(path, sha);
    if (made) return made.before ? { ...made.before } : undefined;
    const other = this.versions(path).find((v) => v.sha !== sha);
    return other ? { sha: other.sha, tag: other.tag, size: other.size } : undefined;
  }

  /** The newest write or rollback of `path` that left it at `sha`. */
  producerOf(path: string, sha: string): StoredEvent | undefined {
    const events = this.byPath.get(path) ?? [];
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if ((e.kind === "write" || e.kind === "rollback") && e.sha === sha) return e;
    }
    return undefined;
  }

  /**
   * How many backup sessions there are and the newest one's id: what
   * changes when one appears, counted without building them.
   */
  backupMark(): BackupMark {
    let count = 0;
    let newest: string | undefined;
    for (const [id, events] of this.backupEvents) {
      if (!events.some((e) => this.landed(e))) continue;
      count++;
      newest = id;
    }
    return { count, ...(newest !== undefined ? { newest } : {}) };
  }

  /** Backup sessions, newest first, each with the files it changed in journal order. */
  backups(): BackupSession[] {
    const out: BackupSession[] = [];
    for (const [id, all] of this.backupEvents) {
      // A change that never landed is not a change: undo must not pick it.
      const events = all.filter((e) => this.landed(e));
      const first = events[0];
      if (!first) continue;
      const client = events.find((e) => e.client !== undefined)?.client;
      const tool = events.find((e) => e.tool !== undefined)?.tool;
      out.push({
        id,
        at: first.at,
        session: first.session,
        ...(client !== undefined ? { client } : {}),
        ...(tool !== undefined ? { tool } : {}),
        changes: events.map((e) => ({
          path: e.path,
          kind: e.kind,
          ...(e.before ? { before: { ...e.before } } : {}),
          ...(e.sha ? { after: { sha: e.sha, tag: e.tag ?? "", size: e.size ?? 0 } } : {}),
          ...(e.note !== undefined ? { note: e.note } : {}),
        })),
      });
    }
    return out.reverse();
  }
}

function makerOf(e: StoredEvent): VersionMaker {
  return {
    at: e.at,
    session: e.session,
    ...(e.tool !== undefined ? { tool: e.tool } : {}),
    ...(e.client !== undefined ? { client: e.client } : {}),
    ...(e.backup !== undefined ? { backup: e.backup } : {}),
  };
}
